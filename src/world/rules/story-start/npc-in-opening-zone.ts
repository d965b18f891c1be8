import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { openingZones, startsPhrase } from "../opening-zone.ts";

interface Finding {
  path: JsonPath;
  messageId: "inArea" | "atLocation";
  starts: string[];
  related: { path: JsonPath; message: string }[];
}

export default defineRule({
  code: "story-start/npc-in-opening-zone",
  severity: "warning",
  description:
    "An authored NPC stands where a story start can open: in one of its opening areas, or at an opening location that has no areas.",
  why: "docs/format.md: named story NPCs stay out of the opening zone, because the opening scene is written from what is there and pulls them in early. Every NPC in the world file counts as a named story NPC (authors write the ones that matter; real exports rarely set `properName`), except the start's own `startingPartyNPCs`. The opening zone follows the engine's pick: the `locationAreas` that belong to each listed location, or all its areas when none does. A start with no `locations` counts only the areas it names. A warning: the game runs, but the opening may spoil the story.",
  messages: {
    inArea:
      "NPC {npc} stands in {place}, where {starts} can open, so the opening scene may pull it in (docs/format.md). Move it to another area, or to another location for full isolation.",
    atLocation:
      "NPC {npc} is at {place}, where {starts} can open and which has no areas, so the opening scene may pull it in (docs/format.md). Move it to another location.",
  },
  examples: {
    bad: { npcs: { "Ada Reed": { currentLocation: "Old Mill", currentArea: "Millyard" } } },
    good: { npcs: { "Ada Reed": { currentLocation: "Old Mill", currentArea: "Loft" } } },
  },
  check({ world, raw, report }) {
    const { zones } = openingZones(world, raw);
    if (zones.length === 0) return;
    const byLocation = new Map<string, string[]>();
    for (const [name, npc] of Object.entries(world.npcs)) {
      const list = byLocation.get(npc.currentLocation);
      if (list) list.push(name);
      else byLocation.set(npc.currentLocation, [name]);
    }
    const findings = new Map<string, Finding>();
    for (const zone of zones) {
      for (const place of zone.places.values()) {
        for (const name of byLocation.get(place.location) ?? []) {
          if (zone.party.has(name)) continue;
          const area = world.npcs[name]!.currentArea;
          const origin = place.areas === null ? place.origin : place.areas.get(area);
          if (!origin) continue;
          let finding = findings.get(name);
          if (!finding) {
            finding = {
              path: ["npcs", name, place.areas === null ? "currentLocation" : "currentArea"],
              messageId: place.areas === null ? "atLocation" : "inArea",
              starts: [],
              related: [],
            };
            findings.set(name, finding);
          }
          finding.starts.push(zone.start);
          finding.related.push({
            path: origin,
            message: `story start ${JSON.stringify(zone.start)} opens here`,
          });
        }
      }
    }
    for (const [name, finding] of findings) {
      const npc = world.npcs[name]!;
      const place =
        finding.messageId === "atLocation"
          ? JSON.stringify(npc.currentLocation)
          : `${JSON.stringify(npc.currentArea)} of ${JSON.stringify(npc.currentLocation)}`;
      report({
        path: finding.path,
        messageId: finding.messageId,
        data: { npc: JSON.stringify(name), place, starts: startsPhrase(finding.starts) },
        related: finding.related,
      });
    }
  },
});
