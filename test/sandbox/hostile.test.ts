import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { ScriptOutcome } from "../../src/engine/ports.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import { VALUE_MAX_DEPTH } from "../../src/sandbox/protocol.ts";
import { type CallInput, failure, ok, phaseInfo, runIn, runOne } from "./support.ts";

/**
 * Attack scripts: each must end in its exact outcome, leave the host's own
 * prototypes clean, and leave the host able to run the next phase.
 */

// These tests assert why a script stopped (its CPU budget, its memory limit), which the child
// decides; the host's watchdog is a wall-clock safety net that on a loaded machine would kill a
// child still working towards that answer (a heap filling up under a busy collector) and report
// it as a timeout. A wide margin keeps the answer the child's (issue 40, 2); no test waits on it.
const sandbox = createSandbox({ watchdogMarginMs: 10_000 });
after(() => sandbox.close());

interface Attack {
  name: string;
  script: string;
  input?: CallInput;
  expect: (outcome: ScriptOutcome) => void;
}

const NO_CODEGEN = /TypeError: code generation from strings is not available in scripts/;

function runtime(pattern: RegExp) {
  return (outcome: ScriptOutcome) => {
    const out = failure(outcome);
    assert.equal(out.failure, "runtime");
    assert.match(out.message, pattern);
  };
}

function failsWith(kind: "timeout" | "memory") {
  return (outcome: ScriptOutcome) => assert.equal(failure(outcome).failure, kind, failure(outcome).message);
}

function failsWithEither(...kinds: ("timeout" | "memory")[]) {
  return (outcome: ScriptOutcome) =>
    assert.ok(kinds.includes(failure(outcome).failure as "memory"), JSON.stringify(outcome));
}

function stores(expected: Record<string, unknown>) {
  return (outcome: ScriptOutcome) => assert.deepEqual(ok(outcome).storage, expected);
}

