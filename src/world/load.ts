import { isAscii } from "node:buffer";
import { readFileSync, statSync } from "node:fs";
import {
  COMPAT_MISSING_FIELD,
  COMPAT_MISSING_GAME_MODES,
  COMPAT_MISSING_SETTING,
  FILE_EMPTY,
  FILE_NOT_FOUND,
  JSON_SYNTAX,
  JSON_TOO_DEEP,
  TRAIT_NARRATIVE_FIELD,
  WORLD_MOD_FRAGMENT,
  WORLD_NOT_OBJECT,
  WORLD_UNSUPPORTED_VERSION,
  WORLD_VERSION_FIELD,
} from "./codes.ts";
import type { Diagnostic, JsonPath } from "./diagnostic.ts";
import { findDuplicateKeys } from "./duplicate-keys.ts";
import { FILE_ENCODING, wideEncoding } from "./encoding.ts";
import { type CodeInfo, diagnosticFrom, type Report } from "./rule.ts";
import { findExcessiveNesting, locate, parseSource, positionAt, type SourceFile } from "./source.ts";
import { describeValue, isPlainObject } from "./values.ts";

/** What reading a world file gives: the value as written (normalised for compatibility) and the problems found so far. */
export interface LoadedWorld {
  /** The name used in diagnostics: the path as given, or `<stdin>`. */
  file: string;
  source: SourceFile | undefined;
  /** The top-level object, after the compatibility steps of the resolutions; undefined when unreadable. */
  value: Record<string, unknown> | undefined;
  diagnostics: Diagnostic[];
  /** True when the file cannot be checked further (unreadable, not JSON, another version). */
  fatal: boolean;
  /** What the compatibility steps changed, so that an export can write the file back as it was. */
  compat: { gameModesAdded: boolean; quirkTraits: string[]; settingsAdded: string[] };
}

