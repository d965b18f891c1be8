import { getLocation } from "jsonc-parser";
import { JSON_DUPLICATE_KEY } from "./codes.ts";
import type { Diagnostic } from "./diagnostic.ts";
import { formatPath } from "./diagnostic.ts";
import { diagnosticFrom } from "./rule.ts";
import { positionAt, type SourceFile } from "./source.ts";

/** Beyond this, a file is broken in bulk: the first ones say enough. */
const MAX_REPORTED = 50;

/**
 * Every duplicate key of a valid JSON text, as two warnings each (one at
 * each key, each naming the other's position). One linear scan of the text:
 * a stack of the keys seen per open object. The scan assumes valid JSON
 * (the caller parsed it already).
 */
export function findDuplicateKeys(source: SourceFile): Diagnostic[] {
  const text = source.text;
  const stack: (Map<string, number> | null)[] = [];
  const pairs: { key: string; first: number; second: number }[] = [];
  // Jumps from one structural character to the next: the regex engine skips the rest natively.
  const structural = /["{}[\]]/g;
  for (
    let match = structural.exec(text);
    match && pairs.length < MAX_REPORTED;
    match = structural.exec(text)
  ) {
    const i = match.index;
    const c = text.charCodeAt(i);
    if (c === 0x7b) stack.push(new Map());
    else if (c === 0x5b) stack.push(null);
    else if (c === 0x7d || c === 0x5d) stack.pop();
    else {
      const end = stringEnd(text, i);
      const keys = stack[stack.length - 1];
      if (keys && nextNonSpace(text, end + 1) === 0x3a) {
        const raw = text.slice(i, end + 1);
        const key = raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        const first = keys.get(key);
        if (first === undefined) keys.set(key, i);
        else {
          pairs.push({ key, first, second: i });
          keys.set(key, i);
        }
      }
      structural.lastIndex = end + 1;
    }
  }
  return pairs.flatMap(({ key, first, second }) => {
    const path = getLocation(text, second + 1).path;
    const parentPath = path.slice(0, -1);
    const parent = parentPath.length ? formatPath(parentPath) : "the top level";
    const at = [positionAt(source, first), positionAt(source, second)] as const;
    return (["ignored", "wins"] as const).map((messageId, i) => {
      const here = at[i]!;
      const other = at[1 - i]!;
      return diagnosticFrom(
        JSON_DUPLICATE_KEY,
        {
          path,
          messageId,
          data: { key: JSON.stringify(key), parent, otherLine: other.line, otherColumn: other.column },
        },
        () => here,
      );
    });
  });
}

/** The index of the closing quote of the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) return text.length - 1;
    let backslashes = 0;
    for (let j = quote - 1; text.charCodeAt(j) === 0x5c; j--) backslashes++;
    if (backslashes % 2 === 0) return quote;
    i = quote + 1;
  }
}

function nextNonSpace(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return c;
  }
  return -1;
}
