import { type Node as JsonNode, parseTree } from "jsonc-parser";
import {
  type Document,
  isAlias,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  type Node as YamlNode,
} from "yaml";
import type { JsonPath } from "../../world/diagnostic.ts";
import { findExcessiveNesting, locate as locateJson, parseSource, positionAt } from "../../world/source.ts";
import { type Locate, type Position, type Problem, type ProblemMessage, problemOf } from "./problem.ts";

/** Larger than any hand-written play-test; a bigger file is a mistake (or an attack). */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;
/**
 * `yaml`'s guard against "billion laughs": an alias may stand for at most
 * this many nodes in total before toJS gives up (its default is 100).
 */
export const MAX_ALIAS_COUNT = 100;
/** Nesting deeper than this is refused before parsing (a play-test nests a few levels). */
export const MAX_DEPTH = 64;
/**
 * Values in a parsed file, aliases expanded. maxAliasCount bounds each alias,
 * not their sum: a big anchored list aliased 99 times would still hand the
 * checks millions of values. A hand-written play-test holds a few thousand.
 */
export const MAX_VALUES = 500_000;

export interface ParsedText {
  /** The parsed value; undefined when the text could not be read at all. */
  value: unknown;
  locate: Locate;
  problems: Problem[];
}

export type TextKind = "yaml" | "json";

/** `*.test.json` is JSON; everything else is YAML. */
export function kindOf(file: string): TextKind {
  return /\.json$/i.test(file) ? "json" : "yaml";
}

/**
 * Parses a play-test's text, keeping positions: every path (down to a key
 * inside `expect`) maps back to a line and column. Never throws.
 */
export function parseText(text: string, kind: TextKind): ParsedText {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const none: Locate = () => null;
  if (Buffer.byteLength(body, "utf8") > MAX_FILE_BYTES) {
    return {
      value: undefined,
      locate: none,
      problems: [problemOf("playtest/too-large", "too-large", { mib: MAX_FILE_BYTES / 1024 / 1024 }, null)],
    };
  }
  const deep = findExcessiveNesting(body, MAX_DEPTH);
  if (deep) {
    const at = positionAt({ name: "", text: body }, deep.offset);
    return {
      value: undefined,
      locate: none,
      problems: [problemOf("playtest/syntax", "too-deep", { depth: MAX_DEPTH }, at)],
    };
  }
  return kind === "json" ? parseJson(body) : parseYaml(body);
}

// ---------------------------------------------------------------------------
// YAML
// ---------------------------------------------------------------------------

/** The YAML library's error codes that have a message of their own (PROBLEM_CODES); the others show the library's. */
const YAML_MESSAGES: Partial<Record<string, ProblemMessage<"playtest/syntax">>> = {
  TAB_AS_INDENT: "tab",
  NON_STRING_KEY: "non-string-key",
  MULTILINE_IMPLICIT_KEY: "multiline-key",
  BAD_INDENT: "bad-indent",
};

function parseYaml(text: string): ParsedText {
  const lineCounter = new LineCounter();
  const at = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line: Math.max(1, line), column: Math.max(1, col) };
  };
  let docs: Document.Parsed[];
  try {
    // parseAllDocuments rather than parseDocument: parseDocument drops a second `---` document
    // without a word, and a play-test must not lose half of its steps silently.
    const parsed = parseAllDocuments(text, {
      lineCounter,
      prettyErrors: false,
      uniqueKeys: true,
      stringKeys: true,
      // Only JSON-like values: no !!binary, !!set, !!omap objects from tags, no `<<` merge keys.
      resolveKnownTags: false,
      merge: false,
      logLevel: "silent",
    });
    docs = Array.isArray(parsed) ? parsed : [];
  } catch (error) {
    return {
      value: undefined,
      locate: () => null,
      problems: [problemOf("playtest/syntax", "yaml", { reason: (error as Error).message }, null)],
    };
  }
  const problems: Problem[] = [];
  if (docs.length === 0) {
    return {
      value: undefined,
      locate: () => null,
      problems: [problemOf("playtest/syntax", "empty", {}, null)],
    };
  }
  const doc = docs[0]!;
  if (docs.length > 1) {
    const start = docs[1]!.range?.[0] ?? 0;
    problems.push(problemOf("playtest/syntax", "several-documents", {}, at(start)));
  }
  for (const issue of [...doc.errors, ...doc.warnings]) {
    const position = at(issue.pos[0]);
    if (issue.code === "DUPLICATE_KEY")
      problems.push(problemOf("playtest/duplicate-key", "yaml", {}, position));
    else {
      const id = YAML_MESSAGES[issue.code] ?? (issue.code === "TAG_RESOLVE_FAILED" ? "tag" : "yaml-issue");
      problems.push(problemOf("playtest/syntax", id, { reason: issue.message }, position));
    }
  }
  const locate = yamlLocator(doc, at);
  if (problems.length > 0) return { value: undefined, locate, problems };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const alias = firstAlias(doc.contents);
    const position = alias?.range ? at(alias.range[0]) : null;
    const reason = (error as Error).message;
    const id = /Excessive alias count/.test(reason)
      ? "too-many-nodes"
      : /Unresolved alias/.test(reason)
        ? "unresolved"
        : "unreadable";
    return {
      value: undefined,
      locate,
      problems: [problemOf("playtest/alias", id, { max: MAX_ALIAS_COUNT, reason }, position)],
    };
  }
  if (tooMany(value)) {
    const alias = firstAlias(doc.contents);
    return {
      value: undefined,
      locate,
      problems: [
        problemOf(
          "playtest/alias",
          "too-many-values",
          { max: MAX_VALUES },
          alias?.range ? at(alias.range[0]) : null,
        ),
      ],
    };
  }
  return { value, locate, problems };
}

