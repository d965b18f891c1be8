/**
 * The build check of the rules catalogue (ESLint's checkRuleFiles): the
 * registry, the files under src/world/rules/ (the rules of `check`) and
 * src/world/lint/rules/ (the rules of `lint`, category `lint`) and the
 * documentation examples must agree. It reads whatever rules exist, so new
 * rules are checked as soon as their files appear.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ERROR_TABLES, renderErrorsDoc } from "../scripts/errors-doc.ts";
import { jsonBlock, readBaseWorld, renderRulesDoc, slug } from "../scripts/rules-doc.ts";
import { CONDITIONS } from "../src/engine/conditions/index.ts";
import { EFFECT_APPLIERS } from "../src/engine/effects/index.ts";
import { CATALOGUE } from "../src/world/catalogue.ts";
import type { Diagnostic } from "../src/world/diagnostic.ts";
import { READ_KINDS } from "../src/world/lint/facts.ts";
import { LINT_RULES } from "../src/world/lint/index.ts";
import type { CodeInfo, Rule, WorldPatch } from "../src/world/rule.ts";
import { RULES } from "../src/world/rules/index.ts";
import { CONDITION_SCHEMAS, CONDITION_TYPE_NAMES, Condition } from "../src/world/schema/conditions.ts";
import { EFFECT_SCHEMAS, EFFECT_TYPE_NAMES, Effect } from "../src/world/schema/effects.ts";
import { checkPatch } from "./helpers/world.ts";

const RULES_DIR = fileURLToPath(new URL("../src/world/rules/", import.meta.url));
const LINT_DIR = fileURLToPath(new URL("../src/world/lint/rules/", import.meta.url));
const SRC_DIR = fileURLToPath(new URL("../src/", import.meta.url));
const INTERNAL_FAILURE = "internal/rule-failed";
/** The category of the lint rules, whose files are in LINT_DIR. */
const LINT = "lint";
const ALL_RULES: readonly Rule[] = [...RULES, ...LINT_RULES];

interface RuleFile {
  category: string;
  name: string;
  path: string;
  exported: unknown;
}

