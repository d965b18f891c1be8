import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { areasByLocation, locationsByArea, quoteList } from "../names.ts";

export default defineRule({
  code: "npc/unknown-area",
  severity: "error",
  description:
    "An NPC's `currentArea` is not an area of its `currentLocation`, when that location defines areas.",
  why: 'Within a location the party moves between its `areas`; an NPC placed in an area the location does not have is never met there. A blank `currentArea` is accepted: real exports write "" for an NPC that has no particular area, and locations without areas have nothing to check against.',
  messages: {
    unknown:
      'NPC {npc} is in area {area}, which {location} does not have.{suggestion} Set "currentArea" to one of its areas ({areas}), or to "".',
    elsewhere:
      'NPC {npc} is in area {area}, which belongs to {owners}, not to {location}. Set "currentLocation" to that location, or "currentArea" to an area of {location} ({areas}).',
  },
  examples: {
    bad: { npcs: { "Ada Reed": { currentLocation: "Old Mill", currentArea: "Mill Yard" } } },
    good: { npcs: { "Ada Reed": { currentLocation: "Old Mill", currentArea: "Millyard" } } },
  },
  check({ world, raw, report }) {
    const areas = areasByLocation(raw);
    let owners: Map<string, string[]> | undefined;
    for (const [key, npc] of Object.entries(world.npcs)) {
      const own = areas.get(npc.currentLocation);
      // An unknown location is npc/unknown-location's; a location without areas has none to check.
      if (!own || own.size === 0 || npc.currentArea.trim() === "" || own.has(npc.currentArea)) continue;
      owners ??= locationsByArea(areas);
      const elsewhere = owners.get(npc.currentArea);
      const data = {
        npc: JSON.stringify(key),
        area: JSON.stringify(npc.currentArea),
        location: JSON.stringify(npc.currentLocation),
        areas: quoteList([...own.keys()]),
      };
      if (elsewhere) {
        report({
          path: ["npcs", key, "currentArea"],
          messageId: "elsewhere",
          data: { ...data, owners: quoteList(elsewhere) },
        });
      } else {
        report({
          path: ["npcs", key, "currentArea"],
          messageId: "unknown",
          data: { ...data, suggestion: didYouMean(npc.currentArea, own.keys()) },
        });
      }
    }
  },
});
