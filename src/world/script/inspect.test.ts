import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { parseSource } from "../source.ts";
import {
  analyseScript,
  inspectScript,
  offsetInJsonLiteral,
  parseScript,
  type ScriptAnalysis,
  scriptPositionInFile,
  TOP_LEVEL_RETURN_MESSAGE,
} from "./inspect.ts";

function errorOf(source: string) {
  const result = parseScript(source);
  assert.equal(result.ok, false, `expected ${JSON.stringify(source)} not to parse`);
  return (result as Extract<typeof result, { ok: false }>).error;
}

function analysisOf(source: string): ScriptAnalysis {
  const result = inspectScript(source);
  assert.ok(result.ok, `expected ${JSON.stringify(source)} to parse`);
  return result.analysis;
}

/** 1-based line/column of an offset, counting the line breaks JavaScript counts. */
function lineColumn(source: string, offset: number) {
  const before = source.slice(0, offset).split(/\r\n|[\n\r\u2028\u2029]/);
  return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
}

/** The script position of the first occurrence of `needle` at or after `from`. */
function where(source: string, needle: string, from = 0) {
  const offset = source.indexOf(needle, from);
  assert.ok(offset >= 0, `${needle} not in the script`);
  return { ...lineColumn(source, offset), offset };
}

describe("parseScript", () => {
  test("parses statements as a classic script", () => {
    const result = parseScript(
      'if (check({type: "game-tick"}) > 2) { storage.seen = true; } else skip = true;',
    );
    assert.ok(result.ok);
    assert.equal(result.program.type, "Program");
    assert.equal(result.program.sourceType, "script");
    assert.equal(result.program.body.length, 1);
  });

  test("reports a syntax error with its 1-based line and column and no acorn suffix", () => {
    assert.deepEqual(errorOf("storage.a = 1;\nlet x = ;"), {
      kind: "syntax",
      message: "Unexpected token",
      line: 2,
      column: 9,
      offset: 23,
    });
    assert.deepEqual(errorOf('log("open'), {
      kind: "syntax",
      message: "Unterminated string constant",
      line: 1,
      column: 5,
      offset: 4,
    });
  });

  test("counts CRLF as one line break, as the engine's parser does", () => {
    const error = errorOf("a = 1;\r\nb = 2;\r\n  c = ;");
    assert.deepEqual([error.line, error.column], [3, 7]);
  });

  test("a top-level return gets the statements-not-a-function-body advice", () => {
    assert.deepEqual(errorOf("return;"), {
      kind: "top-level-return",
      message: TOP_LEVEL_RETURN_MESSAGE,
      line: 1,
      column: 1,
      offset: 0,
    });
    const nested = errorOf("storage.n = 1;\nif (storage.n > 3) {\n  return;\n}");
    assert.equal(nested.kind, "top-level-return");
    assert.deepEqual([nested.line, nested.column], [3, 3]);
  });

  test("a return inside a function, arrow or method is fine", () => {
    for (const source of [
      "function f() { return 1; } f();",
      "const g = () => { return 2; };",
      "const o = { m() { return 3; } };",
      "class C { m() { return 4; } }",
    ]) {
      assert.ok(parseScript(source).ok, source);
    }
  });

  test("a return in a class static block is a plain syntax error, not a top-level return", () => {
    const error = errorOf("class C { static { return; } }");
    assert.equal(error.kind, "syntax");
    assert.equal(error.message, "'return' outside of function");
    assert.equal(error.column, 20);
  });

  test("module syntax and top-level await are errors in a script", () => {
    assert.equal(errorOf('import x from "y";').kind, "syntax");
    assert.equal(errorOf("await check({type: 'story'});").kind, "syntax");
  });

  test("modern syntax parses", () => {
    assert.ok(
      parseScript("const n = storage.count ?? 0; storage.list ||= []; const big = 1_000n; a?.b?.();").ok,
    );
  });

  test("absurd nesting is an error, not a crash", () => {
    const error = errorOf("(".repeat(50_000));
    assert.equal(error.kind, "syntax");
    assert.ok(error.line >= 1 && error.column >= 1);
  });

  test("each call gives a fresh program the caller may change", () => {
    const source = "storage.memo = (storage.memo ?? 0) + 1;";
    const first = parseScript(source);
    const second = parseScript(source);
    assert.ok(first.ok && second.ok);
    assert.notEqual(first.program, second.program);
    assert.deepEqual(first.program, second.program);
  });

  test("never throws, and error positions agree with their offsets", () => {
    const jsish = fc.array(
      fc.constantFrom(
        "return",
        " ",
        "\n",
        "\r\n",
        "\u2028",
        "(",
        ")",
        "{",
        "}",
        "storage",
        ".",
        "x",
        "=",
        ";",
        '"',
        "`",
        "/",
        "*",
        "if",
        "function",
        "=>",
        "1",
        "class",
        "static",
      ),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary", maxLength: 60 }),
          jsish.map((t) => t.join("")),
        ),
        (source) => {
          const result = parseScript(source);
          if (result.ok) return;
          const { line, column, offset } = result.error;
          assert.ok(offset >= 0 && offset <= source.length);
          assert.deepEqual({ line, column }, lineColumn(source, offset));
          assert.ok(result.error.message.length > 0);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("analyseScript", () => {
  test("finds quest-init effects written as object literals, wherever they are", () => {
    const source = [
      'effects.push({ type: "quest-init", operator: "set", value: "Lost Sheep" });',
      "if (storage.met) effects.push({ 'type': `quest-init`, operator: 'set', ['value']: `Old Debt` });",
      'triggers.later = { name: "later", conditions: [], effects: [{ type: "quest-init", operator: "set", value: "Third" }] };',
    ].join("\n");
    assert.deepEqual(analysisOf(source).questInits, [
      { quest: "Lost Sheep", at: where(source, "{ type") },
      { quest: "Old Debt", at: where(source, "{ 'type'") },
      { quest: "Third", at: where(source, '{ type: "quest-init", operator: "set", value: "Third"') },
    ]);
    assert.deepEqual(where(source, "{ 'type'"), { line: 2, column: 31, offset: 106 });
  });

  test("keeps quest-init objects the engine would drop apart", () => {
    const source = [
      'effects.push({ type: "quest-init", value: "No Operator" });',
      'effects.push({ type: "quest-init", operator: "add", value: "Wrong Operator" });',
      'effects.push({ type: "quest-init", operator: op, value: "Operator At Run Time" });',
    ].join("\n");
    const analysis = analysisOf(source);
    assert.deepEqual(analysis.malformedQuestInits, [
      { quest: "No Operator", at: where(source, '{ type: "quest-init", value') },
      { quest: "Wrong Operator", at: where(source, '{ type: "quest-init", operator: "add"') },
    ]);
    assert.deepEqual(analysis.questInits, [
      { quest: "Operator At Run Time", at: where(source, '{ type: "quest-init", operator: op') },
    ]);
  });

  test("does not find quest names built at run time, nor other effect types", () => {
    const analysis = analysisOf(
      [
        'const name = "Lost " + "Sheep";',
        'effects.push({ type: "quest-init", operator: "set", value: name });',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is a script, not a template
        'effects.push({ type: "quest-init", operator: "set", value: `Lost ${name}` });',
        'effects.push({ type: "quest-complete", questId: "Lost Sheep" });',
        'effects.push({ type: kind, value: "Lost Sheep" });',
      ].join("\n"),
    );
    assert.deepEqual(analysis.questInits, []);
  });

  test("lists storage keys read and written, in first-use order", () => {
    const analysis = analysisOf(
      [
        "storage.a = 1;",
        "storage['b'] += 2;",
        "storage.c++;",
        "delete storage.d;",
        "storage.e.push(1);",
        "storage.f.g = 1;",
        "log(storage[`h`], storage[0]);",
        '"i" in storage;',
        "[storage.k] = [1];",
        "({ v: storage.l } = { v: 2 });",
        "for (storage.m of [1]) {}",
        "storage?.n?.length;",
        "storage.o?.splice(0);",
        "storage.p.includes(1);",
      ].join("\n"),
    );
    assert.deepEqual(analysis.storage, {
      reads: ["b", "c", "e", "f", "h", "0", "i", "n", "o", "p"],
      writes: ["a", "b", "c", "d", "e", "f", "k", "l", "m", "o"],
      reassigned: false,
      dynamic: false,
    });
  });

  test("notices a reassigned storage", () => {
    for (const source of [
      "storage = {};",
      "storage++;",
      "[storage] = [{}];",
      "({ s: storage } = { s: {} });",
    ]) {
      const { storage } = analysisOf(source);
      assert.equal(storage.reassigned, true, source);
      assert.equal(storage.dynamic, false, source);
    }
  });

  test("says when the key lists may be incomplete", () => {
    for (const source of [
      "storage[key] = 1;",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is a script, not a template
      "storage[`k${n}`] = 1;",
      "for (const k of Object.keys(storage)) log(k);",
      "log({ storage });",
      "key in storage;",
      "function f(storage) { storage.x = 1; }",
      "let storage = {};",
      "try {} catch (storage) {}",
    ]) {
      assert.equal(analysisOf(source).storage.dynamic, true, source);
    }
    assert.equal(analysisOf("if (typeof storage === 'object') storage.x = 1;").storage.dynamic, false);
    assert.deepEqual(analysisOf("storage[key] = 1;").storage.dynamicWhy, ["computed keys"]);
    assert.deepEqual(analysisOf("log(Object.keys(storage));").storage.dynamicWhy, [
      "storage used as a value",
    ]);
  });

  test("follows aliases, defaults, destructuring and optional chaining of storage (issue 18)", () => {
    const storageOf = (source: string) => {
      const { reads, writes, dynamic } = analysisOf(source).storage;
      return { reads, writes, dynamic };
    };
    assert.deepEqual(storageOf("const guild = storage.factions.guild; guild.rank = 'silver';"), {
      reads: ["factions"],
      writes: ["factions"],
      dynamic: false,
    });
    assert.deepEqual(storageOf("const s = storage; s.x = 1;"), { reads: [], writes: ["x"], dynamic: false });
    assert.deepEqual(storageOf("const { factions, gold = 0, rank: r } = storage; r.x = 1; log(gold);"), {
      reads: ["factions", "gold", "rank"],
      writes: ["rank"],
      dynamic: false,
    });
    assert.deepEqual(storageOf("const g = storage?.factions?.guild; if (g) log(g.rank);"), {
      reads: ["factions"],
      writes: [],
      dynamic: false,
    });
    assert.deepEqual(
      storageOf(
        "let f = storage.factions || {}; f = f || {}; f.count = (f.count || 0) + 1; storage.factions = f;",
      ),
      { reads: ["factions"], writes: ["factions"], dynamic: false },
    );
    assert.deepEqual(storageOf("const q = storage.quests; q.list.push('a');"), {
      reads: ["quests"],
      writes: ["quests"],
      dynamic: false,
    });
    // A name bound twice may point elsewhere: not followed as an alias, and nothing is written through it.
    assert.deepEqual(storageOf("let a = storage.a; a = 5;"), { reads: ["a"], writes: [], dynamic: false });
    assert.equal(storageOf("const { ...all } = storage;").dynamic, true);
  });

  test("finds check() calls with the regex operator, which return undefined", () => {
    const source = [
      'if (check({ type: "story-text", operator: "regex", value: "wolf" })) skip = true;',
      'if (/wolf/.test(check({ type: "story-text" }))) storage.wolf = true;',
      'check({ operator: "regex", value: "x" });',
      'check({ type: "party-area", operator: "contains", value: "x" });',
    ].join("\n");
    assert.deepEqual(analysisOf(source).regexChecks, [
      { conditionType: "story-text", at: { line: 1, column: 5, offset: 4 } },
      { conditionType: null, at: where(source, 'check({ operator: "regex"') },
    ]);
  });

  test("finds an unconditional top-level skip = true", () => {
    assert.deepEqual(analysisOf("storage.n = 1;\nskip = true;").unconditionalSkip, {
      line: 2,
      column: 1,
      offset: 15,
    });
    assert.deepEqual(analysisOf("{\n  skip = true;\n}").unconditionalSkip, { line: 2, column: 3, offset: 4 });
    // An earlier reset is overwritten by the later skip.
    assert.notEqual(analysisOf("if (a) skip = false;\nskip = true;").unconditionalSkip, null);
  });

  test("a skip that depends on anything is not unconditional", () => {
    for (const source of [
      "if (check({ type: 'game-tick' }) < 3) skip = true;",
      "if (a) {} else { skip = true; }",
      "for (const x of [1]) skip = true;",
      "while (false) skip = true;",
      "try { skip = true; } catch {}",
      "switch (a) { case 1: skip = true; }",
      "a && (skip = true);",
      "a ? (skip = true) : 0;",
      "function f() { skip = true; }",
      "skip = 1;",
      "skip = true; if (storage.ready) skip = false;",
      "function undo() { skip = false; }\nskip = true;\nundo();",
      "skip = true; skip ||= x;",
      "skip = true; skip++;",
    ]) {
      assert.equal(analysisOf(source).unconditionalSkip, null, source);
    }
  });

  test("inspectScript memoises by text, and agrees with parseScript + analyseScript", () => {
    const source = "storage.inspected = true;\nskip = true;";
    const parsed = parseScript(source);
    assert.ok(parsed.ok);
    assert.deepEqual(inspectScript(source), { ok: true, analysis: analyseScript(parsed.program) });
    assert.equal(inspectScript(source), inspectScript(source));
    const broken = "storage.x = ;";
    assert.deepEqual(inspectScript(broken), parseScript(broken));
  });
});

describe("positions in the JSON file", () => {
  test("offsetInJsonLiteral accounts for escapes", () => {
    const literal = JSON.stringify('a\n"é\u0001b');
    assert.equal(literal, '"a\\n\\"é\\u0001b"');
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6].map((i) => offsetInJsonLiteral(literal, i)),
      [1, 2, 4, 6, 7, 13, 14],
    );
  });

  test("offsetInJsonLiteral points at the character it was asked for", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), fc.nat(), (text, n) => {
        const literal = JSON.stringify(text);
        const index = text.length === 0 ? 0 : n % text.length;
        assert.equal(JSON.parse(`"${literal.slice(offsetInJsonLiteral(literal, index))}`), text.slice(index));
      }),
    );
  });

  test("scriptPositionInFile maps a script error to the file's line and column", () => {
    const script = 'storage.a = "x\\ty";\nlet x = ;';
    const text = JSON.stringify({ triggers: { t: { name: "t", script } } }, null, 2);
    const { source } = parseSource("w.json", text);
    const error = errorOf(script);
    const at = scriptPositionInFile(source, ["triggers", "t", "script"], error.offset);
    assert.ok(at);
    const line = text.split("\n")[at.line - 1] ?? "";
    assert.ok(line.slice(0, at.column).endsWith('"storage.a = \\"x\\\\ty\\";\\nlet x = ;'), line);
    assert.equal(scriptPositionInFile(source, ["triggers", "t", "name", "nope"], 0), null);
    assert.equal(scriptPositionInFile(source, ["triggers", "t"], 0), null);
  });
});
