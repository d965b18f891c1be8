/**
 * Text from outside Taleforge (world text, script logs and errors, model
 * narration, player input, file names) made safe for a terminal: the one
 * sanitizer of every command and format (issue 15 item 11).
 *
 * Control characters can drive a terminal: ESC starts sequences that clear
 * the screen, change the title, write the clipboard (OSC 52), hide text or
 * make links (OSC 8); CR overwrites a line; C1 characters (U+0080-U+009F)
 * are 8-bit escapes on some terminals; bidirectional overrides reorder what
 * is shown (the "Trojan source" trick). Each is shown as a visible `\u001b`-style
 * escape instead, which in a JSON string is the same character, so JSON and
 * SARIF output keep their data.
 *
 * Newline and tab pass. Everything else is left as written.
 */

/** What must never reach a terminal raw: C0 controls but tab and newline, DEL, C1, bidi controls. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, "g");

/** The visible form of one character: `\u001b`. */
function visible(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** Whether a text holds any character a terminal would act on (see above). */
export function hasControlCharacters(text: string): boolean {
  return UNSAFE.test(text);
}

/** The first such character's code, for messages ("U+001B"); null when there is none. */
export function firstControlCharacter(text: string): string | null {
  const match = UNSAFE.exec(text);
  return match ? `U+${match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}` : null;
}

/**
 * Untrusted text as it may be printed: every control character shown as a
 * visible escape (a Windows line end becomes a plain newline first).
 */
export function escapeControls(text: string): string {
  if (!UNSAFE.test(text)) return text;
  return text.replace(/\r\n/g, "\n").replace(UNSAFE_ALL, visible);
}

/**
 * SGR parameters Taleforge's own painter (node:util styleText) emits: reset,
 * bold, dim, italic, underline and their ends, the foreground colours it
 * uses (red to cyan, gray) and their end. Not blink, inverse, conceal (8),
 * black or backgrounds: text hidden from the player is an attack.
 */
const ALLOWED_SGR = new Set([0, 1, 2, 3, 4, 22, 23, 24, 31, 32, 33, 34, 35, 36, 39, 90]);
const OUTPUT = new RegExp(`\\u001b\\[([0-9;]{0,16})m|${UNSAFE.source}`, "g");

function allowedSgr(params: string): boolean {
  return params.split(";").every((p) => p === "" || ALLOWED_SGR.has(Number(p)));
}

/**
 * Everything a command writes, at the last step before the terminal (see
 * src/cli/main.ts): colour sequences of the allowed kinds pass, every other
 * control character is escaped. Whatever a formatter missed, nothing printed
 * can move the cursor or change the terminal.
 */
export function terminalSafe(text: string): string {
  if (!UNSAFE.test(text)) return text;
  return text.replace(OUTPUT, (match, params: string | undefined) => {
    if (params === undefined) return visible(match);
    return allowedSgr(params) ? match : match.replace(UNSAFE_ALL, visible);
  });
}

/**
 * A copy of a JSON-like value (a turn result, a trace) with every string,
 * keys included, passed through escapeControls; for formatters that print
 * many pieces of untrusted text between their own colours. Values that hold
 * no control character are returned as they are.
 */
export function escapeControlsDeep<T>(value: T, depth = 0): T {
  if (typeof value === "string") return escapeControls(value) as T;
  if (value === null || typeof value !== "object" || depth > 200) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const safe = escapeControlsDeep(item, depth + 1);
      if (safe !== item) changed = true;
      return safe;
    });
    return (changed ? out : value) as T;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
    return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const safeKey = escapeControls(key);
    const safe = escapeControlsDeep(item, depth + 1);
    if (safe !== item || safeKey !== key) changed = true;
    Object.defineProperty(out, safeKey, {
      value: safe,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return (changed ? out : value) as T;
}
