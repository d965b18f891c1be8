import fc from "fast-check";
import {
  copyJson,
  isObject,
  type Json,
  type JsonObject,
  removeOwn,
  renameOwn,
  type Site,
  setOwn,
  sitesOf,
} from "./json-tree.ts";

/**
 * Random edits of a world value, as plain data so that fast-check can shrink
 * and print them. Each edit picks its node with `at` (modulo the nodes it can
 * apply to, counted in the value as it is when the edit runs), so any list of
 * edits applies to any world.
 */
export type Mutation =
  | { kind: "delete"; at: number }
  | { kind: "retype"; at: number; to: JsonType }
  | { kind: "replace"; at: number; value: Json }
  | { kind: "nullify"; at: number }
  | { kind: "rename"; at: number; key: KeyChoice }
  | { kind: "duplicate"; at: number; key: KeyChoice }
  | { kind: "insert"; at: number; key: KeyChoice; value: Json }
  | { kind: "hugeString"; at: number; length: number; unit: string }
  | { kind: "swap"; at: number; i: number; j: number }
  | { kind: "nest"; at: number; depth: number; shape: "array" | "object" | "mixed" }
  | { kind: "transplant"; at: number; from: number }
  | { kind: "reference"; at: number; from: number; twist: Twist };

export type JsonType = "string" | "number" | "boolean" | "null" | "array" | "object";
type Twist = "same" | "upper" | "lower" | "trailingSpace" | "leadingSpace" | "truncate";
/** A new key: a literal, or a key or name already in the world (to make collisions and near-misses). */
type KeyChoice = { literal: string } | { existing: number; twist: Twist };

/** Keys that break code which reads objects with `obj[key]` or `in`. */
const AWKWARD_KEYS = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "prototype",
  "",
  " ",
  "0",
  "-1",
  "1e3",
  "name",
  "type",
  "value",
  "a.b",
  "a\nb",
  "\u0000",
  "😀",
  "İ",
];

/** Values that sit on the edges of what numbers and strings usually hold. */
const EDGE_VALUES: Json[] = [
  0,
  -0,
  -1,
  0.5,
  1e308,
  -1e308,
  2 ** 53 + 2,
  1e-300,
  "",
  " ",
  "\t\n",
  "0",
  "true",
  "null",
  "[]",
  "{}",
  "(.*)+$",
  "((a+)+)+b",
  "[",
  "\\",
  "__proto__",
  "constructor",
  "‮gnirts",
  "😀".repeat(10),
  "a".repeat(101),
  "a".repeat(1001),
];

const twist = fc.constantFrom<Twist>("same", "upper", "lower", "trailingSpace", "leadingSpace", "truncate");
const keyChoice: fc.Arbitrary<KeyChoice> = fc.oneof(
  fc.record({ literal: fc.oneof(fc.constantFrom(...AWKWARD_KEYS), fc.string({ maxLength: 16 })) }),
  fc.record({ existing: fc.nat(), twist }),
);
const smallJson: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom(...EDGE_VALUES),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
);
const at = fc.nat();

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("delete" as const), at }),
  fc.record({
    kind: fc.constant("retype" as const),
    at,
    to: fc.constantFrom<JsonType>("string", "number", "boolean", "null", "array", "object"),
  }),
  fc.record({ kind: fc.constant("replace" as const), at, value: smallJson }),
  fc.record({ kind: fc.constant("nullify" as const), at }),
  fc.record({ kind: fc.constant("rename" as const), at, key: keyChoice }),
  fc.record({ kind: fc.constant("duplicate" as const), at, key: keyChoice }),
  fc.record({ kind: fc.constant("insert" as const), at, key: keyChoice, value: smallJson }),
  fc.record({
    kind: fc.constant("hugeString" as const),
    at,
    length: fc.integer({ min: 1000, max: 200_000 }),
    unit: fc.constantFrom("a", "é", "😀", "\n", '"', "\\", "{", " ", "\u0000"),
  }),
  fc.record({ kind: fc.constant("swap" as const), at, i: fc.nat(), j: fc.nat() }),
  fc.record({
    kind: fc.constant("nest" as const),
    at,
    // Deep enough to stress every walker; the separate deep-nesting test goes further.
    depth: fc.integer({ min: 1, max: 500 }),
    shape: fc.constantFrom("array" as const, "object" as const, "mixed" as const),
  }),
  fc.record({ kind: fc.constant("transplant" as const), at, from: fc.nat() }),
  fc.record({ kind: fc.constant("reference" as const), at, from: fc.nat(), twist }),
);

/** One to five edits, applied in order. */
export const mutationsArb = fc.array(mutationArb, { minLength: 1, maxLength: 5 });

/** Applies edits to a copy of `world` and returns the copy. */
export function mutate(world: Json, mutations: readonly Mutation[]): Json {
  const root = copyJson(world);
  for (const mutation of mutations) apply(root, mutation);
  return root;
}

function pick<T>(list: readonly T[], index: number): T | undefined {
  return list.length === 0 ? undefined : list[index % list.length];
}

