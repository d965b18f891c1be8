import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Json, JsonObject } from "../../src/engine/ports.ts";
import { DataRunner, onlyTriggers, type ScriptBehaviour, say, start } from "./helpers.ts";

const tick1 = { type: "game-tick", operator: "equals", value: 1 };
const atTick1 = (more: Record<string, unknown>) => ({ conditions: [tick1], script: "log('hi');", ...more });
const write = (key: string, value: number) => ({ type: "write-number", key, operator: "set", value });

async function withScripts(
  triggers: Record<string, Record<string, unknown>>,
  behaviours: Record<string, ScriptBehaviour>,
) {
  const runner = new DataRunner(behaviours);
  const { session, ai } = await start(onlyTriggers(triggers), { scripts: runner });
  return { session, runner, ai };
}

describe("spec 4 script globals as the engine sees them", () => {
  test("the script runs after the conditions pass, before the effects; effects are pre-filled and may be replaced", async () => {
    const { session, runner } = await withScripts(
      { t: atTick1({ effects: [write("typed", 1)] }) },
      { t: (call) => ({ effects: [...call.effects, write("pushed", 2)] }) },
    );
    const r = await session.turn(say("x"));
    assert.deepEqual(runner.calls[0]!.effects, [write("typed", 1)]);
    assert.deepEqual(session.state.storage, { typed: 1, pushed: 2 });
    assert.deepEqual(
      r.trace.phases[1]!.triggers[0]!.effects.map((e) => [e.source, e.status]),
      [
        ["script", "applied"],
        ["script", "applied"],
      ],
    );
    assert.equal(r.trace.phases[1]!.triggers[0]!.script!.status, "ran");
  });
  test("script effects are read back through parseEffect and capped at 5 valid ones", async () => {
    const many = [1, 2, 3, 4, 5, 6].map((n) => write(`k${n}`, n));
    const { session } = await withScripts(
      { t: atTick1({}) },
      { t: () => ({ effects: [{ type: "nope" }, ...many] as Json[] }) },
    );
    const r = await session.turn(say("x"));
    const effects = r.trace.phases[1]!.triggers[0]!.effects;
    assert.deepEqual(
      effects.map((e) => e.reason ?? e.status),
      ["malformed", "applied", "applied", "applied", "applied", "applied", "over the cap"],
    );
    assert.equal(session.state.storage.k6, undefined);
  });
  test("the call carries a fresh snapshot, a storage copy, the trigger map and the version info", async () => {
    const { session, runner } = await withScripts({ t: atTick1({}) }, {});
    await session.turn(say("x"));
    const call = runner.calls[0]!;
    assert.equal(call.snapshot.tick, 1);
    assert.equal(call.snapshot.storyText, "Story of tick 1.");
    assert.deepEqual(call.snapshot.actions, ["x"]);
    assert.deepEqual(Object.keys(call.triggers), ["t"]);
    assert.equal(call.engineVersion, 33);
    assert.match(call.semanticVersion, /^\d+\.\d+\.\d+$/);
    const info = runner.phases[0]!;
    assert.deepEqual(
      { phase: info.phase, tick: info.tick, seed: info.seed },
      { phase: "state", tick: 1, seed: 0 },
    );
    assert.equal(info.sessionId, session.state.sessionId);
    assert.equal(info.triggerSetBytes, JSON.stringify(call.triggers).length);
  });
  test("one beginPhase per phase that has scripts, ended at the end of the phase", async () => {
    const { session, runner } = await withScripts(
      {
        plan: {
          conditions: [{ type: "action-text", operator: "contains", value: "" }],
          script: "x;",
          recurring: true,
        },
        a: { script: "x;", recurring: true },
        b: { script: "y;", recurring: true },
      },
      {},
    );
    assert.equal(runner.phases.length, 1, "tick 0: the state phase");
    await session.turn(say("x"));
    assert.deepEqual(
      runner.phases.map((p) => `${p.tick}:${p.phase}`),
      ["0:state", "1:planning", "1:state"],
    );
    assert.equal(runner.ended, 3);
    assert.equal(runner.calls.length, 2 + 3);
  });
  test("no beginPhase when no firing trigger has a script", async () => {
    const { session, runner } = await withScripts(
      { later: { conditions: [{ type: "game-tick", operator: "equals", value: 9 }], script: "x;" } },
      {},
    );
    await session.turn(say("x"));
    assert.equal(runner.phases.length, 0);
  });
  test("resolutions: later scripts see earlier effects and storage writes (snapshot taken before each script)", async () => {
    const { session, runner } = await withScripts(
      {
        first: atTick1({ effects: [{ type: "party-location", operator: "set", value: "Fen Hut" }] }),
        second: atTick1({}),
      },
      { first: (call) => ({ storage: { ...call.storage, seen: 1 } }) },
    );
    await session.turn(say("x"));
    const second = runner.calls[1]!;
    assert.equal(second.snapshot.position.location, "Fen Hut");
    assert.deepEqual(second.storage, { seen: 1 });
  });
  test("script log output goes to the log, prefixed with the trigger name", async () => {
    const { session } = await withScripts(
      { t: atTick1({}) },
      {
        t: () => ({
          logs: [
            { level: "log", message: "hello" },
            { level: "warn", message: "careful" },
          ],
        }),
      },
    );
    const r = await session.turn(say("x"));
    assert.deepEqual(
      r.logs.map((l) => [l.type, l.trigger, l.message]),
      [
        ["script-log", "t", "t: hello"],
        ["script-log", "t", "t: [warn] careful"],
      ],
    );
  });
});

