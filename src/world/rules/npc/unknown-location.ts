import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "npc/unknown-location",
  severity: "error",
  description: "An NPC's `currentLocation` is not a key of `locations`.",
  why: "An NPC is met where it stands. With a location that does not exist the party can never reach it, and every rule about where it is (areas, opening zone) has nothing to work with.",
  messages: {
    unknown:
      'NPC {npc} is at location {location}, which does not exist.{suggestion} Set "currentLocation" to a key of "locations".',
  },
  examples: {
    bad: { npcs: { "Ada Reed": { currentLocation: "Fen hut" } } },
    good: { npcs: { "Ada Reed": { currentLocation: "Fen Hut" } } },
  },
  check({ world, raw, report }) {
    const locations = keysOf(raw, "locations");
    if (!locations) return;
    for (const [key, npc] of Object.entries(world.npcs)) {
      // "" is "not placed yet" in real exports (the platform plays them).
      if (npc.currentLocation.trim() === "" || locations.has(npc.currentLocation)) continue;
      report({
        path: ["npcs", key, "currentLocation"],
        messageId: "unknown",
        data: {
          npc: JSON.stringify(key),
          location: JSON.stringify(npc.currentLocation),
          suggestion: didYouMean(npc.currentLocation, locations),
        },
      });
    }
  },
});