const ATTACKS: Attack[] = [
  {
    name: "Function via a function's constructor",
    script: "(function () {}).constructor('return this')()",
    expect: runtime(NO_CODEGEN),
  },
  {
    name: "Function via an arrow's constructor",
    script: "(() => 1).constructor('return 1')",
    expect: runtime(NO_CODEGEN),
  },
  {
    name: "AsyncFunction constructor",
    script: "(async function () {}).constructor('return 1')",
    expect: runtime(NO_CODEGEN),
  },
  {
    name: "GeneratorFunction constructor",
    script: "(function* () {}).constructor('yield 1')",
    expect: runtime(NO_CODEGEN),
  },
  {
    name: "AsyncGeneratorFunction constructor",
    script: "(async function* () {}).constructor('')",
    expect: runtime(NO_CODEGEN),
  },
  {
    name: "constructor with new",
    script: "new (Object.getPrototypeOf(function* () {}).constructor)('x')",
    expect: runtime(NO_CODEGEN),
  },
  {
    name: "globalThis.constructor.constructor",
    script: "this.constructor.constructor('return process')()",
    expect: runtime(NO_CODEGEN),
  },
  { name: "check.constructor", script: "check.constructor('return 1')()", expect: runtime(NO_CODEGEN) },
  { name: "log.constructor", script: "console.log.constructor('return 1')()", expect: runtime(NO_CODEGEN) },
  {
    name: "Reflect.construct on the constructor",
    script: "Reflect.construct(Reflect.getPrototypeOf(() => 1).constructor, ['return 1'])",
    expect: runtime(NO_CODEGEN),
  },
  {
    name: "the constructor through its property descriptor",
    script:
      "Object.getOwnPropertyDescriptor(Object.getPrototypeOf(function () {}), 'constructor').value('return 1')",
    expect: runtime(NO_CODEGEN),
  },
  {
    name: "Function.prototype reached from an async function's prototype",
    script: "Reflect.getPrototypeOf(Reflect.getPrototypeOf(async () => {})).constructor('return 1')",
    expect: runtime(NO_CODEGEN),
  },
  {
    name: "redefining the constructor back",
    script: "Object.defineProperty(Object.getPrototypeOf(function () {}), 'constructor', { value: 1 })",
    expect: runtime(/TypeError: Cannot redefine property: constructor/),
  },
  { name: "eval is gone", script: "eval('1')", expect: runtime(/ReferenceError: eval is not defined/) },
  {
    name: "indirect eval via globalThis",
    script: "globalThis['ev' + 'al']('1')",
    expect: runtime(/TypeError: .* is not a function/),
  },
  {
    name: "import.meta is a syntax error",
    script: "storage.m = import.meta",
    expect: (o) => assert.equal(failure(o).failure, "syntax"),
  },
  {
    name: "no host globals (typeof)",
    script:
      "storage.t = [typeof require, typeof process, typeof Buffer, typeof setTimeout, typeof setInterval, typeof Function, typeof WebAssembly, typeof SharedArrayBuffer, typeof Atomics, typeof module, typeof eval]",
    expect: stores({ t: Array(11).fill("undefined") }),
  },
  {
    name: "dynamic import",
    script: "import('fs').then(() => { storage.got = 1 }, (e) => { storage.err = 1 })",
    expect: (o) => assert.equal(ok(o).storage.got, undefined),
  },
  {
    name: "__proto__ key in storage stays a plain key",
    script: `storage = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')`,
    expect: (o) => {
      const out = ok(o);
      assert.ok(Object.hasOwn(out.storage, "__proto__"));
      assert.deepEqual(Object.keys(out.storage), ["__proto__", "a"]);
    },
  },
  {
    name: "__proto__ key in effects stays a plain key",
    script: `effects.push(JSON.parse('{"__proto__": {"type": "x"}}'))`,
    expect: (o) => {
      const effect = ok(o).effects[0] as Record<string, unknown>;
      assert.ok(Object.hasOwn(effect, "__proto__"));
      assert.equal(effect.type, undefined);
    },
  },
  {
    name: "__proto__ key in triggers stays a plain key",
    script: `triggers = JSON.parse('{"__proto__": {"polluted": true}}')`,
    expect: (o) => assert.ok(Object.hasOwn(ok(o).triggers ?? {}, "__proto__")),
  },
  {
    name: "Object.prototype pollution is not serialised",
    script: "Object.prototype.polluted = 1; storage.a = 1",
    expect: stores({ a: 1 }),
  },
  {
    name: "polluting through triggers' prototype",
    script: "triggers.__proto__.polluted = 1; Object.getPrototypeOf(effects).evil = 1",
    expect: (o) => {
      const out = ok(o);
      assert.equal(out.triggers, null);
      assert.deepEqual(out.effects, []);
    },
  },
  {
    name: "replacing JSON.stringify does not change the read-back",
    script: "JSON.stringify = () => '{\"hacked\":1}'; JSON.parse = () => ({}); storage.a = 1",
    expect: stores({ a: 1 }),
  },
  {
    name: "array index setters on Array.prototype (built-ins are frozen)",
    script:
      "storage.a = 1; Object.defineProperty(Array.prototype, '0', { set() { throw 1 }, get() { return 'evil' } })",
    expect: runtime(/^TypeError: Cannot define property 0, object is not extensible$/),
  },
  {
    name: "assigning to a built-in is ignored in sloppy code and throws in strict code",
    script:
      "Array.prototype.evil = 3; Math.random = () => 0; storage.t = [typeof [].evil, Math.random() === 0];" +
      "storage.strict = (function () { 'use strict'; try { Math.max = 1; return 'no' } catch (e) { return e.name } })()",
    expect: stores({ t: ["undefined", false], strict: "TypeError" }),
  },
  {
    name: "a script's own objects still override inherited built-in methods",
    script:
      "function F() {} F.prototype.toString = function () { return 'F!' }; const e = new Error('m'); e.name = 'Mine';" +
      "class C extends Error { constructor() { super('c'); this.name = 'C' } } const o = {}; o.constructor = 1;" +
      "storage.t = [String(new F()), String(e), String(new C()), o.constructor, Object.prototype.toString === ({}).toString]",
    expect: stores({ t: ["F!", "Mine: m", "C: c", 1, true] }),
  },
  {
    name: "a getter in storage is read once, as a value",
    script: "Object.defineProperty(storage, 'g', { get() { return 5 }, enumerable: true })",
    expect: stores({ g: 5 }),
  },
  {
    name: "a looping getter in storage",
    script: "Object.defineProperty(storage, 'g', { get() { for (;;) {} }, enumerable: true })",
    expect: failsWith("timeout"),
  },
  {
    name: "a proxy as storage",
    script:
      "storage = new Proxy({}, { ownKeys: () => ['a'], getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }), get: () => 7 })",
    expect: stores({ a: 7 }),
  },
  {
    name: "a throwing proxy as storage",
    script: "storage = new Proxy({}, { ownKeys() { throw new Error('trap') } })",
    expect: runtime(/Error: trap/),
  },
  { name: "toJSON answering a number", script: "storage.toJSON = () => 5", expect: stores({}) },
  { name: "toJSON answering an array", script: "storage.toJSON = () => [1]", expect: stores({}) },
  {
    name: "a throwing toJSON",
    script: "storage.x = { toJSON() { throw new Error('boom') } }",
    expect: runtime(/Error: boom/),
  },
  {
    name: "Symbol.toPrimitive is not called by the read-back",
    script:
      "effects.push({ type: { [Symbol.toPrimitive]() { throw 1 } } }); storage.n = { [Symbol.toPrimitive]: () => 5 }",
    expect: (o) => {
      const out = ok(o);
      assert.deepEqual(out.effects, [{ type: {} }]);
      assert.deepEqual(out.storage, { n: {} });
    },
  },
  {
    name: "a proxy as effects with a looping length",
    script: "effects = new Proxy([], { get() { for (;;) {} } })",
    expect: failsWith("timeout"),
  },
  { name: "a circular trigger map", script: "triggers.self = triggers", expect: runtime(/circular/) },
  {
    name: "a skip getter",
    script: "Object.defineProperty(globalThis, 'skip', { get() { return true } })",
    expect: (o) => assert.equal(ok(o).skip, true),
  },
  { name: "a huge string", script: "storage.s = 'x'.repeat(1e8).toUpperCase()", expect: failsWith("memory") },
  {
    name: "a too long string",
    script: "storage.s = 'x'.repeat(2 ** 30)",
    expect: runtime(/RangeError: Invalid string length/),
  },
  {
    name: "a doubling array",
    script: "let a = [1]; for (;;) a = a.concat(a);",
    // Copying a doubling array costs CPU as fast as it costs memory: on a loaded machine (page faults,
    // a busy collector) the CPU budget can run out first. Either limit stops it and says which;
    // test/sandbox/failures.test.ts asserts the memory case and what it does to the phase.
    expect: failsWithEither("memory", "timeout"),
  },
  {
    name: "a huge typed array",
    script: "storage.b = new Float64Array(1e8)",
    expect: runtime(/RangeError: Array buffer allocation failed/),
  },
  {
    name: "deep recursion",
    script: "function f() { return f() }\nf()",
    expect: runtime(/RangeError: Maximum call stack size exceeded/),
  },
  {
    name: "deeply nested storage",
    script: "let o = {}; for (let i = 0; i < 1e6; i++) o = { o }; storage.o = o",
    // A million small objects fill the heap only after about 500 ms of CPU, mostly the collector's
    // work near the limit: the phase's CPU budget (500 ms) and its memory limit race, and which
    // stops the script first depends on the machine. Either is a limit that says which it is.
    expect: failsWithEither("memory", "timeout"),
  },
  {
    name: "storage nested too deep for JSON is refused at the depth limit",
    script: "let o = {}; for (let i = 0; i < 1e4; i++) o = { o }; storage.o = o",
    input: { storage: { before: 1 } },
    expect: (o) => {
      const out = ok(o);
      assert.equal(out.storageRejected, true);
      assert.deepEqual(out.storage, { before: 1 });
      assert.equal(
        out.storageProblem,
        `storage.o is nested deeper than ${VALUE_MAX_DEPTH} levels, the limit for values a script hands back`,
      );
    },
  },
  {
    name: "a microtask writes storage before the read-back",
    script: "Promise.resolve().then(() => { storage.m = 1 })",
    expect: stores({ m: 1 }),
  },
  {
    name: "an async function runs to completion",
    script: "(async () => { await null; await null; storage.a = 1 })()",
    expect: stores({ a: 1 }),
  },
  {
    name: "an endless microtask chain",
    script: "const f = () => Promise.resolve().then(f); f()",
    // Each job allocates a little: the heap fills after about as much CPU as the budget holds, so
    // which limit stops it first depends on the machine's load (issue 40, 2). Either says which.
    expect: failsWithEither("memory", "timeout"),
  },
  {
    name: "a catastrophic regex",
    script: "/(a+)+$/.test('a'.repeat(40) + 'b')",
    expect: failsWith("timeout"),
  },
  {
    name: "a log flood is capped",
    script: "for (let i = 0; i < 1e4; i++) console.error('y'.repeat(1000))",
    expect: (o) => {
      const logs = ok(o).logs;
      assert.equal(logs.length, 66);
      assert.match(logs[65]?.message ?? "", /truncated/);
    },
  },
  {
    name: "a log argument with a throwing toJSON",
    script: "log({ toJSON() { throw 1 } })",
    expect: (o) => assert.deepEqual(ok(o).logs, [{ level: "log", message: "[object Object]" }]),
  },
  {
    name: "a log argument with a looping toJSON",
    script: "log({ toJSON() { for (;;) {} } })",
    expect: failsWith("timeout"),
  },
  {
    name: "a thrown object with a looping getter",
    script: "throw { get message() { for (;;) {} } }",
    expect: failsWith("timeout"),
  },
  {
    name: "a looping prepareStackTrace cannot be installed (Error is frozen)",
    script: "Error.prepareStackTrace = () => { for (;;) {} }; null.x",
    expect: runtime(/^TypeError: Cannot read properties of null \(reading 'x'\)$/),
  },
  {
    name: "a forged timeout message is a runtime error",
    script: "throw new Error('Script execution timed out.')",
    expect: runtime(/^Error: Script execution timed out\.$/),
  },
  { name: "throwing a primitive", script: "throw 5", expect: runtime(/^uncaught 5$/) },
];

