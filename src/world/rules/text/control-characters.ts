import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { firstControlCharacter } from "../../terminal-text.ts";
import { isPlainObject } from "../../values.ts";

/** Reports after which the rest are counted in one: a world full of them needs one fix, not a thousand lines. */
const MAX_REPORTS = 50;

/**
 * Whether a valid JSON text may hold a control character (see terminal-text.ts) in a key or
 * string. JSON does not allow the C0 controls raw inside strings, so they can only come from an
 * escape (\b, \f, \r or \u with their code); the others (DEL, C1, the bidirectional controls)
 * may also be written raw. True means the walk runs (it may find nothing: a \u0009 is a tab);
 * false means no finding, so the walk is skipped.
 */
function mayHoldControls(text: string): boolean {
  // Pure ASCII (one byte of UTF-8 per character, counted in native code) can hold only DEL raw; the class scan is slower than both.
  if (Buffer.byteLength(text, "utf8") === text.length ? text.includes("\x7f") : RAW_CONTROL.test(text))
    return true;
  // Every backslash of a valid JSON text starts an escape; jumping over each whole escape keeps an
  // escaped backslash (`\\b` in a regular expression) from being read as the start of another.
  for (let i = text.indexOf("\\"); i !== -1; i = text.indexOf("\\", i + 2)) {
    const next = text.charCodeAt(i + 1);
    if (next === 98 || next === 102 || next === 114) return true; // \b \f \r
    if (next === 117 && CONTROL_CODE.test(text.slice(i + 2, i + 6))) return true; // \u and a code
  }
  return false;
}

/** The controls above U+001F, which JSON allows raw in a string. */
const RAW_CONTROL = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** The four hex digits of a \u escape of a control character (tab and newline included: they only cost a walk). */
const CONTROL_CODE = /^(?:00[01]|007[fF]|00[89]|061[cC]|200[eEfF]|202[a-eA-E]|206[6-9])/;

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
