import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";
import { keysOf } from "../names.ts";

export default defineRule({
  code: "story-start/unknown-npc",
  severity: "warning",
  description: "A story start's `startingPartyNPCs` lists a name that is not a key of `npcs`.",
  why: "Starting party NPCs join the party, known, when the game begins (docs/engine.md). A name that matches no NPC adds no companion, and the opening text that expects one reads wrong. The hosted platform skips such an entry and still plays the world, so this is a warning, not an error (only what makes the platform refuse a world is an error).",
  messages: {
    unknown:
      'Starting party NPC {npc} does not exist, so the game skips it.{suggestion} Use a key of "npcs", define the NPC there, or remove the entry.',
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