const categories = readdirSync(RULES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** The folder that holds a category's rule files. */
function folderOf(category: string): string {
  return category === LINT ? LINT_DIR : join(RULES_DIR, category);
}

const ruleFiles: RuleFile[] = await Promise.all(
  [...categories, LINT].flatMap((category) =>
    readdirSync(folderOf(category))
      .filter((file) => file.endsWith(".ts") && file !== "index.ts" && !file.endsWith(".test.ts"))
      .sort()
      .map(async (file) => {
        const path = join(folderOf(category), file);
        const module = await import(pathToFileURL(path).href);
        return { category, name: file.slice(0, -".ts".length), path, exported: module.default };
      }),
  ),
);

function isRule(value: unknown): value is Rule {
  return typeof value === "object" && value !== null && typeof (value as Rule).check === "function";
}

function relative(path: string): string {
  return `src/${path.slice(SRC_DIR.length)}`;
}

describe("catalogue", () => {
  test("codes are unique", () => {
    const seen = new Set<string>();
    const duplicates = CATALOGUE.map((info) => info.code).filter((code) => seen.size === seen.add(code).size);
    assert.deepEqual(duplicates, [], "each code must be defined once");
  });

  test("every rule file default-exports a rule whose code is <folder>/<file name>", () => {
    const wrong = ruleFiles
      .filter((file) => !isRule(file.exported) || file.exported.code !== `${file.category}/${file.name}`)
      .map((file) =>
        isRule(file.exported)
          ? `${relative(file.path)} has code "${file.exported.code}"; it must be "${file.category}/${file.name}"`
          : `${relative(file.path)} does not default-export a rule: a category folder holds rules only (move helpers to src/world/rules/<helper>.ts, or src/world/lint/<helper>.ts for lint rules)`,
      );
    assert.deepEqual(wrong, []);
  });

  test("the registry and the rule files agree", async () => {
    const onDisk = new Set(ruleFiles.map((file) => file.exported));
    const registryOf = (category: string) => (category === LINT ? LINT_RULES : RULES);
    const unregistered = ruleFiles
      .filter((file) => isRule(file.exported) && !registryOf(file.category).includes(file.exported))
      .map((file) =>
        file.category === LINT
          ? `${relative(file.path)} is not registered: add it to src/world/lint/rules/index.ts`
          : `${relative(file.path)} is not registered: add it to ${file.category}/index.ts`,
      );
    const fileless = [
      ...RULES.filter((rule) => !onDisk.has(rule) || rule.code.startsWith(`${LINT}/`)).map(
        (rule) =>
          `${rule.code} is registered but is not the default export of src/world/rules/${rule.code}.ts`,
      ),
      ...LINT_RULES.filter((rule) => !onDisk.has(rule) || !rule.code.startsWith(`${LINT}/`)).map(
        (rule) =>
          `${rule.code} is in LINT_RULES but is not the default export of src/world/lint/rules/${rule.code.slice(LINT.length + 1)}.ts`,
      ),
    ];
    assert.deepEqual([...unregistered, ...fileless], []);
    for (const category of categories) {
      const index = (await import(pathToFileURL(join(RULES_DIR, category, "index.ts")).href))
        .default as Rule[];
      const inFolder = ruleFiles.filter((file) => file.category === category).map((file) => file.exported);
      const misplaced = index.filter((rule) => !inFolder.includes(rule)).map((rule) => rule.code);
      assert.deepEqual(misplaced, [], `${category}/index.ts lists rules of other folders`);
    }
  });

  test("lint rules are in the catalogue but not run by check", () => {
    assert.ok(
      !categories.includes(LINT),
      "src/world/rules/lint/ would mix lint rules into check: use src/world/lint/rules/",
    );
    for (const rule of LINT_RULES) {
      assert.ok(CATALOGUE.includes(rule), `${rule.code} is missing from CATALOGUE`);
      assert.ok(!RULES.includes(rule), `${rule.code} is in RULES, so check would run it`);
    }
  });

  test("every rule file has a <name>.test.ts beside it", () => {
    const untested = ruleFiles
      .filter((file) => !existsSync(file.path.replace(/\.ts$/, ".test.ts")))
      .map((file) => `${relative(file.path)} has no ${file.name}.test.ts`);
    assert.deepEqual(untested, []);
  });

  test("every entry has a description, a why and non-empty message templates", () => {
    const incomplete = CATALOGUE.flatMap((info) => {
      const messages = Object.entries(info.messages as Record<string, string>);
      return [
        ...(info.description.trim() ? [] : [`${info.code}: empty description`]),
        ...(info.why.trim() ? [] : [`${info.code}: empty why`]),
        ...(messages.length > 0 ? [] : [`${info.code}: no message templates`]),
        ...messages
          .filter(([, text]) => !text.trim())
          .map(([id]) => `${info.code}: message "${id}" is empty`),
      ];
    });
    assert.deepEqual(incomplete, []);
  });

  test("the base world has no problem with every rule, lint rules included", () => {
    const found = checkPatch({}, ALL_RULES).diagnostics;
    assert.deepEqual(
      found.map((d) => `${d.code}: ${d.message}`),
      [],
    );
  });
});

/**
 * Each documented example really does what docs/rules.md says: `bad` reports
 * the code, `good` does not and loads without any error. Rules run alone;
 * codes of the loader and shape step run with no rule at all.
 */
describe("catalogue examples", () => {
  for (const info of CATALOGUE) {
    const rule = ALL_RULES.find((r) => r === info);
    if (!info.examples) {
      if (rule)
        test(`${info.code} has examples`, () => assert.fail(`${info.code}: add examples: { bad, good }`));
      continue;
    }
    const { bad, good } = info.examples;
    test(`${info.code}: the bad example reports it`, () => {
      const found = run(info, rule, bad);
      assert.ok(
        found.some((d) => d.code === info.code),
        `${info.code} did not fire on its bad example; it reported: ${list(found)}`,
      );
    });
    test(`${info.code}: the good example does not, and has no error`, () => {
      const found = run(info, rule, good);
      const wrong = found.filter((d) => d.code === info.code || d.severity === "error");
      assert.deepEqual(wrong, [], `good example of ${info.code}: ${list(wrong)}`);
    });
  }
});

function run(info: CodeInfo, rule: Rule | undefined, patch: WorldPatch): Diagnostic[] {
  const found = checkPatch(patch, rule ? [rule] : []).diagnostics;
  const failure = found.find((d) => d.code === INTERNAL_FAILURE);
  assert.equal(failure, undefined, `${info.code} threw on its example: ${failure?.message}`);
  return found;
}

function list(diagnostics: Diagnostic[]): string {
  return diagnostics.map((d) => `${d.code} (${d.message})`).join("; ") || "nothing";
}

describe("rules documentation", () => {
  test("patches render as JSON with deletions as undefined and long values shortened", () => {
    const block = jsonBlock({
      heroesVersion: undefined,
      text: `say "${"a".repeat(70)}"`,
      list: [1, 2, 3, 4, 5],
      map: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 },
    });
    assert.deepEqual(block, [
      "```jsonc",
      [
        "{",
        '  "heroesVersion": undefined,',
        '  "text": "say \\"aaaaaaaaaaaaaaa…" /* 76 characters */,',
        '  "list": [',
        "    1,",
        "    2,",
        "    // … 3 more like these",
        "  ],",
        '  "map": {',
        '    "a": 1,',
        '    "b": 2,',
        "    // … 4 more like these",
        "  }",
        "}",
      ].join("\n"),
      "```",
    ]);
  });

  test("every code has an entry, a contents line linking to it, and a bad example that reports it", () => {
    const page = renderRulesDoc(CATALOGUE, ALL_RULES, readBaseWorld());
    for (const info of CATALOGUE) {
      assert.ok(page.includes(`\n### \`${info.code}\`\n`), `no entry for ${info.code}`);
      assert.ok(page.includes(`(#${slug(info.code)})`), `no contents line for ${info.code}`);
    }
    assert.doesNotMatch(page, /this example is out of date/);
  });
});

