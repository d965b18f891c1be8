import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./effect-text.ts";

const effects = (...list: unknown[]) => ({ triggers: { start_sheep: { effects: list } } });
const at = (index: number, field: string) => ["triggers", "start_sheep", "effects", index, field];

testRule(rule, {
  valid: [
    {},
    {
      name: "exactly 1000 characters",
      patch: effects(
        { type: "story", instruction: "c".repeat(1000) },
        { type: "party-next-step-set", text: "c".repeat(1000), source: "objective" },
      ),
    },
    {
      name: "narrative events' onCompleteEffects are not a trigger budget",
      patch: {
        narrativeEvents: {
          flood: {
            title: "Flood",
            beats: "b",
            onCompleteEffects: [{ type: "story", instruction: "c".repeat(2000) }],
          },
        },
      },
    },
  ],
  invalid: [
    {
      name: "instruction and text over the limit",
      patch: effects(
        { type: "story", instruction: "c".repeat(1001) },
        { type: "quest-next-step-set", questId: "Lost Sheep", text: "c".repeat(1200), source: "objective" },
      ),
      errors: [
        {
          path: at(0, "instruction"),
          messageId: "length",
          data: { field: "instruction", type: "story", length: 1001 },
        },
        {
          path: at(1, "text"),
          messageId: "length",
          data: { field: "text", type: "quest-next-step-set", length: 1200 },
        },
      ],
    },
  ],
});