describe("spec 3 lifecycle: script skip", () => {
  test("skip = true: no effects, not consumed, evaluated again next turn; the script's storage and trigger edits persist", async () => {
    let skip = true;
    const { session } = await withScripts(
      {
        gate: {
          conditions: [{ type: "game-tick", operator: "greaterThan", value: 0 }],
          script: "skip = true;",
          effects: [write("opened", 1)],
        },
      },
      {
        gate: (call) => ({
          skip,
          storage: { ...call.storage, tries: ((call.storage.tries as number) ?? 0) + 1 },
          triggers: { ...call.triggers, extra: { name: "extra", conditions: [], effects: [] } } as JsonObject,
        }),
      },
    );
    const r = await session.turn(say("x"));
    const trace = r.trace.phases[1]!.triggers[0]!;
    assert.equal(trace.fired, false);
    assert.equal(trace.script!.setSkip, true);
    assert.deepEqual(
      trace.effects.map((e) => e.reason),
      ["skip"],
    );
    assert.deepEqual(r.fired, []);
    assert.deepEqual(session.state.consumed, {});
    assert.deepEqual(session.state.storage, { tries: 1 });
    assert.deepEqual(session.state.triggerEdits.added, ["extra"]);
    skip = false;
    const again = await session.turn(say("y"));
    assert.deepEqual(again.fired, ["gate", "extra"]);
    assert.deepEqual(session.state.storage, { tries: 2, opened: 1 });
  });
});