/**
 * The error tables outside the rules catalogue (engine, AI, play-tests,
 * server; scripts/errors-doc.ts lists them): one shape, codes unique across
 * every table, each code named by a test, each documented in docs/errors.md.
 */
describe("error tables", () => {
  /**
   * The tables whose messages are written only in the table (templates with
   * `{named}` placeholders, raised as code + message id + data): all of them.
   */
  const TABLES_WITH_TEXT = ["ENGINE_ERRORS", "PROBLEM_CODES", "AI_ERROR_KINDS", "SERVER_ERRORS"];
  /** Codes two tables share on purpose, with the reason; any other repeat is a mistake. */
  const SHARED: Record<string, string> = {
    "world/invalid":
      "the server answers an upload with errors with the engine's code for a session on such a world (public API of both)",
    "turn/no-actions":
      "the server answers a turn with no submission with the engine's code for an empty turn",
  };
  /**
   * Codes no test names yet, with the reason. The list only shrinks: a test
   * below fails when a listed code becomes named by a test.
   */
  const UNTESTED: Record<string, string> = {
    "game/no-players": "no server test starts a game before anyone joined",
    "store/locked": "no test opens a SQLite data folder held by another process",
    "store/migration": "no test serves a store that fails to migrate",
    "store/config": "no test passes an invalid store configuration",
    "server/internal": "an unexpected error cannot be provoked through the API (that is the point)",
  };
  const TEST_TEXT = ["src", "test"]
    .flatMap((root) =>
      readdirSync(root, { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".test.ts") && !file.endsWith("catalogue.test.ts"))
        .map((file) => readFileSync(join(root, file), "utf8")),
    )
    .join("\n");
  const quoted = (text: string) => new RegExp(`["'\`]${text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")}["'\`]`);

  test("codes are unique across the tables and the rules catalogue", () => {
    const owners = new Map<string, string[]>();
    for (const info of CATALOGUE) owners.set(info.code, ["rules catalogue"]);
    for (const source of ERROR_TABLES)
      for (const code of Object.keys(source.table))
        owners.set(code, [...(owners.get(code) ?? []), source.name]);
    const repeated = [...owners]
      .filter(([code, tables]) => tables.length > 1 && !(code in SHARED))
      .map(([code, tables]) => `${code} is in ${tables.join(" and ")}`);
    assert.deepEqual(repeated, [], "give the code another name, or list it in SHARED with the reason");
    for (const code of Object.keys(SHARED)) assert.equal(owners.get(code)?.length, 2, `${code} is shared`);
  });

  test("every entry has a description; every entry of a table that holds its text words its messages there", () => {
    const incomplete = ERROR_TABLES.flatMap((source) =>
      Object.entries(source.table)
        .filter(([, info]) => !info.description.trim())
        .map(([code]) => `${source.name} ${code}: empty description`),
    );
    for (const source of ERROR_TABLES.filter((t) => TABLES_WITH_TEXT.includes(t.name)))
      for (const [code, info] of Object.entries(source.table)) {
        const messages = Object.entries(info.messages ?? {});
        if (messages.length === 0) incomplete.push(`${source.name} ${code}: no messages`);
        for (const [id, text] of messages)
          if (!text.trim()) incomplete.push(`${source.name} ${code}: "${id}" empty`);
      }
    assert.deepEqual(incomplete, []);
  });

  test("every message of a table is raised somewhere beside the table (the engine's in src/engine)", () => {
    const unused = ERROR_TABLES.flatMap((table) => {
      const dir = join(SRC_DIR, "..", dirname(table.file));
      const own = basename(table.file);
      const source = readdirSync(dir, { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && file !== own)
        .map((file) => readFileSync(join(dir, file), "utf8"))
        .join("\n");
      return Object.entries(table.table).flatMap(([code, info]) => [
        ...(quoted(code).test(source) ? [] : [`${table.name} ${code} (the code is raised nowhere)`]),
        ...Object.keys(info.messages ?? {})
          .filter((id) => !quoted(id).test(source))
          .map((id) => `${table.name} ${code} "${id}"`),
      ]);
    });
    assert.deepEqual(unused, [], "remove the message, or raise it");
  });

  test("every code is named by at least one test (or listed in UNTESTED with the reason)", () => {
    const codes = ERROR_TABLES.flatMap((source) => Object.keys(source.table));
    const untested = codes.filter((code) => !(code in UNTESTED) && !quoted(code).test(TEST_TEXT));
    assert.deepEqual(untested, [], "add a test that produces the code and asserts it");
    const nowTested = Object.keys(UNTESTED).filter((code) => quoted(code).test(TEST_TEXT));
    assert.deepEqual(nowTested, [], "a test names these now: remove them from UNTESTED");
    const unknown = Object.keys(UNTESTED).filter((code) => !codes.includes(code));
    assert.deepEqual(unknown, [], "UNTESTED lists codes no table has");
  });

  test("docs/errors.md has every code of every table", () => {
    const page = renderErrorsDoc(ERROR_TABLES);
    for (const source of ERROR_TABLES)
      for (const code of Object.keys(source.table))
        assert.ok(page.includes(`| \`${code}\` |`), `no row for ${source.name} ${code}`);
  });
});

/**
 * Effect types: one module per type, named exactly after it, under
 * src/engine/effects/ (helpers two of them share are in shared/), registered
 * in EFFECT_APPLIERS, played by an engine test and described in docs/format.md.
 */
describe("effect types", () => {
  const EFFECTS_DIR = fileURLToPath(new URL("../src/engine/effects/", import.meta.url));
  /** The modules of effects/ that are not an effect type. */
  const NOT_TYPES = new Set(["index.ts", "apply.ts", "context.ts"]);
  const typeFiles = readdirSync(EFFECTS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
    .map((entry) => entry.name)
    .filter((name) => !NOT_TYPES.has(name));

  test("the files under src/engine/effects/ and the EffectType union agree", () => {
    const names = typeFiles.map((file) => file.slice(0, -".ts".length)).sort();
    const missing = EFFECT_TYPE_NAMES.filter((type) => !names.includes(type)).map(
      (type) => `effect type ${type} has no src/engine/effects/${type}.ts`,
    );
    const extra = names
      .filter((name) => !(EFFECT_TYPE_NAMES as readonly string[]).includes(name))
      .map((name) => `src/engine/effects/${name}.ts is no effect type: move a helper to effects/shared/`);
    assert.deepEqual([...missing, ...extra], []);
  });

  test("each type's applier in EFFECT_APPLIERS comes from the module named after it", async () => {
    const wrong: string[] = [];
    for (const type of EFFECT_TYPE_NAMES) {
      const path = join(EFFECTS_DIR, `${type}.ts`);
      if (!existsSync(path)) continue;
      const module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
      if (!Object.values(module).includes(EFFECT_APPLIERS[type]))
        wrong.push(`EFFECT_APPLIERS["${type}"] is not exported by src/engine/effects/${type}.ts`);
    }
    assert.deepEqual(wrong, []);
  });

  test("each effect type is played by an engine test and described in docs/format.md", () => {
    const engineTests = ["test/engine", "test/engine/effects"]
      .flatMap((dir) =>
        readdirSync(join(SRC_DIR, "..", dir))
          .filter((file) => file.endsWith(".test.ts"))
          .map((file) => readFileSync(join(SRC_DIR, "..", dir, file), "utf8")),
      )
      .join("\n");
    const format = readFileSync(join(SRC_DIR, "..", "docs", "format.md"), "utf8");
    const missing = EFFECT_TYPE_NAMES.flatMap((type) => [
      ...(engineTests.includes(`"${type}"`) ? [] : [`${type}: no test under test/engine/ plays it`]),
      ...(format.includes(`\`${type}\``)
        ? []
        : [
            `${type}: docs/format.md does not describe it (npm run docs; its schema must be in the Effect union)`,
          ]),
    ]);
    assert.deepEqual(missing, []);
  });

  test("each schema of EFFECT_SCHEMAS is an option of the Effect union", () => {
    const schemas = EFFECT_TYPE_NAMES.map((type) => [type, EFFECT_SCHEMAS[type]] as const);
    assert.deepEqual(
      unionGaps(schemas, Effect.options, "EFFECT_SCHEMAS", "Effect", "src/world/schema/effects.ts"),
      [],
    );
  });

  test("lint and the graph decide what to do with each effect type", () => {
    assert.deepEqual(missingCases(EFFECT_TYPE_NAMES, EFFECT_PLACES), []);
  });
});

/**
 * The places below the engine that switch over every condition or effect type
 * (the world layer cannot read the engine's registries): each has a `case` for
 * every type of the schema, the ones it passes over listed too, and
 * `otherType` (src/world/schema/exhaustive.ts) as its default, so the compiler
 * and this test name each place a new type must be decided in.
 */
const CONDITION_PLACES = [
  { file: "world/lint/conditions.ts", fn: "computeDomain", what: "lint's value domains" },
  { file: "author/graph/model.ts", fn: "conditionEdge", what: "the graph's edges" },
];
const EFFECT_PLACES = [
  { file: "world/lint/effects.ts", fn: "applyEffect", what: "lint's facts" },
  { file: "author/graph/model.ts", fn: "effectEdge", what: "the graph's edges" },
];

/**
 * The schemas of a type table that its zod union leaves out, and the union's
 * options no type holds. The union is what the TypeScript type (`Effect`,
 * `Condition`, so `EffectOf<type>`) and docs/format.md are made of, while
 * the table is what a world is parsed with: a type in one and not the other
 * parses but has no type and no docs entry (`npm run docs` cannot add it).
 */
function unionGaps(
  table: readonly (readonly [string, readonly unknown[]])[],
  options: readonly unknown[],
  tableName: string,
  unionName: string,
  file: string,
): string[] {
  const inTable = new Set(table.flatMap(([, schemas]) => schemas));
  return [
    ...table.flatMap(([type, schemas]) =>
      schemas
        .filter((schema) => !options.includes(schema))
        .map(
          () =>
            `${type}: its schema in ${tableName} is not an option of the ${unionName} union: add it to ${unionName} in ${file} (the ${unionName} type and docs/format.md are made from it)`,
        ),
    ),
    ...options
      .filter((option) => !inTable.has(option))
      .map((_, i) => `option ${i} of the ${unionName} union is in no entry of ${tableName} (${file})`),
  ];
}

/** The source of one function or method of a file: from its declaration to the brace that closes it. */
function functionText(file: string, fn: string): string {
  const text = readFileSync(join(SRC_DIR, file), "utf8");
  const start = new RegExp(`^( *)(?:export )?(?:private )?(?:function )?${fn}\\(`, "m").exec(text);
  assert.ok(start, `${fn} is no longer in src/${file}: update the places list of test/catalogue.test.ts`);
  const end = text.indexOf(`\n${start[1]}}\n`, start.index);
  return text.slice(start.index, end === -1 ? undefined : end);
}

function missingCases(
  types: readonly string[],
  places: readonly { file: string; fn: string; what: string }[],
): string[] {
  return places.flatMap(({ file, fn, what }) => {
    const body = functionText(file, fn);
    if (!body.includes("otherType("))
      return [`src/${file} (${fn}) no longer ends its switch with otherType()`];
    return types
      .filter((type) => !body.includes(`case "${type}":`))
      .map(
        (type) =>
          `${type}: src/${file} (${fn}, ${what}) has no case for it: handle it, or list it with the types it passes over`,
      );
  });
}

/**
 * Condition types: one module per type under src/engine/conditions/, named
 * exactly after it, registered in CONDITIONS, tested and documented
 * (test/engine/check.test.ts checks each entry against the schema's table).
 */
describe("condition types", () => {
  const DIR = fileURLToPath(new URL("../src/engine/conditions/", import.meta.url));
  /** The modules of conditions/ that are not a condition type. */
  const NOT_TYPES = new Set(["index.ts", "evaluate.ts", "spec.ts"]);
  const names = readdirSync(DIR)
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !NOT_TYPES.has(file))
    .map((file) => file.slice(0, -".ts".length));

  test("the files under src/engine/conditions/ and the ConditionType union agree", () => {
    const missing = CONDITION_TYPE_NAMES.filter((type) => !names.includes(type)).map(
      (type) => `condition type ${type} has no src/engine/conditions/${type}.ts`,
    );
    const extra = names
      .filter((name) => !(CONDITION_TYPE_NAMES as readonly string[]).includes(name))
      .map(
        (name) => `src/engine/conditions/${name}.ts is no condition type of src/world/schema/conditions.ts`,
      );
    assert.deepEqual([...missing, ...extra], []);
  });

  test("CONDITIONS holds each module's default export under its type", async () => {
    const wrong: string[] = [];
    for (const name of names) {
      const module = (await import(pathToFileURL(join(DIR, `${name}.ts`)).href)) as { default?: unknown };
      if (CONDITIONS[name as keyof typeof CONDITIONS] !== module.default)
        wrong.push(`CONDITIONS["${name}"] is not the default export of src/engine/conditions/${name}.ts`);
    }
    assert.deepEqual(wrong, []);
  });

  test("each condition type is evaluated by an engine test and described in docs/format.md", () => {
    const engineTests = readdirSync(join(SRC_DIR, "..", "test", "engine"))
      .filter((file) => file.endsWith(".test.ts"))
      .map((file) => readFileSync(join(SRC_DIR, "..", "test", "engine", file), "utf8"))
      .join("\n");
    const format = readFileSync(join(SRC_DIR, "..", "docs", "format.md"), "utf8");
    const missing = CONDITION_TYPE_NAMES.flatMap((type) => [
      ...(engineTests.includes(`"${type}"`) ? [] : [`${type}: no test under test/engine/ evaluates it`]),
      ...(format.includes(`\`${type}\``)
        ? []
        : [
            `${type}: docs/format.md does not describe it (npm run docs; its schema must be in the Condition union)`,
          ]),
    ]);
    assert.deepEqual(missing, []);
  });
  test("each schema of CONDITION_SCHEMAS is an option of the Condition union", () => {
    const schemas = CONDITION_TYPE_NAMES.map((type) => [type, [CONDITION_SCHEMAS[type]]] as const);
    assert.deepEqual(
      unionGaps(
        schemas,
        Condition.options,
        "CONDITION_SCHEMAS",
        "Condition",
        "src/world/schema/conditions.ts",
      ),
      [],
    );
  });

  test("lint and the graph decide what to do with each condition type", () => {
    const reads = CONDITION_TYPE_NAMES.filter(
      (type) => type.startsWith("read-") && !Object.hasOwn(READ_KINDS, type),
    ).map(
      (type) => `${type}: READ_KINDS (src/world/lint/facts.ts) does not say which kind of value it reads`,
    );
    assert.deepEqual([...missingCases(CONDITION_TYPE_NAMES, CONDITION_PLACES), ...reads], []);
  });
});
