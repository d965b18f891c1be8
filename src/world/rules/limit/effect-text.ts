import { defineRule } from "../../rule.ts";
import { rawEffects } from "../triggers.ts";

export const MAX_EFFECT_TEXT = 1000;

/** The text fields of effects: `story`'s instruction and the next-step hints' text. */
const TEXT_FIELDS = ["instruction", "text"] as const;

const instruction = (length: number) => ({
  triggers: { start_sheep: { effects: [{ type: "story", instruction: "c".repeat(length) }] } },
});

export default defineRule({
  code: "limit/effect-text",
  severity: "error",
  description: `An effect's \`instruction\` or \`text\` is longer than ${MAX_EFFECT_TEXT} characters.`,
  why: `The engine caps effect text (a \`story\` effect's \`instruction\`, a next-step effect's \`text\`) at ${MAX_EFFECT_TEXT} raw characters, at publish time and again at run time (docs/rules.md, limit/). Raw characters are counted as JavaScript string length (UTF-16 code units): an emoji counts 2. This is a trigger budget, so narrative events' \`onCompleteEffects\` are not checked.`,
  messages: {
    length: `The {field} of this "{type}" effect is {length} characters; the limit is ${MAX_EFFECT_TEXT}. Shorten it, or spread the guidance over several triggers.`,
  },
  examples: { bad: instruction(MAX_EFFECT_TEXT + 1), good: instruction(MAX_EFFECT_TEXT) },
  check({ raw, report }) {
    for (let row = 0, rows = rawEffects(raw); row < rows.length; row++) {
      const { path, effect } = rows[row]!;
      if (path[0] !== "triggers") continue;
      for (const field of TEXT_FIELDS) {
        const text = effect[field];
        if (typeof text !== "string" || text.length <= MAX_EFFECT_TEXT) continue;
        report({
          path: [...path, field],
          messageId: "length",
          data: { field, type: String(effect.type), length: text.length },
        });
      }
    }
  },
});