/** Reads a world from a path, or from stdin when the path is `-`. Never throws. */
export async function loadWorld(path: string): Promise<LoadedWorld> {
  if (path === "-") return parseWorld(await readStdin(), "<stdin>");
  try {
    // Read in one call, not through node:fs/promises: loading that module (and the readline and
    // stream modules behind it) cost every `check` more than the read, and a world is read whole
    // before anything else can happen (docs/benchmarks.md, issue 38, round 7).
    const info = statSync(path);
    if (info.isDirectory()) return failed(path, FILE_NOT_FOUND, "directory", { file: path });
    return parseWorld(decodeUtf8(readFileSync(path)), path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      return failed(path, FILE_NOT_FOUND, "missing", { file: path });
    return failed(path, FILE_NOT_FOUND, "unreadable", { file: path, reason: (error as Error).message });
  }
}

/**
 * A file's text, decoded in one piece. readFile with an encoding decodes a large file in chunks
 * through a StringDecoder and joins them, a text V8 then copies whole the first time it is read; a
 * pure ASCII file (most worlds) decodes as Latin-1 to the same characters, held outside V8's heap.
 */
function decodeUtf8(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Deeper than any world needs, and shallow enough that every recursive walk
 * (the position tree, the schema, the rules) stays far from the stack limit.
 */
export const MAX_DEPTH = 256;

/** Reads a world from text already in memory. Never throws. */
export function parseWorld(text: string, file = "<input>"): LoadedWorld {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const encoding = wideEncoding(body);
  if (encoding !== null) return failed(file, FILE_ENCODING, "utf16", { file, encoding });
  if (body.trim() === "") return failed(file, FILE_EMPTY, "empty", { file });
  // JSON.parse first, in native code: a valid text needs no scan of its own. V8's JSON.parse does
  // not recurse, so a text nested too deep parses, and the walk below (which does not recurse
  // either) finds its depth before anything that recurses sees it. A text JSON.parse refuses is
  // scanned for its nesting before the syntax tree (which recurses) is built.
  const parsed = parseJson(body);
  const counted = parsed ? keyCount(parsed.value) : undefined;
  const deep = !counted || counted.depth > MAX_DEPTH ? findExcessiveNesting(body, MAX_DEPTH) : undefined;
  if (deep) {
    const source: SourceFile = { name: file, text: body };
    const failure = failed(file, JSON_TOO_DEEP, "deep", { limit: String(MAX_DEPTH) });
    Object.assign(failure.diagnostics[0]!, positionAt(source, deep.offset));
    return { ...failure, source };
  }
  const { source, value, errors } = parsed
    ? { source: { name: file, text: body } as SourceFile, value: parsed.value, errors: [] }
    : parseSource(file, body);
  const result: LoadedWorld = {
    file,
    source,
    value: undefined,
    diagnostics: [],
    fatal: true,
    compat: { gameModesAdded: false, quirkTraits: [], settingsAdded: [] },
  };
  const report = (info: CodeInfo, r: Report) =>
    result.diagnostics.push(diagnosticFrom(info, r, (path, atKey) => locate(source, path, atKey)));
  if (errors.length > 0) {
    // Later syntax errors are mostly echoes of the first; one clear error beats a cascade.
    const first = errors[0]!;
    result.diagnostics.push({
      code: JSON_SYNTAX.code,
      severity: "error",
      message: `Invalid JSON: ${first.message}. Fix the file at this position.`,
      path: [],
      line: first.line,
      column: first.column,
    });
    return result;
  }
  if (!isPlainObject(value)) {
    report(WORLD_NOT_OBJECT, { path: [], messageId: "notObject", data: { actual: describeValue(value) } });
    return result;
  }
  if (checkVersion(value, report)) return result;
  result.fatal = false;
  result.value = value;
  // JSON.parse keeps the last of two equal keys without a word: say so, at both. Each key of the
  // text makes one property unless it repeats one, so when the parsed value holds as many keys as
  // the text there is no duplicate, and the search that places them is skipped. The text's keys
  // are bounded from above by keyBound: equal to the parsed count, it proves that no key repeats;
  // any other count runs the search, which finds only true duplicates.
  if (counted && counted.keys !== keyBound(body)) result.diagnostics.push(...findDuplicateKeys(source));
  normalise(value, result, report);
  return result;
}

/** JSON.parse's value, or undefined when the text is not JSON. */
function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * The own keys of every object in a parsed JSON value (before the compatibility steps add any),
 * and how deep its objects and arrays nest (the value itself is level 1, as the nesting scan
 * counts brackets), up to MAX_DEPTH + 1: a value nested deeper is not gone into further (the
 * nesting scan then finds where), so the recursion stays within MAX_DEPTH + 1 frames. A call per
 * object or array, its keys counted in a local and returned: 20 M instructions at the caps where
 * a walk on its own stack (two arrays written and read per container) took 25 M
 * (docs/benchmarks.md, issue 38, round 7).
 */
function keyCount(value: unknown): { keys: number; depth: number } {
  if (value === null || typeof value !== "object") return { keys: 0, depth: 0 };
  // JSON.parse's objects inherit from Object.prototype alone: when it has no enumerable key, for-in
  // yields their own keys and nothing else, and the own-key test per key (a third of the walk) is skipped.
  counting.inherited = inheritsEnumerable();
  counting.depth = 0;
  const keys = keysUnder(value, 1);
  return { keys, depth: counting.depth };
}

/** What keysUnder keeps across its calls: whether for-in may list inherited keys, the deepest level met. */
const counting = { inherited: false, depth: 0 };
const { isArray } = Array;
const { hasOwn } = Object;

/** The keys of the objects in a container at `level` and under it; records the deepest level in `counting`. */
function keysUnder(node: object, level: number): number {
  if (level > counting.depth) {
    counting.depth = level;
    if (level > MAX_DEPTH) return 0;
  }
  let keys = 0;
  if (isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const child: unknown = node[i];
      if (typeof child === "object" && child !== null) keys += keysUnder(child, level + 1);
    }
    return keys;
  }
  // for-in rather than Object.keys or Object.values: no array per object.
  for (const key in node) {
    if (counting.inherited && !hasOwn(node, key)) continue;
    keys++;
    const child = (node as Record<string, unknown>)[key];
    if (typeof child === "object" && child !== null) keys += keysUnder(child, level + 1);
  }
  return keys;
}

/** True when some code gave Object.prototype an enumerable key (for-in would list it on every object). */
function inheritsEnumerable(): boolean {
  for (const _ in {}) return true;
  return false;
}

/**
 * The colons of a JSON text whose previous character other than whitespace is a quote: at least
 * as many as its object keys (a key's closing quote always is; an escaped quote inside a string
 * may be too). Counted by sticky regular expressions, KEYS_AT_ONCE such colons per match: each
 * match runs in native code, where a loop from colon to colon (`indexOf`, then a look back) ran
 * once per key in the interpreter, 32 M instructions at the caps against 18 M here
 * (docs/benchmarks.md, issue 38, round 4). A colon that is not after a quote (in a string) is
 * stepped over by a match of its own.
 */
export function keyBound(text: string): number {
  try {
    return keyBoundByMatches(text);
  } catch {
    // A backtracking stack overflow on some huge stretch without a colon: the loop needs no stack.
    return keyBoundByColons(text);
  }
}

/** Colons after a quote counted per match (more made each failed match, at a string's colon, cost more). */
const KEYS_AT_ONCE = 16;
/** One colon whose previous character other than whitespace is a quote (`[^:]*` cannot pass a colon). */
const KEY_COLON = '[^:]*"[ \\t\\r\\n]*:';
const KEY_COLONS = new RegExp(`(?:${KEY_COLON}){${KEYS_AT_ONCE}}`, "y");
const ONE_KEY_COLON = new RegExp(KEY_COLON, "y");
const ANY_COLON = /[^:]*:/y;

function keyBoundByMatches(text: string): number {
  // Each match starts where lastIndex is set just before it: nothing is kept between calls.
  const many = KEY_COLONS;
  const one = ONE_KEY_COLON;
  const any = ANY_COLON;
  let count = 0;
  let at = 0;
  for (;;) {
    many.lastIndex = at;
    if (many.test(text)) {
      count += KEYS_AT_ONCE;
      at = many.lastIndex;
      continue;
    }
    one.lastIndex = at;
    if (one.test(text)) {
      count++;
      at = one.lastIndex;
      continue;
    }
    any.lastIndex = at;
    if (!any.test(text)) return count;
    at = any.lastIndex;
  }
}

/** keyBound from colon to colon with indexOf: the same count, with no regular expression. */
export function keyBoundByColons(text: string): number {
  let count = 0;
  for (let colon = text.indexOf(":"); colon >= 0; colon = text.indexOf(":", colon + 1)) {
    let i = colon - 1;
    let c = text.charCodeAt(i);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(--i);
    if (c === 0x22) count++;
  }
  return count;
}

function failed(file: string, info: CodeInfo, messageId: string, data: Record<string, string>): LoadedWorld {
  return {
    file,
    source: undefined,
    value: undefined,
    fatal: true,
    diagnostics: [diagnosticFrom(info, { path: [], messageId, data }, () => null)],
    compat: { gameModesAdded: false, quirkTraits: [], settingsAdded: [] },
  };
}

const LATER_VERSION_MARKERS = ["itemTypes", "questTriggers"];

/**
 * Sections only a whole world has: a mod changes instructions and settings, never the map or the
 * cast. A file holding some of them is a world (of this version or a later one), whatever its
 * version fields say: real exports of later versions carry `mods` and no version field at all.
 */
const WORLD_CONTENT = ["realms", "regions", "locations", "storyStarts", "npcs", "quests", "worldLore"];

/** Whether the file holds a world's own content (two of its sections or more), not only a mod's. */
function hasWorldContent(value: Record<string, unknown>): boolean {
  let found = 0;
  for (const section of WORLD_CONTENT) if (section in value) found++;
  return found >= 2;
}

/** Returns true when the file is another format version: one error, and nothing else is checked. */
function checkVersion(value: Record<string, unknown>, report: (info: CodeInfo, r: Report) => void): boolean {
  if (
    Array.isArray(value.mods) &&
    !("configVersion" in value) &&
    !("heroesVersion" in value) &&
    !hasWorldContent(value)
  ) {
    const sections = Object.keys(value).filter((k) => k !== "mods");
    report(WORLD_MOD_FRAGMENT, {
      path: [],
      messageId: "fragment",
      data: { sections: sections.join(", ") || "none" },
    });
    return true;
  }
  const config = value.configVersion;
  const product = value.heroesVersion;
  if (typeof config === "string" && config !== "V33") {
    report(WORLD_UNSUPPORTED_VERSION, {
      path: ["configVersion"],
      messageId: "version",
      data: { found: config },
    });
    return true;
  }
  if (typeof product === "number" && product !== 33) {
    report(WORLD_UNSUPPORTED_VERSION, {
      path: ["heroesVersion"],
      messageId: "version",
      data: { found: `heroesVersion ${product}` },
    });
    return true;
  }
  for (const field of LATER_VERSION_MARKERS) {
    if (field in value) {
      report(WORLD_UNSUPPORTED_VERSION, { path: [field], messageId: "marker", data: { field }, atKey: true });
      return true;
    }
  }
  for (const field of Object.keys(value)) {
    if (/Version$/.test(field) && field !== "configVersion" && field !== "heroesVersion") {
      report(WORLD_VERSION_FIELD, { path: [field], messageId: "other", data: { field }, atKey: true });
    }
  }
  return false;
}

/** The compatibility steps of the resolutions: `gameModes` default and `quirk`. */
function normalise(
  value: Record<string, unknown>,
  result: LoadedWorld,
  report: (info: CodeInfo, r: Report) => void,
) {
  if (!("gameModes" in value)) {
    value.gameModes = {};
    result.compat.gameModesAdded = true;
    report(COMPAT_MISSING_GAME_MODES, { path: [], messageId: "missing" });
  }
  const skills = value.skillSettings;
  if (isPlainObject(skills) && !("newSkillGenerationEnabled" in skills)) {
    skills.newSkillGenerationEnabled = false;
    result.compat.settingsAdded.push("skillSettings.newSkillGenerationEnabled");
    report(COMPAT_MISSING_SETTING, {
      path: ["skillSettings"],
      messageId: "missing",
      data: { field: "newSkillGenerationEnabled", section: "skillSettings", fallback: "false" },
    });
  }
  tolerateMissingFields(value, result, report);
  const traits = value.traits;
  if (!isPlainObject(traits)) return;
  for (const [key, trait] of Object.entries(traits)) {
    if (!isPlainObject(trait)) continue;
    const path: JsonPath = ["traits", key];
    const hasQuirk = "quirk" in trait;
    const hasEffects = "traitNarrativeEffects" in trait;
    if (hasQuirk && hasEffects)
      report(TRAIT_NARRATIVE_FIELD, {
        path: [...path, "quirk"],
        atKey: true,
        messageId: "both",
        data: { trait: key },
      });
    else if (!hasQuirk && !hasEffects)
      report(TRAIT_NARRATIVE_FIELD, { path, messageId: "none", data: { trait: key } });
    else if (hasQuirk) {
      trait.traitNarrativeEffects = trait.quirk;
      result.compat.quirkTraits.push(key);
    }
  }
}

/**
 * Record fields the hosted platform plays without (real worlds omit them;
 * its codec requires a premade character's name, gender and description, so
 * those stay shape/missing-field errors):
 * each missing one is filled with its empty value, with a warning. Only
 * records that are objects are touched; anything else is left to the shape
 * check. Recorded in compat.settingsAdded so that an export can drop them again.
 */
const TOLERATED_FIELDS: readonly {
  section: string;
  field: string;
  fallback: () => unknown;
  shown: string;
}[] = [
  { section: "premadeCharacters", field: "attributes", fallback: () => ({}), shown: "{}" },
  { section: "premadeCharacters", field: "traits", fallback: () => [], shown: "[]" },
];

function tolerateMissingFields(
  value: Record<string, unknown>,
  result: LoadedWorld,
  report: (info: CodeInfo, r: Report) => void,
) {
  for (const { section, field, fallback, shown } of TOLERATED_FIELDS) {
    const records = value[section];
    const entries: [string | number, unknown][] = Array.isArray(records)
      ? records.map((r, i) => [i, r])
      : isPlainObject(records)
        ? Object.entries(records)
        : [];
    for (const [key, record] of entries) {
      if (!isPlainObject(record) || field in record) continue;
      record[field] = fallback();
      result.compat.settingsAdded.push(`${section}.${key}.${field}`);
      const name = typeof record.name === "string" ? JSON.stringify(record.name) : `#${key}`;
      report(COMPAT_MISSING_FIELD, {
        path: [section, key],
        messageId: "missing",
        data: { field, record: `${section} ${name}`, fallback: shown },
      });
    }
  }
}
