import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { firstControlCharacter } from "../../terminal-text.ts";
import { isPlainObject } from "../../values.ts";

/** Reports after which the rest are counted in one: a world full of them needs one fix, not a thousand lines. */
const MAX_REPORTS = 50;

export default defineRule({
  code: "text/control-characters",
  severity: "warning",
  description:
    "A key or text of the world holds a control character (escape, carriage return, bell, a bidirectional override…).",
  why: "Control characters are not text: in a terminal, ESC starts sequences that clear the screen, change the title, write the clipboard or hide text, and bidirectional overrides show text in another order than it is read. Taleforge shows them as visible escapes such as \\u001b wherever it prints, so they never reach a player's terminal raw, but they also reach the narrator's prompt and any other program that reads the world. They are almost always pasted by accident. Tab and newline are fine.",
  messages: {
    found: "{where} holds the control character {char}. Remove it (write \\n for a new line).",
    more: "{count} more keys or texts hold control characters; only the first {shown} are listed.",
  },
  examples: {
    bad: { lore: { Mill: { content: "The mill\u001b[2J creaks." } } },
    good: { lore: { Mill: { content: "The mill creaks." } } },
  },
  check({ raw, report }) {
    let found = 0;
    // One path, pushed and popped as the walk goes (a report copies it): a new array per node was
    // most of this rule's time on a large world.
    const path: JsonPath = [];
    const visit = (value: unknown, depth: number) => {
      if (depth > 64) return;
      if (typeof value === "string") {
        const char = firstControlCharacter(value);
        if (char !== null) flag([...path], char, false);
        return;
      }
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          path.push(i);
          visit(value[i], depth + 1);
          path.pop();
        }
        return;
      }
      if (!isPlainObject(value)) return;
      for (const key of Object.keys(value)) {
        path.push(key);
        const char = firstControlCharacter(key);
        if (char !== null) flag([...path], char, true);
        visit(value[key], depth + 1);
        path.pop();
      }
    };
    const flag = (path: JsonPath, char: string, atKey: boolean) => {
      found += 1;
      if (found > MAX_REPORTS) return;
      const where = atKey ? "This key" : "This text";
      report({ path, messageId: "found", data: { where, char }, atKey });
    };
    visit(raw, 0);
    if (found > MAX_REPORTS)
      report({ path: [], messageId: "more", data: { count: found - MAX_REPORTS, shown: MAX_REPORTS } });
  },
});
