import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createSandbox } from "../../src/sandbox/index.ts";
import { cpuTimeMs } from "../../src/sandbox/process.ts";
import { PHASE_BUDGET_MS, wallLimitMs } from "../../src/sandbox/protocol.ts";
import { failure, ok, phaseInfo, runIn } from "./support.ts";

// A busy machine, played without loading the shared one: the test stops the sandbox process
// (SIGSTOP) for a while, as a machine that gives it no core does, then lets it go on (SIGCONT).
// The outcome must be what an idle machine gives: a script is judged by the CPU time it used,
// never by how long it waited for a core. Nothing here asserts how fast anything runs.

const sandbox = createSandbox();
after(() => sandbox.close());

/** The first call's wall limit, plus the host's watchdog margin: a stop longer than this outlived both. */
const WATCHED_MS =
  wallLimitMs({ info: phaseInfo(), cpuMs: 0, wallMs: 0, ceilingMs: 60_000, logBytes: 0, attempt: 0 }) +
  sandbox.watchdogMarginMs;

/** A script of about 100-200 ms of CPU time on a whole core, whose result depends on all of it. */
const BUSY =
  "let x = 0; for (let i = 0; i < 3e7; i++) x = (x + i) % 1000003; storage.x = x; storage.n = (storage.n ?? 0) + 1;";

function expected(): number {
  let x = 0;
  for (let i = 0; i < 3e7; i++) x = (x + i) % 1000003;
  return x;
}

async function onlyProcess(host: ReturnType<typeof createSandbox>): Promise<number> {
  // A first phase starts the process.
  const warm = await host.beginPhase(phaseInfo({ sessionId: "warm" }));
  ok(await runIn(warm, "storage.w = 1"));
  await warm.end();
  const pids = host.processIds();
  assert.equal(pids.length, 1);
  return pids[0] as number;
}

/** Stops `pid` for `ms`, then lets it go on. */
async function stopFor(pid: number, ms: number): Promise<void> {
  process.kill(pid, "SIGSTOP");
  try {
    await sleep(ms);
  } finally {
    resume(pid);
  }
}

/** Lets a stopped process go on; one the sandbox ended meanwhile is gone. */
function resume(pid: number): void {
  try {
    process.kill(pid, "SIGCONT");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

describe("a busy machine never changes a script's outcome", () => {
  it("a call whose process gets no core for longer than its wall limit and watchdog runs as on an idle machine", async () => {
    const pid = await onlyProcess(sandbox);
    const phase = await sandbox.beginPhase(phaseInfo());
    process.kill(pid, "SIGSTOP");
    let answer: ReturnType<typeof runIn>;
    try {
      answer = runIn(phase, "storage.n = (storage.n ?? 0) + 1", { storage: { n: 1 } });
      // Before: the watchdog killed the waiting process and the script failed with `timeout`.
      await sleep(WATCHED_MS + 1000);
    } finally {
      process.kill(pid, "SIGCONT");
    }
    const out = ok(await answer);
    assert.deepEqual(out.storage, { n: 2 });
    const next = ok(await runIn(phase, BUSY, { storage: out.storage }));
    await phase.end();
    assert.deepEqual(next.storage, { n: 3, x: expected() });
    assert.deepEqual(sandbox.processIds(), [pid], "the waiting process was not killed");
  });

  it("a script stopped while it runs is charged only the CPU time it used, and finishes", async () => {
    const pid = await onlyProcess(sandbox);
    const phase = await sandbox.beginPhase(phaseInfo({ tick: 8 }));
    const before = cpuTimeMs(pid);
    assert.notEqual(before, null, "the test reads the process's CPU time from /proc");
    const answer = runIn(phase, BUSY, { storage: { n: 0 } });
    // Stopped once the script is running (the process has used CPU time for it), for longer than
    // the call's wall limit and the whole phase budget.
    while ((cpuTimeMs(pid) ?? 0) - (before as number) < 20) await sleep(1);
    await stopFor(pid, WATCHED_MS + 1000);
    const out = ok(await answer);
    await phase.end();
    assert.deepEqual(out.storage, { n: 1, x: expected() });
    // Its CPU time, not the wait: the stop alone was longer than the budget.
    assert.ok(out.elapsedMs < PHASE_BUDGET_MS, `charged ${out.elapsedMs} ms`);
  });

  it("a machine stuck past the phase's wall-clock ceiling is the machine's failure, `stalled`, not the script's", async () => {
    const stuck = createSandbox({ stallCeilingMs: 1500 });
    try {
      const pid = await onlyProcess(stuck);
      const phase = await stuck.beginPhase(phaseInfo());
      const stop = stopFor(pid, 3000);
      const out = failure(await runIn(phase, "storage.n = 1"));
      assert.equal(out.failure, "stalled");
      assert.match(out.message, /machine was too busy.*not the script's fault/);
      // The phase's later scripts are not run; they are not charged to any budget either.
      const later = failure(await runIn(phase, "storage.n = 2"));
      assert.equal(later.failure, "stalled");
      await phase.end();
      await stop;
      // The machine is back: the next phase runs (in a new process: the stuck one was ended).
      const next = await stuck.beginPhase(phaseInfo({ tick: 9 }));
      assert.deepEqual(ok(await runIn(next, "storage.n = 3")).storage, { n: 3 });
      await next.end();
    } finally {
      await stuck.close();
    }
  });
});
