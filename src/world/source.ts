import {
  findNodeAtLocation,
  getNodeValue,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import type { JsonPath } from "./diagnostic.ts";
import { type BracketPairs, PositionIndex } from "./positions.ts";

/**
 * A JSON text with its syntax tree, so that any JSON path can be mapped back
 * to a line and column. Strict JSON: comments and trailing commas are errors.
 */
export interface SourceFile {
  name: string;
  text: string;
  /** The syntax tree of a text that is not valid JSON (or one a caller already built). */
  tree?: { root: Node | undefined };
  /** Built on first use: most files are valid and need no positions at all. */
  index?: PositionIndex;
  /** The text's bracket pairs when a nesting scan recorded them (the index then needs no scan of its own). */
  brackets?: BracketPairs;
  /** Where its lines start, built on the first position asked for (see LineIndex). */
  lines?: LineIndex;
}

export interface Position {
  line: number;
  column: number;
}

export interface SyntaxProblem extends Position {
  message: string;
  offset: number;
}

export function parseSource(
  name: string,
  text: string,
): { source: SourceFile; value: unknown; errors: SyntaxProblem[] } {
  const source: SourceFile = { name, text };
  try {
    // The fast path: JSON.parse is strict JSON, as the format requires.
    return { source, value: JSON.parse(text), errors: [] };
  } catch {
    const parseErrors: ParseError[] = [];
    const root = parseTree(text, parseErrors, { disallowComments: true, allowTrailingComma: false });
    source.tree = { root };
    const errors = parseErrors.map((e) => ({
      ...positionAt(source, e.offset),
      offset: e.offset,
      message: describeParseError(printParseErrorCode(e.error)),
    }));
    if (errors.length === 0) errors.push({ ...positionAt(source, 0), offset: 0, message: "invalid JSON" });
    return { source, value: root ? getNodeValue(root) : undefined, errors };
  }
}

/**
 * Where the value at a path starts and ends in a valid JSON text (see
 * PositionIndex), or undefined. The index is built on the first call.
 */
export function spanAt(
  source: SourceFile,
  path: JsonPath,
  atKey = false,
): { offset: number; end: number } | undefined {
  if (source.tree) {
    const root = source.tree.root;
    const node = root ? findNodeAtLocation(root, path) : undefined;
    if (!node) return undefined;
    const keyNode = atKey && node.parent?.type === "property" ? node.parent.children?.[0] : undefined;
    return { offset: (keyNode ?? node).offset, end: node.offset + node.length };
  }
  // Without recorded pairs the index skips the containers it passes over (see PositionIndex).
  source.index ??= new PositionIndex(source.text, source.brackets);
  return source.index.find(path, atKey);
}

function describeParseError(code: string): string {
  const words: Record<string, string> = {
    InvalidSymbol: "unexpected character",
    InvalidNumberFormat: "invalid number",
    PropertyNameExpected: "expected a property name in double quotes",
    ValueExpected: "expected a value",
    ColonExpected: "expected ':'",
    CommaExpected: "expected ',' (or a missing closing bracket)",
    CloseBraceExpected: "expected '}'",
    CloseBracketExpected: "expected ']'",
    EndOfFileExpected: "unexpected content after the end of the JSON value",
    InvalidCommentToken: "comments are not allowed in JSON",
    UnexpectedEndOfComment: "unterminated comment",
    UnexpectedEndOfString: "unterminated string",
    UnexpectedEndOfNumber: "unterminated number",
    InvalidUnicode: "invalid unicode escape",
    InvalidEscapeCharacter: "invalid escape character",
    InvalidCharacter: "invalid character in string (control characters must be escaped)",
  };
  return words[code] ?? code;
}

/** Lines per block of a LineIndex: the index keeps the start of every BLOCK-th line. */
const BLOCK = 32;
/** BLOCK lines (a line feed ends each), from where the last match ended: one match per block. */
const BLOCK_OF_LINES = new RegExp(`(?:[^\\n]*\\n){${BLOCK}}`, "y");
/** The same where a carriage return, a line feed or both (CRLF) end a line. */
const BLOCK_OF_CR_LINES = new RegExp(`(?:[^\\n\\r]*(?:\\r\\n|\\r(?!\\n)|\\n)){${BLOCK}}`, "y");
/** One line end of a text with carriage returns: CRLF, CR or LF. */
const LINE_END = /\r\n?|\n/g;

/**
 * Where the lines of a text start (1-based lines, as positions count them).
 * A text without carriage returns is cut into blocks of BLOCK lines by a
 * regular expression (native code: one turn of the loop per block, where a
 * loop per line cost a cold `check` with warnings several milliseconds, in
 * code that runs once, before the JIT compiles it); the lines of a block are
 * listed when a position in it is asked for. In a text with carriage returns,
 * CR, CRLF and LF all end a line (the same blocks, by another expression: a
 * loop over every character cost a cold `check` of a CRLF world with
 * warnings about 120 M instructions at the caps).
 */
class LineIndex {
  readonly #text: string;
  /** The start of line 1 + BLOCK * k, for every k the text has been cut as far as (see #cutPast). */
  readonly #blocks: number[] = [0];
  /** Whether a carriage return ends lines too. */
  readonly #crs: boolean;
  /** The expression that cuts the next block, or undefined once the text is cut to its end. */
  #block: RegExp | undefined;
  /** Block number -> the starts of its lines (at most #step), listed on first use. */
  readonly #lines = new Map<number, number[]>();

  constructor(text: string) {
    this.#text = text;
    this.#crs = text.includes("\r");
    this.#block = new RegExp(this.#crs ? BLOCK_OF_CR_LINES : BLOCK_OF_LINES);
  }

  /**
   * Cuts blocks until one starts after `offset` or the text ends: the text is cut only as far as
   * positions are asked for (a world whose problems are all in its first sections is not cut
   * further), and the block holding `offset` then has its end.
   */
  #cutPast(offset: number): void {
    const block = this.#block;
    if (!block) return;
    const blocks = this.#blocks;
    while (blocks[blocks.length - 1]! <= offset) {
      if (!block.test(this.#text)) {
        this.#block = undefined;
        return;
      }
      blocks.push(block.lastIndex);
    }
  }

  /** The starts of the lines of block `b`, in order. */
  #linesOf(b: number): number[] {
    let lines = this.#lines.get(b);
    if (lines) return lines;
    const start = this.#blocks[b]!;
    lines = [start];
    const end = this.#blocks[b + 1] ?? this.#text.length + 1;
    if (!this.#crs) {
      for (
        let i = this.#text.indexOf("\n", start);
        i !== -1 && i + 1 < end;
        i = this.#text.indexOf("\n", i + 1)
      )
        lines.push(i + 1);
    } else {
      const lineEnd = new RegExp(LINE_END);
      lineEnd.lastIndex = start;
      while (lineEnd.test(this.#text) && lineEnd.lastIndex < end) lines.push(lineEnd.lastIndex);
    }
    this.#lines.set(b, lines);
    return lines;
  }

  /** 1-based line and column of a character offset (before the text: line 1; after it: the last line). */
  position(offset: number): Position {
    // An offset before the text is on line 1: block 0 then needs its end too.
    this.#cutPast(offset < 0 ? 0 : offset);
    const blocks = this.#blocks;
    let low = 0;
    let high = blocks.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (blocks[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    const lines = this.#linesOf(low);
    let line = 0;
    while (line + 1 < lines.length && lines[line + 1]! <= offset) line++;
    return { line: low * BLOCK + line + 1, column: offset - lines[line]! + 1 };
  }

  /** Where 1-based line `n` starts, or undefined when the text has fewer lines. */
  start(n: number): number | undefined {
    if (n < 1) return undefined;
    const b = Math.floor((n - 1) / BLOCK);
    while (this.#block && this.#blocks.length <= b + 1) this.#cutPast(this.#blocks[this.#blocks.length - 1]!);
    if (b >= this.#blocks.length) return undefined;
    return this.#linesOf(b)[(n - 1) % BLOCK];
  }

  /** How many lines the text has (a final line feed starts an empty last line). */
  get count(): number {
    this.#cutPast(Number.POSITIVE_INFINITY);
    const last = this.#blocks.length - 1;
    return last * BLOCK + this.#linesOf(last).length;
  }
}

/** 1-based line and column of a character offset. */
export function positionAt(source: SourceFile, offset: number): Position {
  source.lines ??= new LineIndex(source.text);
  return source.lines.position(offset);
}

/**
 * The position of the deepest node that exists along a path: a missing field
 * is reported at the object that should hold it. When `atKey` is set and the
 * last segment names an object property, the property key is used instead of
 * its value (for "unknown field" and "key differs from name").
 */
export function locate(source: SourceFile | undefined, path: JsonPath, atKey = false): Position | null {
  if (!source) return null;
  for (let depth = path.length; depth >= 0; depth--) {
    const span = spanAt(
      source,
      depth === path.length ? path : path.slice(0, depth),
      atKey && depth === path.length,
    );
    if (span) return positionAt(source, span.offset);
  }
  return null;
}

/** A few lines of source around a position with a caret under the column. */
export function codeFrame(source: SourceFile, line: number, column: number, context = 1): string {
  // Only the lines shown are cut out: a report on a big world asks for thousands of frames.
  source.lines ??= new LineIndex(source.text);
  const lines = source.lines;
  const lineText = (n: number) =>
    withoutLineEnd(source.text.slice(lines.start(n) ?? 0, lines.start(n + 1) ?? source.text.length));
  const first = Math.max(1, line - context);
  // The whole text is cut for its count only when the frame reaches past its end.
  const last =
    lines.start(line + context) !== undefined ? line + context : Math.min(lines.count, line + context);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const raw = lineText(n);
    const clipped = clip(raw, column, n === line);
    out.push(`${n === line ? ">" : " "} ${String(n).padStart(width)} | ${clipped.text}`);
    if (n === line) out.push(`  ${" ".repeat(width)} | ${" ".repeat(clipped.caret)}^`);
  }
  return out.join("\n");
}

/** A line without its line end (CRLF, CR or LF), as `replace(/(\r\n|\r|\n)$/, "")` gives it. */
function withoutLineEnd(text: string): string {
  let end = text.length;
  const ch = text.charCodeAt(end - 1);
  if (ch === 10) {
    end--;
    if (text.charCodeAt(end - 1) === 13) end--;
  } else if (ch === 13) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** Long lines (minified worlds) are cut to a window around the column. */
function clip(text: string, column: number, isTarget: boolean): { text: string; caret: number } {
  const max = 100;
  const tabless = text.includes("\t") ? text.replace(/\t/g, " ") : text;
  if (tabless.length <= max) return { text: tabless, caret: column - 1 };
  const start = isTarget ? Math.max(0, column - 1 - 40) : 0;
  const slice = tabless.slice(start, start + max);
  const prefix = start > 0 ? "…" : "";
  const suffix = start + max < tabless.length ? "…" : "";
  return { text: prefix + slice + suffix, caret: column - 1 - start + prefix.length };
}

/**
 * Finds the first place where arrays/objects nest deeper than `limit`, by a
 * flat scan of the text (no recursion), or undefined. Strings are jumped over
 * whole with indexOf. When `counts` is given, the same scan counts the
 * object keys of the text (strings followed by a colon) and records the
 * bracket pairs in `counts.brackets` (a few thousand at the caps), which a
 * PositionIndex can start from. The world loader runs it only on a text
 * JSON.parse refuses (before the syntax tree, which recurses, is built) and
 * on one whose parsed value nests too deep (for the offset to report).
 *
 * The scan runs on the whole text, mostly before the JIT has
 * compiled it: a regular expression (native code) jumps from one quote or
 * bracket to the next, so the loop runs once per token, not once per
 * character of the indentation around them. `test` moves `lastIndex` without
 * building a match.
 */
export function findExcessiveNesting(
  text: string,
  limit: number,
  counts?: { keys: number; brackets?: BracketPairs },
): { offset: number } | undefined {
  let depth = 0;
  let keys = 0;
  // The bracket pairs (see BracketPairs): offsets in text order, and the ordinals still open.
  const opens: number[] = [];
  const closes: number[] = [];
  const stack: number[] = [];
  const structural = /["[\]{}]/g;
  while (structural.test(text)) {
    const i = structural.lastIndex - 1;
    const ch = text.charCodeAt(i);
    if (ch === 34) {
      const end = closingQuote(text, i);
      if (end < 0) return undefined;
      structural.lastIndex = end + 1;
      if (counts) {
        let next = end + 1;
        let after = text.charCodeAt(next);
        while (after === 32 || after === 10 || after === 13 || after === 9) after = text.charCodeAt(++next);
        if (after === 58) keys++;
      }
    } else if (ch === 123 || ch === 91) {
      if (++depth > limit) return { offset: i };
      stack.push(opens.length);
      opens.push(i);
      closes.push(-1);
    } else {
      depth--;
      const n = stack.pop();
      if (n !== undefined) closes[n] = i;
    }
  }
  if (counts) {
    counts.keys = keys;
    counts.brackets = { opens, closes };
  }
  return undefined;
}

/** The quote that closes the string opening at `start`, or -1 when the string never ends. */
function closingQuote(text: string, start: number): number {
  let i = text.indexOf('"', start + 1);
  while (i !== -1) {
    let backslashes = 0;
    for (let j = i - 1; text.charCodeAt(j) === 92; j--) backslashes++;
    if (backslashes % 2 === 0) return i;
    i = text.indexOf('"', i + 1);
  }
  return -1;
}
