import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { restoreSession } from "../../src/engine/session.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import { STORAGE_MAX_CHARS, VALUE_MAX_DEPTH } from "../../src/sandbox/protocol.ts";
import { StorageMirror } from "../../src/sandbox/storage-sync.ts";
import { DataAi, onlyTriggers, say, start, worldWith } from "../engine/helpers.ts";
import { failure, ok, phaseInfo, runIn, runOne } from "./support.ts";

/** Issue 15 items 1 and 4: storage bounded in depth and size at the sandbox boundary, sent as deltas. */

const sandbox = createSandbox();
after(() => sandbox.close());

/** A script building `{ a: { a: ... } }` with `levels` objects and storing it at `target`. */
function nest(levels: number, target = "storage.deep"): string {
  return `let o = {}, c = o; for (let i = 1; i < ${levels}; i++) { c.a = {}; c = c.a } ${target} = o;`;
}

function depthOf(value: unknown): number {
  let depth = 0;
  let current = value;
  while (current !== null && typeof current === "object") {
    depth++;
    current = (current as { a?: unknown }).a;
  }
  return depth;
}

describe("storage depth", () => {
  it("a value nested exactly to the limit is kept", async () => {
    const out = ok(await runOne(sandbox, nest(VALUE_MAX_DEPTH)));
    assert.equal(out.storageRejected, false);
    assert.equal(depthOf(out.storage.deep), VALUE_MAX_DEPTH);
  });

  it("one level more is refused: the phase's storage writes revert, with the limit named", async () => {
    const out = ok(
      await runOne(sandbox, `storage.n = 1; ${nest(VALUE_MAX_DEPTH + 1)}`, { storage: { was: 1 } }),
    );
    assert.equal(out.storageRejected, true);
    assert.deepEqual(out.storage, { was: 1 });
    assert.equal(
      out.storageProblem,
      `storage.deep is nested deeper than ${VALUE_MAX_DEPTH} levels, the limit for values a script hands back`,
    );
  });

  it("an effect or a trigger map nested too deep fails the script, naming the limit", async () => {
    const effect = failure(
      await runOne(sandbox, nest(VALUE_MAX_DEPTH + 1, "effects[0] = { type: 'x' }; effects[0].v")),
    );
    assert.equal(effect.failure, "runtime");
    assert.match(effect.message, /^RangeError: effects\[0\] is nested deeper than 64 levels/);
    const map = failure(await runOne(sandbox, nest(VALUE_MAX_DEPTH + 5, "triggers.watch.deep")));
    assert.match(map.message, /^RangeError: the trigger map is nested deeper than 64 levels/);
  });

  it("the issue's 3000-level write: the turn completes, the failure is logged, the game goes on", async () => {
    const { session } = await start(
      onlyTriggers({
        deep: { conditions: [], recurring: true, script: nest(3000) },
        count: { conditions: [], recurring: true, script: "storage.turns = (storage.turns ?? 0) + 1" },
      }),
      { scripts: sandbox },
    );
    const first = await session.turn(say("look"));
    const second = await session.turn(say("look again"));
    assert.equal(session.state.storage.deep, undefined);
    const refused = [...first.logs, ...second.logs].filter(
      (entry) => entry.type === "trigger-script-error" && /nested deeper than 64 levels/.test(entry.message),
    );
    assert.ok(refused.length >= 2, JSON.stringify(first.logs));
    assert.equal(session.tick, 2);
  });

  it("a save holding the deepest storage a script may write loads back, and plays on", async () => {
    const patch = onlyTriggers({
      deep: {
        conditions: [{ type: "game-tick", operator: "equals", value: 1 }],
        script: `${nest(VALUE_MAX_DEPTH)} storage.list = ${"[".repeat(VALUE_MAX_DEPTH)}1${"]".repeat(VALUE_MAX_DEPTH)};`,
      },
    });
    const { session } = await start(patch, { scripts: sandbox });
    await session.turn(say("look"));
    assert.equal(depthOf(session.state.storage.deep), VALUE_MAX_DEPTH);
    const saved = session.save();
    const restored = await restoreSession(worldWith(patch), saved, { ai: new DataAi(), scripts: sandbox });
    assert.deepEqual(restored.state.storage, session.state.storage);
    await restored.turn(say("onwards"));
    assert.equal(restored.tick, 2);
    assert.equal(restored.save().length > 0, true);
  });
});

describe("storage size", () => {
  it("a script growing storage past its size limit is refused, with the limit named", async () => {
    const out = ok(
      await runOne(sandbox, `storage.big = "x".repeat(${STORAGE_MAX_CHARS})`, { storage: { small: 1 } }),
    );
    assert.equal(out.storageRejected, true);
    assert.deepEqual(out.storage, { small: 1 });
    assert.match(out.storageProblem ?? "", new RegExp(`more than its limit of ${STORAGE_MAX_CHARS}$`));
  });

  it("storage already past the limit may still shrink", async () => {
    const given = { big: "y".repeat(STORAGE_MAX_CHARS + 10), other: 1 };
    const out = ok(
      await runOne(sandbox, "storage.big = storage.big.slice(0, 10); storage.other = 2", { storage: given }),
    );
    assert.equal(out.storageRejected, false);
    assert.deepEqual(out.storage, { big: "y".repeat(10), other: 2 });
  });
});

