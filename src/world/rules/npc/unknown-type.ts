import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "npc/unknown-type",
  severity: "error",
  description: "An NPC's `type` is not a key of `npcTypes`.",
  why: 'The NPC type supplies its damage profile (vulnerabilities, resistances, immunities). A type that names no `npcTypes` entry still reads as a description to the narrator but gives no profile. It is a warning, not an error: the NPC works without one, and real exports leave the type blank on some NPCs, which this rule accepts as "no type".',
  messages: {
    unknown:
      'NPC {npc} has type {type}, which is not in "npcTypes", so it has no vulnerabilities, resistances or immunities.{suggestion} Use a key of "npcTypes", or add the type there.',
  },
  examples: {
    bad: { npcs: { "Ada Reed": { type: "Human" } } },
    good: { npcs: { "Ada Reed": { type: "human" } } },
  },
  check({ world, raw, report }) {
    const types = keysOf(raw, "npcTypes");
    if (!types) return;
    for (const [key, npc] of Object.entries(world.npcs)) {
      if (npc.type.trim() === "" || types.has(npc.type)) continue;
      report({
        path: ["npcs", key, "type"],
        messageId: "unknown",
        data: {
          npc: JSON.stringify(key),
          type: JSON.stringify(npc.type),
          suggestion: didYouMean(npc.type, types),
        },
      });
    }
  },
});