/** Whether a value holds more than MAX_VALUES values (counted without recursion, stopping at the limit). */
function tooMany(root: unknown): boolean {
  const stack: unknown[] = [root];
  let count = 0;
  while (stack.length > 0) {
    const node = stack.pop();
    if (++count > MAX_VALUES) return true;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
    } else if (node !== null && typeof node === "object") {
      for (const item of Object.values(node)) stack.push(item);
    }
  }
  return false;
}

/**
 * The position of a path in a YAML document. A path that runs through an
 * alias is reported at the alias; a path that does not exist, at the deepest
 * node that does (where the missing key belongs).
 */
function yamlLocator(doc: Document.Parsed, at: (offset: number) => Position): Locate {
  return (path, atKey = false) => {
    let node: unknown = doc.contents;
    let best: Position | null = rangeOf(node, at);
    let throughAlias = false;
    for (let i = 0; i < path.length; i++) {
      const segment = path[i]!;
      if (isAlias(node)) {
        throughAlias = true;
        node = node.resolve(doc);
      }
      let next: unknown;
      let keyNode: unknown;
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && keyText(p.key) === String(segment));
        if (!pair) break;
        keyNode = pair.key;
        next = pair.value;
      } else if (isSeq(node) && typeof segment === "number") {
        next = node.items[segment];
        if (next === undefined) break;
      } else break;
      const last = i === path.length - 1;
      if (!throughAlias) {
        const target = last && atKey && keyNode !== undefined ? keyNode : (next ?? keyNode);
        best = rangeOf(target, at) ?? rangeOf(keyNode, at) ?? best;
      }
      node = next;
    }
    return best;
  };
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return undefined;
}

function rangeOf(node: unknown, at: (offset: number) => Position): Position | null {
  if (isNode(node) && node.range) return at(node.range[0]);
  return null;
}

/** The first alias in document order (breadth-first, bounded), to point at when aliases blow up. */
function firstAlias(root: unknown): YamlNode | undefined {
  const queue: unknown[] = [root];
  for (let i = 0; i < queue.length && i < 1_000_000; i++) {
    const node = queue[i];
    if (isAlias(node)) return node;
    if (isMap(node)) {
      for (const p of node.items) queue.push(p.key, p.value);
    } else if (isSeq(node)) {
      for (const item of node.items) queue.push(item);
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------

function parseJson(text: string): ParsedText {
  const { source, value, errors } = parseSource("<play-test>", text);
  const locate: Locate = (path, atKey = false) => locateJson(source, path, atKey);
  if (errors.length > 0) {
    const first = errors[0]!;
    return {
      value: undefined,
      locate,
      problems: [problemOf("playtest/syntax", "json", { reason: first.message }, first)],
    };
  }
  const problems: Problem[] = [];
  const root = parseTree(text, [], { disallowComments: true, allowTrailingComma: false });
  // The same tree locate() would build from the same text: it is parsed once, not again on the first position.
  source.tree = { root };
  if (root)
    findDuplicateKeys(root, [], (path, node) => {
      problems.push(problemOf("playtest/duplicate-key", "json", {}, positionAt(source, node.offset), path));
    });
  return { value, locate, problems };
}

function findDuplicateKeys(
  node: JsonNode,
  path: JsonPath,
  report: (path: JsonPath, key: JsonNode) => void,
): void {
  // Iterative: a wide file must not exhaust the stack (depth is bounded by MAX_DEPTH anyway).
  const stack: [JsonNode, JsonPath][] = [[node, path]];
  while (stack.length > 0) {
    const [current, at] = stack.pop()!;
    if (current.type === "object") {
      const seen = new Set<string>();
      for (const property of current.children ?? []) {
        const key = property.children?.[0];
        const value = property.children?.[1];
        if (!key) continue;
        const name = String(key.value);
        if (seen.has(name)) report([...at, name], key);
        seen.add(name);
        if (value) stack.push([value, [...at, name]]);
      }
    } else if (current.type === "array") {
      (current.children ?? []).forEach((child, i) => {
        stack.push([child, [...at, i]]);
      });
    }
  }
}
