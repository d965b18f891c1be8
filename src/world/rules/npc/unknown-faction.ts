import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "npc/unknown-faction",
  severity: "error",
  description: "An NPC's `faction` is not a key of `factions`.",
  why: "An NPC's faction ties it to a faction record, whose description the narrator uses for its loyalties. With an unknown name that context is lost; the NPC itself still works, so this is a warning. A blank faction means none.",
  messages: {
    unknown:
      'NPC {npc} belongs to faction {faction}, which does not exist.{suggestion} Use a key of "factions", define the faction, or leave "faction" out.',
  },
  examples: {
    bad: { npcs: { "Ada Reed": { faction: "Miller" } } },
    good: { npcs: { "Ada Reed": { faction: "Millers" } } },
  },
  check({ world, raw, report }) {
    const factions = keysOf(raw, "factions");
    if (!factions) return;
    for (const [key, npc] of Object.entries(world.npcs)) {
      const faction = npc.faction;
      if (faction === undefined || faction.trim() === "" || factions.has(faction)) continue;
      report({
        path: ["npcs", key, "faction"],
        messageId: "unknown",
        data: {
          npc: JSON.stringify(key),
          faction: JSON.stringify(faction),
          suggestion: didYouMean(faction, factions),
        },
      });
    }
  },
});
