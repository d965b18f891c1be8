import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { firstControlCharacter } from "../../terminal-text.ts";
import { isPlainObject } from "../../values.ts";

/** Reports after which the rest are counted in one: a world full of them needs one fix, not a thousand lines. */
const MAX_REPORTS = 50;

/**
 * What a JSON text must contain for a parsed key or string to hold a control character (see
 * terminal-text.ts): the character itself, or an escape of one (\b, \f, \r or \u with its code).
 * A candidate only means the walk runs (raw carriage returns between tokens are candidates too);
 * no candidate means no finding.
 */
const CANDIDATE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\\[bfr]|\\u(?:00[01]|007[fF]|00[89]|061[cC]|200[eEfF]|202[a-eA-E]|206[6-9])/g;

/** Whether the text may hold a control character in a key or string: a candidate not behind an escaped backslash (`\\b` in a regular expression is a backslash and a b). */
function mayHoldControls(text: string): boolean {
  CANDIDATE.lastIndex = 0;
  for (let match = CANDIDATE.exec(text); match; match = CANDIDATE.exec(text)) {
    const at = match.index;
    if (text.charCodeAt(at) !== BACKSLASH) return true;
    let before = 0;
    while (text.charCodeAt(at - 1 - before) === BACKSLASH) before++;
    if (before % 2 === 0) return true;
    CANDIDATE.lastIndex = at + 1;
  }
  return false;
}

const BACKSLASH = 92;

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
  check({ raw, text, report }) {
    // A string of the world can hold such a character only if the text holds it, raw or escaped.
    if (text !== undefined && !mayHoldControls(text)) return;
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
