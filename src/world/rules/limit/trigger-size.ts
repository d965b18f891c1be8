import { compactJsonLength, compactJsonWithin, escapeSlack } from "../../json-length.ts";
import { defineRule } from "../../rule.ts";
import { entriesOf, isPlainObject } from "../../values.ts";

export const MAX_TRIGGER_SIZE = 10028;
/** The figure the editor shows for the same limit (spec 8). */
const DISPLAYED_MAX_TRIGGER_SIZE = 10000;

/** Characters of a value's compact JSON; undefined for values JSON cannot hold (a script's BigInt, a cycle). */
export function compactJsonSize(value: unknown): number | undefined {
  try {
    return compactJsonLength(value);
  } catch {
    return undefined;
  }
}

const script = (length: number) => `// ${"x".repeat(length)}`;

export default defineRule({
  code: "limit/trigger-size",
  severity: "error",
  description: `One trigger is more than ${MAX_TRIGGER_SIZE} characters of compact JSON.`,
  why: `The engine caps each trigger at ${MAX_TRIGGER_SIZE} characters of compact JSON (\`JSON.stringify(trigger)\`), displayed as ${DISPLAYED_MAX_TRIGGER_SIZE}, at publish time and again at run time (docs/rules.md, limit/). The script has no cap of its own and counts toward this size. Characters are JavaScript string length (UTF-16 code units), as \`JSON.stringify(...).length\` gives them.`,
  messages: {
    size: `Trigger {name} is {size} characters of compact JSON; the limit is ${MAX_TRIGGER_SIZE} (shown as ${DISPLAYED_MAX_TRIGGER_SIZE}). Shorten its script or texts by {excess} characters, or split it into several triggers.`,
  },
  examples: {
    bad: { triggers: { start_sheep: { script: script(MAX_TRIGGER_SIZE) } } },
    good: { triggers: { start_sheep: { script: script(1000) } } },
  },
  check({ raw, text, report }) {
    // Triggers are rarely near the cap: one counted with no escapes, plus the most the text's escapes can add, is surely within it.
    const slack = escapeSlack(text);
    for (let row = 0, rows = entriesOf(raw.triggers); row < rows.length; row++) {
      const key = rows[row]![0];
      const trigger = rows[row]![1];
      if (!isPlainObject(trigger) || compactJsonWithin(trigger, MAX_TRIGGER_SIZE, slack)) continue;
      const size = compactJsonSize(trigger);
      if (size === undefined || size <= MAX_TRIGGER_SIZE) continue;
      report({
        path: ["triggers", key],
        messageId: "size",
        data: { name: JSON.stringify(key), size, excess: size - MAX_TRIGGER_SIZE },
      });
    }
  },
});
