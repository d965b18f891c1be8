import type { AiPorts } from "../engine/ports.ts";

/**
 * The one sanitiser of text that comes from outside Taleforge (model answers,
 * world text told by a narrator, player input), applied where that text
 * enters a game (see `cleanPorts` and `Game.apply`), so that the terminal and
 * the page receive the same plain text.
 *
 * A terminal escape sequence is removed whole: an OSC (`ESC ]`… up to BEL or
 * `ESC \`), a DCS, SOS, PM or APC (`ESC P`, `ESC X`, `ESC ^`, `ESC _`… up to
 * `ESC \`), a CSI (`ESC [` parameters, intermediates and its final byte), the
 * same introduced by their 8-bit C1 forms, and any other two-byte `ESC x`.
 * Escaping only the ESC would leave "[31m" in the story; removing only the
 * first sequence would let the next one through. What remains of C0 (but tab
 * and newline), DEL, C1 and the bidirectional controls is dropped: a player
 * cannot see them, and they reorder or hide what is shown. A Windows line end
 * or a lone carriage return becomes a newline.
 */

/** Bidirectional controls: ALM, LRM, RLM, the embeddings and overrides, the isolates. */
const BIDI = "\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069";
/** Controls left once the sequences are gone: C0 but tab and newline, DEL, C1, bidi. */
const LOOSE = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${BIDI}]`, "g");
/** The longest string sequence kept whole; a longer one is cut there (a bounded match). */
const MAX_SEQUENCE = 4096;

/**
 * One escape sequence, complete: string sequences end at BEL (OSC only) or ST
 * (`ESC \` or U+009C); CSI ends at its final byte (0x40-0x7E).
 */
const SEQUENCE = new RegExp(
  [
    `(?:\\u001b\\]|\\u009d)[^\\u0007\\u001b\\u009c]{0,${MAX_SEQUENCE}}(?:\\u0007|\\u001b\\\\|\\u009c)`,
    `(?:\\u001b[PX^_]|[\\u0090\\u0098\\u009e\\u009f])[^\\u001b\\u009c]{0,${MAX_SEQUENCE}}(?:\\u001b\\\\|\\u009c)`,
    "(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]{0,64}[\\u0020-\\u002f]{0,16}[\\u0040-\\u007e]",
    "\\u001b[\\u0020-\\u002f]{0,4}[\\u0030-\\u007e]",
  ].join("|"),
  "g",
);
/** A sequence begun at the end of a chunk, whose end may come with the next one. */
const OPEN_TAIL = new RegExp(
  [
    `(?:\\u001b\\]|\\u009d)[^\\u0007\\u001b\\u009c]{0,${MAX_SEQUENCE}}\\u001b?$`,
    `(?:\\u001b[PX^_]|[\\u0090\\u0098\\u009e\\u009f])[^\\u001b\\u009c]{0,${MAX_SEQUENCE}}\\u001b?$`,
    "(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]{0,64}[\\u0020-\\u002f]{0,16}$",
    "\\u001b[\\u0020-\\u002f]{0,4}$",
  ].join("|"),
);
const QUICK = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${BIDI}]`);

/** Outside text made plain: escape sequences removed whole, other controls dropped (see above). */
export function cleanText(text: string): string {
  if (!QUICK.test(text)) return text;
  return text.replace(/\r\n?/g, "\n").replace(SEQUENCE, "").replace(LOOSE, "");
}

/**
 * The same over a stream of chunks (narration as it is written): a sequence
 * split between two chunks is held back until it ends (at most MAX_SEQUENCE
 * characters), so no half of it reaches the screen.
 */
export class TextCleaner {
  private held = "";

  /** The clean text of `chunk` that can be shown now. */
  push(chunk: string): string {
    let text = this.held + chunk;
    this.held = "";
    // A lone CR at the end may be the first half of CRLF.
    const tail = OPEN_TAIL.exec(text) ?? (text.endsWith("\r") ? { index: text.length - 1 } : null);
    if (tail && text.length - tail.index <= MAX_SEQUENCE + 2) {
      this.held = text.slice(tail.index);
      text = text.slice(0, tail.index);
    }
    return cleanText(text);
  }

  /** What was held back at the end of the stream, cleaned (an unfinished sequence is dropped). */
  end(): string {
    const rest = this.held;
    this.held = "";
    return cleanText(rest.replace(OPEN_TAIL, ""));
  }
}

/**
 * The AI ports with what they answer cleaned as it enters the game: the
 * narration's chunks and text, and the running summary (every other answer is
 * read as data, never shown). Every other member passes through unchanged.
 */
export function cleanPorts<T extends AiPorts>(ai: T): T {
  const narrate: AiPorts["narrate"] = async (request, onChunk, signal) => {
    const cleaner = new TextCleaner();
    const chunk = onChunk
      ? (text: string) => {
          const clean = cleaner.push(text);
          if (clean !== "") onChunk(clean);
        }
      : undefined;
    const answer = await ai.narrate(request, chunk, signal);
    const rest = cleaner.end();
    if (rest !== "") onChunk?.(rest);
    return {
      ...answer,
      text: cleanText(answer.text),
      ...(answer.summary !== undefined ? { summary: cleanText(answer.summary) } : {}),
    };
  };
  return new Proxy(ai, {
    get(target, key) {
      if (key === "narrate") return narrate;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Worlds already cleaned, by the world given: a world read once per turn is walked once. */
const cleanedWorlds = new WeakMap<object, object>();

/**
 * A world with every text cleaned as `cleanText` does (names and keys, descriptions, lore, the
 * opening...), for everything shown of it outside the narration: the page's names and journal,
 * the terminal's views, the map. A trigger's `script` is code, not text, and is kept as written.
 * Keys and the names that refer to them are cleaned alike, so the world still holds together.
 * The same object when nothing needed cleaning (the usual case: nothing is copied).
 */
export function cleanWorld<T extends object>(world: T): T {
  const known = cleanedWorlds.get(world);
  if (known) return known as T;
  const clean = cleanValue(world, 0, "") as T;
  cleanedWorlds.set(world, clean);
  return clean;
}

function cleanValue(value: unknown, depth: number, key: string): unknown {
  if (typeof value === "string") return key === "script" ? value : cleanText(value);
  // Deeper than any valid world: left as it is (the world's own limits bound its depth).
  if (value === null || typeof value !== "object" || depth > 64) return value;
  // Parsed JSON only: anything else (a Map, a class's instance) is kept as it is.
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const next = cleanValue(item, depth + 1, "");
      if (next !== item) changed = true;
      return next;
    });
    return changed ? out : value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const name = cleanText(k);
    const next = cleanValue(v, depth + 1, k);
    if (name !== k || next !== v) changed = true;
    out[name] = next;
  }
  return changed ? out : value;
}