describe("hostile scripts", () => {
  for (const attack of ATTACKS) {
    it(attack.name, async () => {
      attack.expect(await runOne(sandbox, attack.script, attack.input));
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(ok(await runOne(sandbox, "storage.alive = typeof polluted")).storage.alive, "undefined");
    });
  }

  it("scripts of one phase do not share globals or intrinsics", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    ok(
      await runIn(phase, "var shared = 1; globalThis.g = 2; Array.prototype.evil = 3; Math.random = () => 0"),
    );
    const next = ok(
      await runIn(phase, "storage.t = [typeof shared, typeof g, typeof [].evil, Math.random() === 0]"),
    );
    await phase.end();
    assert.deepEqual(next.storage.t, ["undefined", "undefined", "undefined", false]);
  });

  it("two sessions sharing one host cannot see each other's storage", async () => {
    const a = await sandbox.beginPhase(phaseInfo({ sessionId: "a" }));
    const b = await sandbox.beginPhase(phaseInfo({ sessionId: "b" }));
    const [fromA, fromB] = await Promise.all([
      runIn(a, "storage.secret = 'a-only'; var secret = 1; globalThis.leak = storage", {
        storage: { secret: "x" },
      }),
      runIn(b, "storage.saw = [typeof secret, typeof leak, JSON.stringify(storage)]", {
        storage: { mine: 1 },
      }),
    ]);
    const later = await runIn(b, "storage.saw = [typeof secret, typeof leak]");
    await Promise.all([a.end(), b.end()]);
    assert.deepEqual(ok(fromA).storage, { secret: "a-only" });
    assert.deepEqual(ok(fromB).storage, { mine: 1, saw: ["undefined", "undefined", '{"mine":1}'] });
    assert.deepEqual(ok(later).storage, { saw: ["undefined", "undefined"] });
  });

  it("a global made non-configurable: the next script gets a fresh context, storage intact", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    try {
      const first = ok(
        await runIn(
          phase,
          "Object.defineProperty(globalThis, 'Array', { value: 1, writable: false, configurable: false });" +
            "Object.defineProperty(globalThis, 'pinned', { value: 2, configurable: false }); storage.n = 1",
          { storage: { kept: "yes" } },
        ),
      );
      const next = ok(
        await runIn(phase, "storage.seen = [typeof Array, typeof pinned]; storage.n += 1", {
          storage: first.storage,
        }),
      );
      assert.deepEqual(next.storage, { kept: "yes", n: 2, seen: ["function", "undefined"] });
    } finally {
      await phase.end();
    }
  });

  it("a global pinned by a phase's last script does not reach the next phase, of another session", async () => {
    // The reset after a phase's last script runs when the phase ends; a context it cannot bring
    // back is not kept for the next phase.
    const a = await sandbox.beginPhase(phaseInfo({ sessionId: "pin-a" }));
    ok(
      await runIn(
        a,
        "Object.defineProperty(globalThis, 'Array', { value: 1, writable: false, configurable: false });" +
          "Object.defineProperty(globalThis, 'pinned', { value: 2, configurable: false }); var loose = 3",
      ),
    );
    await a.end();
    const b = await sandbox.beginPhase(phaseInfo({ sessionId: "pin-b" }));
    try {
      const next = ok(await runIn(b, "storage.seen = [typeof Array, typeof pinned, typeof loose]"));
      assert.deepEqual(next.storage.seen, ["function", "undefined", "undefined"]);
    } finally {
      await b.end();
    }
  });

  it("a microtask queued by a getter during the read-back cannot reach the next script", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    try {
      ok(
        await runIn(
          phase,
          "Object.defineProperty(storage, 'g', { enumerable: true, get() {" +
            " Promise.resolve().then(() => { globalThis.late = 1; Promise.resolve().then(() => { globalThis.later = 2 }) }); return 1 } })",
        ),
      );
      const next = ok(await runIn(phase, "storage.seen = [typeof late, typeof later]"));
      assert.deepEqual(next.storage.seen, ["undefined", "undefined"]);
    } finally {
      await phase.end();
    }
  });

  it("the next phase, of this session or another, sees nothing of the last one", async () => {
    const one = await sandbox.beginPhase(phaseInfo({ sessionId: "one" }));
    ok(await runIn(one, "var left = 1; storage.secret = 'one'", { storage: { secret: "x" } }));
    await one.end();
    // The ended phase's isolate and context are kept for the next phase with the same memory limit.
    const two = await sandbox.beginPhase(phaseInfo({ sessionId: "two" }));
    try {
      const out = ok(
        await runIn(two, "storage.saw = [typeof left, JSON.stringify(storage)]", { storage: {} }),
      );
      assert.deepEqual(out.storage, { saw: ["undefined", "{}"] });
    } finally {
      await two.end();
    }
  });
});