describe("storage a script does not touch costs it nothing", () => {
  it("untouched values come back as the very objects given (never copied or re-parsed)", async () => {
    const big = { blob: "z".repeat(200_000), list: [1, 2, 3] };
    const phase = await sandbox.beginPhase(phaseInfo());
    try {
      let storage: Record<string, unknown> = { big, n: 0 };
      for (let i = 0; i < 5; i++) {
        const out = ok(await runIn(phase, "storage.n += 1", { storage: storage as never }));
        assert.equal(out.storage.big, big);
        storage = out.storage;
      }
      assert.equal(storage.n, 5);
      const unchanged = ok(await runIn(phase, "const x = storage.n", { storage: storage as never }));
      assert.equal(unchanged.storage, storage);
    } finally {
      await phase.end();
    }
  });

  it("the host sends only the keys whose values changed since the process last saw them", () => {
    const mirror = new StorageMirror();
    const big = { blob: "z".repeat(1000) };
    const first = mirror.delta({ big, n: 1 });
    assert.equal(first.full, true);
    assert.deepEqual(Object.keys(first.set), ["big", "n"]);
    assert.deepEqual(mirror.delta({ big, n: 1 }), { full: false, set: {}, del: [], order: null });
    assert.deepEqual(mirror.delta({ big, n: 2 }), { full: false, set: { n: "2" }, del: [], order: null });
    assert.deepEqual(mirror.delta({ n: 2, big }), { full: false, set: {}, del: [], order: ["n", "big"] });
    assert.deepEqual(mirror.delta({ n: 2 }), { full: false, set: {}, del: ["big"], order: ["n"] });
    mirror.forget();
    assert.equal(mirror.delta({ n: 2 }).full, true);
  });

  it("a session's storage stays with its context from phase to phase; every script sees exactly the storage given", async () => {
    // Sessions take turns on one process, so phases reuse each other's contexts; between phases the
    // caller changes storage (a new value, a deleted key, a new key) as the engine's effects do.
    const look = "storage.seen = JSON.stringify(storage)";
    const big = { pages: Array.from({ length: 50 }, (_, i) => `${i}:${"p".repeat(200)}`) };
    const given: Record<string, Record<string, unknown>> = {
      a: { big, n: 1, gone: true },
      b: { other: "b's own" },
    };
    const plan = ["a", "a", "b", "a", "b", "b", "a"];
    for (let step = 0; step < plan.length; step++) {
      const session = plan[step]!;
      const storage = { ...given[session]! };
      if (session === "a" && step > 0) {
        storage.n = step;
        delete storage.gone;
      }
      if (session === "b" && step > 3) storage.later = [step];
      const phase = await sandbox.beginPhase(phaseInfo({ sessionId: session, tick: step }));
      try {
        const out = ok(await runIn(phase, look, { storage: storage as never }));
        assert.deepEqual(JSON.parse(out.storage.seen as string), storage, `step ${step} (${session})`);
        // The next script of the phase sees what the first left.
        const again = ok(await runIn(phase, look, { storage: out.storage }));
        const { seen: _, ...rest } = JSON.parse(again.storage.seen as string);
        assert.deepEqual(rest, storage, `step ${step} (${session}), second script`);
      } finally {
        await phase.end();
      }
    }
  });

  it("two open phases of one session id each see their own storage", async () => {
    const one = await sandbox.beginPhase(phaseInfo({ sessionId: "twin" }));
    const two = await sandbox.beginPhase(phaseInfo({ sessionId: "twin" }));
    try {
      let left: Record<string, unknown> = { side: "one", n: 1 };
      let right: Record<string, unknown> = { side: "two", n: 100 };
      for (let i = 0; i < 4; i++) {
        const a = ok(
          await runIn(one, "storage.n += 1; storage.saw = storage.side", { storage: left as never }),
        );
        const b = ok(
          await runIn(two, "storage.n += 1; storage.saw = storage.side", { storage: right as never }),
        );
        assert.deepEqual(a.storage, { side: "one", n: 2 + i, saw: "one" });
        assert.deepEqual(b.storage, { side: "two", n: 101 + i, saw: "two" });
        left = a.storage;
        right = b.storage;
      }
    } finally {
      await one.end();
      await two.end();
    }
  });

  it("key order, deletions and a __proto__ key survive the delta round trip", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    try {
      const given = JSON.parse('{"a":1,"__proto__":{"p":1},"b":2}');
      const out = ok(
        await runIn(phase, "delete storage.a; storage.c = 3; storage.a = 4", { storage: given }),
      );
      assert.deepEqual(Object.keys(out.storage), ["__proto__", "b", "c", "a"]);
      assert.ok(Object.hasOwn(out.storage, "__proto__"));
      const next = ok(
        await runIn(phase, "storage.seen = Object.keys(storage).join()", { storage: out.storage }),
      );
      assert.equal(next.storage.seen, "__proto__,b,c,a");
    } finally {
      await phase.end();
    }
  });
});
