import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { rawEffects } from "../triggers.ts";

export const MAX_EFFECT_VALUE = 100;

const write = (length: number) => ({
  triggers: {
    start_sheep: {
      effects: [{ type: "write-string", key: "motto", operator: "set", value: "d".repeat(length) }],
    },
  },
});

export default defineRule({
  code: "limit/effect-value",
  severity: "error",
  description: `An effect's string \`value\` (or a string element of an array value) is longer than ${MAX_EFFECT_VALUE} characters.`,
  why: `The engine caps an effect's \`value\` at ${MAX_EFFECT_VALUE} raw characters, at publish time and again at run time (docs/rules.md, limit/); for an array value (\`write-array set\`, \`player-traits\`) each string element is checked. Raw characters are counted as JavaScript string length (UTF-16 code units): an emoji counts 2. This is a trigger budget, so narrative events' \`onCompleteEffects\` are not checked.`,
  messages: {
    length: `The value of this "{type}" effect is {length} characters; the limit is ${MAX_EFFECT_VALUE}. Shorten it; keep long text in a story effect's instruction.`,
    element: `Element {index} of this "{type}" effect's value is {length} characters; the limit is ${MAX_EFFECT_VALUE}. Shorten it.`,
  },
  examples: { bad: write(MAX_EFFECT_VALUE + 1), good: write(MAX_EFFECT_VALUE) },
  check({ raw, report }) {
    const effects = rawEffects(raw);
    for (let i = 0; i < effects.length; i++) {
      const { path, effect } = effects[i]!;
      if (path[0] !== "triggers") continue;
      const { type, value } = effect;
      if (typeof value === "string" && value.length > MAX_EFFECT_VALUE) {
        report({
          path: [...path, "value"],
          messageId: "length",
          data: { type: String(type), length: value.length },
        });
      } else if (Array.isArray(value)) {
        const at: JsonPath = [...path, "value"];
        value.forEach((item, index) => {
          if (typeof item !== "string" || item.length <= MAX_EFFECT_VALUE) return;
          report({
            path: [...at, index],
            messageId: "element",
            data: { type: String(type), index, length: item.length },
          });
        });
      }
    }
  },
});