function apply(root: Json, m: Mutation): void {
  const sites = sitesOf(root);
  const inner = sites.filter((s) => s.parent !== undefined);
  switch (m.kind) {
    case "delete": {
      const site = pick(inner, m.at);
      if (site) removeOwn(site.parent!, site.key!);
      return;
    }
    case "retype":
      replaceAt(inner, m.at, (v) => retype(v, m.to));
      return;
    case "replace":
      replaceAt(inner, m.at, () => copyJson(m.value));
      return;
    case "nullify":
      replaceAt(inner, m.at, () => null);
      return;
    case "hugeString":
      replaceAt(inner, m.at, (v) =>
        (typeof v === "string" ? v : "").concat(m.unit.repeat(Math.ceil(m.length / m.unit.length))),
      );
      return;
    case "nest":
      replaceAt(inner, m.at, (v) => nest(v, m.depth, m.shape));
      return;
    case "transplant": {
      const source = pick(sites, m.from);
      replaceAt(inner, m.at, () => copyJson(source!.value));
      return;
    }
    case "reference": {
      const name = pick(namesOf(sites), m.from);
      if (name !== undefined) replaceAt(inner, m.at, () => applyTwist(name, m.twist));
      return;
    }
    case "rename": {
      const site = pick(
        inner.filter((s) => isObject(s.parent)),
        m.at,
      );
      if (site) renameOwn(site.parent as JsonObject, String(site.key), chooseKey(sites, m.key));
      return;
    }
    case "duplicate": {
      const site = pick(inner, m.at);
      if (!site) return;
      if (Array.isArray(site.parent)) site.parent.splice(Number(site.key) + 1, 0, copyJson(site.value));
      else setOwn(site.parent!, chooseKey(sites, m.key), copyJson(site.value));
      return;
    }
    case "insert": {
      const site = pick(
        sites.filter((s) => isObject(s.value)),
        m.at,
      );
      if (site) setOwn(site.value as JsonObject, chooseKey(sites, m.key), copyJson(m.value));
      return;
    }
    case "swap": {
      const site = pick(
        sites.filter((s) => Array.isArray(s.value) && s.value.length >= 2),
        m.at,
      );
      if (!site) return;
      const list = site.value as Json[];
      const i = m.i % list.length;
      const j = m.j % list.length;
      [list[i], list[j]] = [list[j]!, list[i]!];
      return;
    }
  }
}

function replaceAt(inner: Site[], index: number, make: (value: Json) => Json): void {
  const site = pick(inner, index);
  if (site) setOwn(site.parent!, site.key!, make(site.value));
}

/** Keys and short strings of the world: the names that records refer to each other by. */
function namesOf(sites: Site[]): string[] {
  const names = new Set<string>();
  for (const site of sites) {
    if (typeof site.key === "string") names.add(site.key);
    if (typeof site.value === "string" && site.value.length <= 60) names.add(site.value);
  }
  return [...names];
}

function chooseKey(sites: Site[], choice: KeyChoice): string {
  if ("literal" in choice) return choice.literal;
  return applyTwist(pick(namesOf(sites), choice.existing) ?? "", choice.twist);
}

function applyTwist(name: string, twist: Twist): string {
  switch (twist) {
    case "same":
      return name;
    case "upper":
      return name.toUpperCase();
    case "lower":
      return name.toLowerCase();
    case "trailingSpace":
      return `${name} `;
    case "leadingSpace":
      return ` ${name}`;
    case "truncate":
      return name.slice(0, Math.max(0, name.length - 1));
  }
}

/** The value converted to another JSON type, keeping what it can (5 <-> "5", x <-> [x]). */
export function retype(value: Json, to: JsonType): Json {
  switch (to) {
    case "string":
      return typeof value === "string" ? `${value}!` : JSON.stringify(value);
    case "number":
      if (typeof value === "number") return -value - 1;
      if (typeof value === "string") return Number.isFinite(Number(value)) ? Number(value) : value.length;
      return Array.isArray(value)
        ? value.length
        : isObject(value)
          ? Object.keys(value).length
          : Number(value);
    case "boolean":
      return typeof value === "boolean" ? !value : Boolean(value);
    case "null":
      return null;
    case "array":
      return Array.isArray(value) ? [] : isObject(value) ? Object.values(value) : [value];
    case "object":
      if (isObject(value)) return {};
      if (Array.isArray(value)) return Object.fromEntries(value.map((v, i) => [String(i), v]));
      return { value };
  }
}

function nest(leaf: Json, depth: number, shape: "array" | "object" | "mixed"): Json {
  let value = leaf;
  for (let i = 0; i < depth; i++) {
    const asArray = shape === "array" || (shape === "mixed" && i % 2 === 0);
    value = asArray ? [value] : { nested: value };
  }
  return value;
}

/** The ways a world is written to disk: indentation, line endings, a byte-order mark. */
export type Layout = "pretty" | "compact" | "tabs" | "crlf" | "bom";
export const layoutArb = fc.constantFrom<Layout>("pretty", "compact", "tabs", "crlf", "bom");

export function render(value: Json, layout: Layout): string {
  switch (layout) {
    case "pretty":
      return JSON.stringify(value, null, 2);
    case "compact":
      return JSON.stringify(value);
    case "tabs":
      return JSON.stringify(value, null, "\t");
    case "crlf":
      // JSON strings escape their line breaks, so only the layout's own newlines change.
      return JSON.stringify(value, null, 2).replace(/\n/g, "\r\n");
    case "bom":
      return `\uFEFF${JSON.stringify(value, null, 2)}`;
  }
}
