import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createSandbox } from "../../src/sandbox/index.ts";
import { parseScript } from "../../src/world/script.ts";
import { failure, ok, phaseInfo, runIn, runOne } from "./support.ts";

const sandbox = createSandbox({ watchdogMarginMs: 400 });
after(() => sandbox.close());

describe("script failures (spec 7, 8)", () => {
  it("a syntax error has parseScript's message and position", async () => {
    for (const script of [
      "let x = ;",
      "storage.a = 1;\n  if (x {",
      "return 5",
      "storage.a = 1;\n\n   let let = 2",
    ]) {
      const parsed = parseScript(script);
      assert.equal(parsed.ok, false);
      if (parsed.ok) continue;
      const out = failure(await runOne(sandbox, script));
      assert.equal(out.failure, "syntax");
      assert.equal(out.message, parsed.error.message);
      assert.equal(out.line, parsed.error.line);
      assert.equal(out.column, parsed.error.column);
    }
  });

  it("a runtime error has the position of the throwing expression", async () => {
    const out = failure(await runOne(sandbox, 'storage.a = 1;\nlog("x");\n    missing.call();'));
    assert.equal(out.failure, "runtime");
    assert.match(out.message, /ReferenceError: missing is not defined/);
    assert.equal(out.line, 3);
    assert.equal(out.column, 5);
    const thrown = failure(await runOne(sandbox, 'function f() {\n  throw new RangeError("bad");\n}\nf();'));
    assert.deepEqual([thrown.message, thrown.line, thrown.column], ["RangeError: bad", 2, 9]);
  });

  it("logs written before a runtime error are kept", async () => {
    const out = failure(await runOne(sandbox, 'log("before"); null.x'));
    assert.deepEqual(out.logs, [{ level: "log", message: "before" }]);
  });

  it("an infinite loop times out within the budget and the next script gets budget", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    const first = ok(await runIn(phase, "storage.a = 1"));
    const started = performance.now();
    const loop = failure(await runIn(phase, "for (;;) {}"));
    const took = performance.now() - started;
    const next = failure(await runIn(phase, "storage.b = 1"));
    await phase.end();
    assert.equal(loop.failure, "timeout");
    assert.ok(loop.elapsedMs >= 500 - first.elapsedMs - 1 && took < 900, `took ${took} ms`);
    assert.equal(next.failure, "budget");
    assert.equal(next.elapsedMs, 0);
  });

  it("the planning and state phases have independent budgets", async () => {
    const planning = await sandbox.beginPhase(phaseInfo({ phase: "planning" }));
    assert.equal(failure(await runIn(planning, "while (true) {}")).failure, "timeout");
    await planning.end();
    const state = await sandbox.beginPhase(phaseInfo({ phase: "state" }));
    assert.equal(ok(await runIn(state, "storage.ran = true")).storage.ran, true);
    await state.end();
  });

  it("a memory bomb fails with memory, ends the phase, and the next phase runs after respawn", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    const bomb = failure(await runIn(phase, "new Array(5e7).fill(1.5)"));
    const after = failure(await runIn(phase, "storage.a = 1"));
    await phase.end();
    assert.equal(bomb.failure, "memory");
    assert.equal(after.failure, "memory");
    const started = performance.now();
    const next = ok(await runOne(sandbox, "storage.back = true"));
    assert.equal(next.storage.back, true);
    assert.ok(performance.now() - started < 5000);
  });

  it("a doubling array fails with memory and terminates its phase", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    const bomb = failure(await runIn(phase, "let a = [1]; for (;;) a = a.concat(a);"));
    assert.equal(bomb.failure, "memory");
    assert.equal(failure(await runIn(phase, "1")).failure, "memory");
    await phase.end();
  });
});
