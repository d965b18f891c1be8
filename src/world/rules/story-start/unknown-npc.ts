import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "story-start/unknown-npc",
  severity: "error",
  description: "A story start's `startingPartyNPCs` lists a name that is not a key of `npcs`.",
  why: "Starting party NPCs join the party, known, when the game begins (docs/engine.md). A name that matches no NPC adds no companion, and the opening text that expects one reads wrong.",
  messages: {
    unknown:
      'Starting party NPC {npc} does not exist.{suggestion} Use a key of "npcs", or define the NPC there.',
  },
  examples: {
    bad: { storyStarts: { Morning: { startingPartyNPCs: ["Ada"] } } },
    good: { storyStarts: { Morning: { startingPartyNPCs: ["Ada Reed"] } } },
  },
  check({ world, raw, report }) {
    const npcs = keysOf(raw, "npcs");
    if (!npcs) return;
    for (const [key, start] of Object.entries(world.storyStarts)) {
      (start.startingPartyNPCs ?? []).forEach((npc, index) => {
        if (npcs.has(npc)) return;
        report({
          path: ["storyStarts", key, "startingPartyNPCs", index],
          messageId: "unknown",
          data: { npc: JSON.stringify(npc), suggestion: didYouMean(npc, npcs) },
        });
      });
    }
  },
});