describe("spec 7 script failures (engine rows)", () => {
  for (const failure of ["syntax", "runtime", "timeout"] as const) {
    test(`${failure}: logged as trigger-script-error with line and column; storage and trigger edits discarded; typed effects apply`, async () => {
      const { session } = await withScripts(
        { bad: atTick1({ effects: [write("typed", 1)] }) },
        { bad: () => ({ status: "error", failure, message: "x is not defined", line: 3, column: 7 }) },
      );
      const r = await session.turn(say("x"));
      const trace = r.trace.phases[1]!.triggers[0]!;
      assert.equal(trace.script!.status, failure === "timeout" ? "timeout" : "error");
      assert.deepEqual([trace.script!.line, trace.script!.column], [3, 7]);
      assert.deepEqual(session.state.storage, { typed: 1 });
      assert.equal(r.logs.length, 1);
      assert.equal(r.logs[0]!.type, "trigger-script-error");
      assert.equal(r.logs[0]!.trigger, "bad");
      assert.match(r.logs[0]!.message, /line 3, column 7: x is not defined/);
      assert.deepEqual(session.state.consumed, { bad: 1 }, "the trigger still fired");
    });
  }
  test("budget: the script is killed and its changes discarded; later scripts of the phase are skipped; their typed effects apply", async () => {
    const { session, runner } = await withScripts(
      { slow: atTick1({ effects: [write("slow", 1)] }), next: atTick1({ effects: [write("next", 1)] }) },
      {
        slow: () => ({
          status: "error",
          failure: "budget",
          message: "phase budget exceeded",
          line: 9,
          column: 1,
        }),
      },
    );
    const r = await session.turn(say("x"));
    const [slow, next] = r.trace.phases[1]!.triggers;
    assert.equal(slow!.script!.status, "budget");
    assert.equal(next!.script!.status, "budget");
    assert.match(next!.script!.reason!, /budget is used up/);
    assert.equal(runner.calls.length, 1, "the later script never ran");
    assert.deepEqual(session.state.storage, { slow: 1, next: 1 });
    assert.equal(r.trace.phases[1]!.scripts.budgetExhausted, true);
  });
  test("memory: terminated for the rest of the phase; later scripts are skipped, typed effects apply", async () => {
    const { session, runner } = await withScripts(
      { hog: atTick1({}), next: atTick1({ effects: [write("next", 1)] }) },
      {
        hog: () => ({ status: "error", failure: "memory", message: "heap limit", line: null, column: null }),
      },
    );
    const r = await session.turn(say("x"));
    assert.equal(r.trace.phases[1]!.triggers[0]!.script!.status, "memory");
    assert.equal(r.trace.phases[1]!.triggers[1]!.script!.status, "skipped");
    assert.equal(runner.calls.length, 1);
    assert.deepEqual(session.state.storage, { next: 1 });
  });
  test("the planning and state phases have independent budgets", async () => {
    const { session, runner } = await withScripts(
      {
        plan: { conditions: [{ type: "action-text", operator: "contains", value: "" }], script: "x;" },
        late: atTick1({}),
      },
      { plan: () => ({ status: "error", failure: "budget", message: "over", line: 1, column: 1 }) },
    );
    const r = await session.turn(say("x"));
    assert.equal(r.trace.phases[1]!.triggers[0]!.script!.status, "ran");
    assert.equal(runner.calls.length, 2);
  });
  test("spec 4: a BigInt or circular storage value rejects the phase's storage writes and reverts to the state before the phase", async () => {
    const { session } = await withScripts(
      {
        early: atTick1({ effects: [write("effect", 1)] }),
        bigint: atTick1({}),
        later: atTick1({ effects: [write("later", 1)] }),
      },
      {
        early: (call) => ({ storage: { ...call.storage, early: 1 } }),
        bigint: (call) => ({ storage: { ...call.storage, big: "x" }, storageRejected: true }),
      },
    );
    await session.turn(say("x"));
    // Pre-phase storage was empty: every write of the state phase is rejected.
    assert.deepEqual(session.state.storage, {});
  });
  test("with no ScriptRunner configured the script is skipped with a logged notice and the typed effects apply", async () => {
    const { session } = await start(onlyTriggers({ t: atTick1({ effects: [write("typed", 1)] }) }));
    const r = await session.turn(say("x"));
    assert.equal(r.trace.phases[1]!.triggers[0]!.script!.status, "skipped");
    assert.equal(r.logs[0]!.type, "notice");
    assert.match(r.logs[0]!.message, /No script runner/);
    assert.deepEqual(session.state.storage, { typed: 1 });
    assert.deepEqual(session.state.consumed, { t: 1 });
  });
  test("a runner that throws is treated as a runtime error; one that cannot begin a phase skips its scripts", async () => {
    const { session } = await withScripts(
      { t: atTick1({ effects: [write("typed", 1)] }) },
      {
        t: () => {
          throw new Error("isolate crashed");
        },
      },
    );
    const r = await session.turn(say("x"));
    assert.equal(r.trace.phases[1]!.triggers[0]!.script!.status, "error");
    assert.match(r.logs[0]!.message, /isolate crashed/);
    assert.deepEqual(session.state.storage, { typed: 1 });
    const broken = new DataRunner({});
    broken.beginPhase = async () => {
      throw new Error("no isolate");
    };
    const other = await start(onlyTriggers({ t: atTick1({ effects: [write("typed", 1)] }) }), {
      scripts: broken,
    });
    const r2 = await other.session.turn(say("x"));
    assert.equal(r2.trace.phases[1]!.triggers[0]!.script!.status, "skipped");
    assert.deepEqual(other.session.state.storage, { typed: 1 });
  });
});

