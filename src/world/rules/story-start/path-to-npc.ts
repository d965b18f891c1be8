import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { quoteList } from "../names.ts";
import { openingZones, startsPhrase } from "../opening-zone.ts";

interface Finding {
  location: string;
  from: string;
  to: string;
  npcs: Set<string>;
  starts: string[];
}

export default defineRule({
  code: "story-start/path-to-npc",
  severity: "warning",
  description:
    "A path out of a story start's opening area leads straight to an area where an authored NPC stands.",
  why: "docs/format.md: the opening zone's outgoing `paths` must not lead to areas holding named story NPCs, since the opening scene describes where the party can go next and a first step reaches them. The zone and the NPCs counted are those of story-start/npc-in-opening-zone; paths that stay inside the zone are that rule's concern. A warning: the game runs, but the story's NPCs are met too early.",
  messages: {
    path: "This path leads from opening area {from} of {starts} to {to}, where {who}, one step from the opening (docs/format.md). Move {them} to an area the opening zone has no path to, or remove this path.",
  },
  examples: {
    bad: { npcs: { "Ada Reed": { currentLocation: "Old Mill", currentArea: "Loft" } } },
    good: { npcs: { "Ada Reed": { currentLocation: "Fen Hut", currentArea: "Porch" } } },
  },
  check({ world, raw, report }) {
    const { areas, zones } = openingZones(world, raw);
    if (zones.length === 0) return;
    const byArea = new Map<string, string[]>();
    for (const [name, npc] of Object.entries(world.npcs)) {
      const key = `${npc.currentLocation}\u0000${npc.currentArea}`;
      const list = byArea.get(key);
      if (list) list.push(name);
      else byArea.set(key, [name]);
    }
    // One report per path entry, however many starts share the area.
    const findings = new Map<string, Finding & { path: JsonPath }>();
    for (const zone of zones) {
      for (const place of zone.places.values()) {
        if (place.areas === null) continue;
        for (const from of place.areas.keys()) {
          for (const { target, index } of areas.get(place.location)?.get(from)?.paths ?? []) {
            if (place.areas.has(target)) continue;
            const npcs = (byArea.get(`${place.location}\u0000${target}`) ?? []).filter(
              (n) => !zone.party.has(n),
            );
            if (npcs.length === 0) continue;
            const path: JsonPath = ["locations", place.location, "areas", from, "paths", index];
            const id = JSON.stringify(path);
            let finding = findings.get(id);
            if (!finding) {
              finding = { path, location: place.location, from, to: target, npcs: new Set(), starts: [] };
              findings.set(id, finding);
            }
            for (const n of npcs) finding.npcs.add(n);
            if (!finding.starts.includes(zone.start)) finding.starts.push(zone.start);
          }
        }
      }
    }
    for (const finding of findings.values()) {
      const npcs = [...finding.npcs];
      report({
        path: finding.path,
        messageId: "path",
        data: {
          from: JSON.stringify(finding.from),
          to: JSON.stringify(finding.to),
          starts: startsPhrase(finding.starts),
          who: npcs.length === 1 ? `NPC ${quoteList(npcs)} stands` : `NPCs ${quoteList(npcs)} stand`,
          them: npcs.length === 1 ? "it" : "them",
        },
        related: npcs.map((n) => ({
          path: ["npcs", n, "currentArea"],
          message: `${JSON.stringify(n)} stands here`,
        })),
      });
    }
  },
});
