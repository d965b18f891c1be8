import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./effect-value.ts";

const effects = (...list: unknown[]) => ({ triggers: { start_sheep: { effects: list } } });
const at = (index: number) => ["triggers", "start_sheep", "effects", index, "value"];

testRule(rule, {
  valid: [
    {},
    {
      name: "exactly 100 characters, alone or in an array",
      patch: effects(
        { type: "write-string", key: "k", operator: "set", value: "d".repeat(100) },
        { type: "write-array", key: "a", operator: "set", value: ["d".repeat(100), 5] },
      ),
    },
    {
      name: "narrative events' onCompleteEffects are not a trigger budget",
      patch: {
        narrativeEvents: {
          flood: {
            title: "Flood",
            beats: "b",
            onCompleteEffects: [{ type: "write-string", key: "k", operator: "set", value: "d".repeat(200) }],
          },
        },
      },
    },
  ],
  invalid: [
    {
      name: "a long string value",
      patch: effects({ type: "quest-init", operator: "set", value: "d".repeat(101) }),
      errors: [{ path: at(0), messageId: "length", data: { type: "quest-init", length: 101 } }],
    },
    {
      name: "long elements of an array value",
      patch: effects({
        type: "player-traits",
        operator: "set",
        value: ["Brave", "d".repeat(130), true, "d".repeat(101)],
      }),
      errors: [
        { path: [...at(0), 1], messageId: "element", data: { type: "player-traits", index: 1, length: 130 } },
        { path: [...at(0), 3], messageId: "element", data: { type: "player-traits", index: 3, length: 101 } },
      ],
    },
  ],
});