describe("resolutions: script edits of the trigger map", () => {
  const victim = {
    victim: {
      recurring: true,
      effects: [{ type: "write-number", key: "victim", operator: "add", value: 1 }],
    },
  };
  test("delete triggers[key] takes effect next turn", async () => {
    const { session } = await withScripts(
      { editor: atTick1({}), ...victim },
      {
        editor: (call) => {
          const { victim: _gone, ...rest } = call.triggers;
          return { triggers: rest };
        },
      },
    );
    const r = await session.turn(say("x"));
    assert.deepEqual(r.fired, ["editor", "victim"], "still fires this turn");
    assert.equal(r.trace.phases[1]!.edits.status, "kept");
    assert.deepEqual(r.trace.phases[1]!.edits.changed, ["victim"]);
    assert.deepEqual(session.state.triggerEdits, { overrides: {}, deleted: ["victim"], added: [] });
    const next = await session.turn(say("y"));
    assert.deepEqual(next.fired, []);
    assert.equal(session.state.storage.victim, 2, "tick 0 and tick 1");
  });
  test("an added or modified trigger is live from the next turn; edits kept in planning are visible to state-phase scripts", async () => {
    const { session, runner } = await withScripts(
      {
        plan: { conditions: [{ type: "action-text", operator: "contains", value: "go" }], script: "x;" },
        watcher: atTick1({}),
      },
      {
        plan: (call) => ({
          triggers: {
            ...call.triggers,
            added: { name: "added", recurring: true, conditions: [], effects: [write("added", 1)] },
          } as JsonObject,
        }),
      },
    );
    const r = await session.turn(say("go"));
    assert.deepEqual(r.fired, ["plan", "watcher"]);
    assert.ok("added" in runner.calls[1]!.triggers, "the state phase's script sees the kept planning edit");
    assert.deepEqual((await session.turn(say("stay"))).fired, ["added"]);
  });
  test("edits are validated at the end of the phase: any error discards ALL of the phase's edits, with a trigger-script-error", async () => {
    const { session } = await withScripts(
      { good: atTick1({}), bad: atTick1({}), ...victim },
      {
        good: (call) => ({
          triggers: { ...call.triggers, fine: { name: "fine", conditions: [], effects: [] } } as JsonObject,
        }),
        bad: (call) => ({
          triggers: {
            ...call.triggers,
            broken: {
              name: "broken",
              conditions: [{ type: "game-tick", operator: "greaterThanOrEqualTo", value: 1 }],
              effects: [],
            },
          } as JsonObject,
        }),
      },
    );
    const r = await session.turn(say("x"));
    const edits = r.trace.phases[1]!.edits;
    assert.equal(edits.status, "discarded");
    assert.ok(
      edits.problems.some((p) => p.includes("greaterThanOrEqualTo")),
      edits.problems.join("\n"),
    );
    assert.deepEqual(session.state.triggerEdits, { overrides: {}, deleted: [], added: [] });
    const log = r.logs.find((l) => l.type === "trigger-script-error")!;
    assert.match(log.message, /discarded/);
  });
  test("a script that changes a story/action query clears that condition's embeddingId", async () => {
    const { session } = await withScripts(
      {
        editor: atTick1({}),
        asks: { conditions: [{ type: "story", query: "old question", embeddingId: "e1" }], effects: [] },
        keeps: { conditions: [{ type: "story", query: "same", embeddingId: "e2" }], effects: [] },
      },
      {
        editor: (call) => {
          const triggers = structuredClone(call.triggers) as Record<
            string,
            { conditions: Record<string, unknown>[] }
          >;
          triggers.asks!.conditions[0]!.query = "new question";
          triggers.keeps!.conditions.push({ type: "game-tick", operator: "greaterThan", value: 0 });
          return { triggers: triggers as unknown as JsonObject };
        },
      },
    );
    await session.turn(say("x"));
    const overrides = session.state.triggerEdits.overrides as Record<
      string,
      { conditions: Record<string, unknown>[] }
    >;
    assert.deepEqual(overrides.asks!.conditions[0], { type: "story", query: "new question" });
    assert.equal(overrides.keeps!.conditions[0]!.embeddingId, "e2");
  });
  test("a failed script's trigger edits are discarded, an earlier script's kept", async () => {
    const { session } = await withScripts(
      { good: atTick1({}), bad: atTick1({}) },
      {
        good: (call) => ({
          triggers: { ...call.triggers, fine: { name: "fine", conditions: [], effects: [] } } as JsonObject,
        }),
        bad: () => ({ status: "error", failure: "runtime", message: "oops" }),
      },
    );
    await session.turn(say("x"));
    assert.deepEqual(session.state.triggerEdits.added, ["fine"]);
  });
  test("the AI ports are unaffected by scripts: a turn with scripts still makes 2 AI calls", async () => {
    const { session } = await withScripts({ t: atTick1({}) }, {});
    const r = await session.turn(say("x"));
    assert.equal(r.trace.aiCalls.total, 2);
  });
});

test("scripts receive copies: a runner mutating its inputs cannot change the session", async () => {
  const { session } = await withScripts(
    { t: atTick1({}) },
    {
      t: (call) => {
        (call.storage as Record<string, unknown>).sneaky = 1;
        (call.snapshot.characters[0] as { level: number }).level = 99;
        return { storage: {} };
      },
    },
  );
  await session.turn(say("x"));
  assert.deepEqual(session.state.storage, {});
  assert.equal(session.state.party[0]!.level, 1);
});
