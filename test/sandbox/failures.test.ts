import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createSandbox } from "../../src/sandbox/index.ts";
import { ERROR_MESSAGE_CAP, PHASE_BUDGET_MS } from "../../src/sandbox/protocol.ts";
import { parseScript } from "../../src/world/script/inspect.ts";
import { onlyTriggers, say, start } from "../engine/helpers.ts";
import { failure, ok, phaseInfo, runIn, runOne } from "./support.ts";

// These tests assert why a script stopped (its CPU budget, its memory limit), which the child
// decides; the host's watchdog is a wall-clock safety net that on a loaded machine would kill a
// child still working towards that answer (a heap filling up under a busy collector) and report
// it as a timeout. A wide margin keeps the answer the child's (issue 40, 2); no test waits on it.
const sandbox = createSandbox({ watchdogMarginMs: 10_000 });

/**
 * A script stopped by its CPU budget, asserted by cause, not by wall-clock
 * time (issue 40, 2: the runner runs two files at once, and other processes
 * may hold the cores): the budget's message (not the wall-clock ceiling's nor
 * the watchdog's), and the CPU time the isolate spent, at least 90% of the
 * budget it had left (the child stops a script there, protocol.ts). No upper
 * bound: a busy machine makes the child try again with more wall time, and a
 * try that then runs on a quiet core spends up to that wall time.
 */
function assertStoppedByBudget(out: ReturnType<typeof failure>, left: number) {
  assert.equal(out.failure, "timeout");
  assert.equal(out.message, "the phase's 500 ms script budget ran out while the script ran");
  assert.ok(out.elapsedMs >= left * 0.9, `CPU time ${out.elapsedMs} ms of ${left} ms`);
}
const tick1 = { type: "game-tick", operator: "equals", value: 1 };
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
    const loop = failure(await runIn(phase, "for (;;) {}"));
    const next = failure(await runIn(phase, "storage.b = 1"));
    await phase.end();
    assertStoppedByBudget(loop, PHASE_BUDGET_MS - first.elapsedMs);
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
    // How fast the respawn is belongs to the benchmarks (npm run bench), not to a wall-clock bound here.
    const next = ok(await runOne(sandbox, "storage.back = true"));
    assert.equal(next.storage.back, true);
  });

  it("a doubling array fails with memory and terminates its phase (or spends its budget first)", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    const bomb = failure(await runIn(phase, "let a = [1]; for (;;) a = a.concat(a);"));
    // Copying costs CPU as fast as memory: on a loaded machine the CPU budget may run out first
    // (issue 40, 2). Whichever limit stopped it, the phase runs nothing more, and says which.
    assert.ok(bomb.failure === "memory" || bomb.failure === "timeout", bomb.message);
    assert.equal(failure(await runIn(phase, "1")).failure, bomb.failure === "memory" ? "memory" : "budget");
    await phase.end();
  });

  it("a thrown value is read inside the isolate, under the script's own budget (issue 15 item 9)", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    const looping = failure(await runIn(phase, "throw { get message() { for (;;) {} } }"));
    const next = failure(await runIn(phase, "storage.after = 1"));
    await phase.end();
    assertStoppedByBudget(looping, PHASE_BUDGET_MS);
    // The budget is spent by the thrower: the next script is told so, not blamed for memory.
    assert.equal(next.failure, "budget");
    assert.equal(ok(await runOne(sandbox, "storage.fine = 1")).storage.fine, 1);
  });

  it("hostile thrown values: throwing getters, proxies, long messages", async () => {
    const cases: [string, RegExp][] = [
      ["throw { get message() { throw 1 } }", /^uncaught \[object Object\]$/],
      ["throw new Proxy({}, { get() { throw 1 }, ownKeys() { throw 1 } })", /^uncaught value$/],
      [
        "const e = new Error('x'); Object.defineProperty(e, 'name', { get() { throw 2 } }); throw e",
        /^uncaught value$/,
      ],
      ["throw { toJSON() { return 'j' } }", /^uncaught "j"$/],
      ["throw Symbol('s')", /^uncaught Symbol\(s\)$/],
    ];
    for (const [script, pattern] of cases) {
      const out = failure(await runOne(sandbox, script));
      assert.equal(out.failure, "runtime", script);
      assert.match(out.message, pattern, script);
    }
    const long = failure(await runOne(sandbox, "throw new Error('E'.repeat(12 * 1024 * 1024))"));
    assert.equal(
      long.message.length,
      ERROR_MESSAGE_CAP + ` [message cut at ${ERROR_MESSAGE_CAP} characters]`.length,
    );
    assert.match(long.message, /^Error: E+ \[message cut at 4096 characters\]$/);
  });

  it("in a turn, the looping thrower is logged as timed out and the next trigger as out of budget", async () => {
    const { session } = await start(
      onlyTriggers({
        thrower: { conditions: [tick1], script: "throw { get message() { for (;;) {} } }" },
        bystander: { conditions: [tick1], script: "storage.ran = true" },
      }),
      { scripts: sandbox },
    );
    const result = await session.turn(say("look"));
    const errors = result.logs.filter((entry) => entry.type === "trigger-script-error");
    assert.equal(errors[0]?.trigger, "thrower");
    assert.match(errors[0]?.message ?? "", /^Timed out: /);
    assert.ok(!errors.some((entry) => /memory/.test(entry.message)), JSON.stringify(errors));
    const traces = result.trace.phases.flatMap((phase) => phase.triggers);
    assert.equal(traces.find((t) => t.trigger === "thrower")?.script?.status, "timeout");
    assert.equal(traces.find((t) => t.trigger === "bystander")?.script?.status, "budget");
  });
});
