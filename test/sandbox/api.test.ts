import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { after, describe, it } from "node:test";
import fc from "fast-check";
import { scriptCheck } from "../../src/engine/conditions/evaluate.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import {
  LOG_CAP_BYTES,
  memoryLimitMb,
  PHASE_WALL_CEILING_MS,
  wallLimitMs,
} from "../../src/sandbox/protocol.ts";
import { ok, phaseInfo, runIn, runOne, SNAPSHOT } from "./support.ts";

const sandbox = createSandbox();
after(() => sandbox.close());

describe("sandbox globals (spec 4)", () => {
  it("check() answers like the engine's scriptCheck, with and without operator", async () => {
    const conditions = [
      { type: "game-tick" },
      { type: "game-tick", operator: "greaterThan", value: 5 },
      { type: "player-level" },
      { type: "player-level", operator: "greaterThan", value: 2 },
      { type: "party-location" },
      { type: "story-text", operator: "regex", value: "mill" },
      { type: "read-number", key: "gold" },
      { type: "action-text" },
    ];
    const out = ok(
      await runOne(
        sandbox,
        `storage.answers = ${JSON.stringify(conditions)}.map((c) => check(c) ?? "undef");`,
        {
          storage: { gold: 12 },
        },
      ),
    );
    const expected = conditions.map((c) => scriptCheck(c, SNAPSHOT, { gold: 12 }) ?? "undef");
    assert.deepEqual(out.storage.answers, expected);
    assert.deepEqual(expected.slice(0, 3), [7, true, { Wren: 3, Ada: 1 }]);
  });

  it("check() reads storage as the script changed it", async () => {
    const out = ok(
      await runOne(sandbox, `storage.n = 5; storage.read = check({ type: "read-number", key: "n" });`),
    );
    assert.equal(out.storage.read, 5);
  });

  it("storage survives a JSON round trip by the spec's rules", async () => {
    const out = ok(
      await runOne(
        sandbox,
        `storage.s = "x"; storage.n = 1.5; storage.b = true; storage.z = null; storage.arr = [1, [2]]; storage.o = { p: { q: 1 } };
         storage.d = new Date(Date.UTC(2020, 0, 2)); storage.re = /a/g; storage.m = new Map([[1, 2]]); storage.set = new Set([1]);
         storage.ta = new Uint8Array([1, 2]); storage.f = () => 1; storage.sym = Symbol("s"); storage.nan = NaN; storage.inf = -Infinity;
         storage.list = [() => 1, Symbol("x"), NaN]; storage[Symbol("k")] = 1; storage.u = undefined;`,
        { storage: { kept: "yes" } },
      ),
    );
    assert.deepEqual(out.storage, {
      kept: "yes",
      s: "x",
      n: 1.5,
      b: true,
      z: null,
      arr: [1, [2]],
      o: { p: { q: 1 } },
      d: "2020-01-02T00:00:00.000Z",
      re: {},
      m: {},
      set: {},
      ta: {},
      nan: null,
      inf: null,
      list: [null, null, null],
    });
    assert.equal(out.storageRejected, false);
  });

  it("any JSON value in storage round-trips as JSON does", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        const given = JSON.parse(JSON.stringify({ v: value }));
        const out = ok(await runOne(sandbox, "storage.w = storage.v", { storage: given }));
        assert.deepEqual(out.storage, { ...given, w: given.v });
        assert.equal(out.storageRejected, false);
      }),
      { numRuns: 40 },
    );
  });

  it("a BigInt or a circular value rejects the storage writes", async () => {
    for (const script of ["storage.big = 10n", "storage.self = storage", "storage.deep = { x: [1n] }"]) {
      const out = ok(await runOne(sandbox, script, { storage: { before: 1 } }));
      assert.equal(out.storageRejected, true, script);
      assert.deepEqual(out.storage, { before: 1 }, script);
    }
  });

  it("storage reassigned to a non-object is reset to {}", async () => {
    for (const script of [
      "storage = 5",
      "storage = null",
      "storage = [1, 2]",
      'storage = "text"',
      "delete globalThis.storage",
    ]) {
      const out = ok(await runOne(sandbox, script, { storage: { before: 1 } }));
      assert.deepEqual(out.storage, {}, script);
    }
    const replaced = ok(await runOne(sandbox, "storage = { fresh: true }", { storage: { before: 1 } }));
    assert.deepEqual(replaced.storage, { fresh: true });
  });

  it("effects can be pushed, replaced and truncated; non-JSON elements drop", async () => {
    const pre = [{ type: "a" }, { type: "b" }];
    assert.deepEqual(ok(await runOne(sandbox, 'effects.push({ type: "c" })', { effects: pre })).effects, [
      ...pre,
      { type: "c" },
    ]);
    assert.deepEqual(ok(await runOne(sandbox, 'effects = [{ type: "z" }]', { effects: pre })).effects, [
      { type: "z" },
    ]);
    assert.deepEqual(ok(await runOne(sandbox, "effects.length = 1", { effects: pre })).effects, [
      { type: "a" },
    ]);
    assert.deepEqual(ok(await runOne(sandbox, "effects = 3", { effects: pre })).effects, []);
    assert.deepEqual(ok(await runOne(sandbox, "effects.push(1n, () => 1, { type: 'k' })")).effects, [
      { type: "k" },
    ]);
  });

  it("skip starts false and counts only when set to true", async () => {
    assert.equal(ok(await runOne(sandbox, "storage.was = skip")).storage.was, false);
    assert.equal(ok(await runOne(sandbox, "skip = true")).skip, true);
    for (const script of ["skip = 1", 'skip = "true"', "skip = {}"]) {
      assert.equal(ok(await runOne(sandbox, script)).skip, false, script);
    }
  });

  it("triggers come back only when the script changed them", async () => {
    const triggers = { watch: { name: "watch", n: 1 }, other: { name: "other" } };
    assert.equal(
      ok(await runOne(sandbox, "storage.names = Object.keys(triggers)", { triggers })).triggers,
      null,
    );
    const edited = ok(await runOne(sandbox, "triggers.watch.n = 2; delete triggers.other", { triggers }));
    assert.deepEqual(edited.triggers, { watch: { name: "watch", n: 2 } });
    const added = ok(await runOne(sandbox, 'triggers.fresh = { name: "fresh" }', { triggers }));
    assert.deepEqual(added.triggers, { ...triggers, fresh: { name: "fresh" } });
    assert.equal(ok(await runOne(sandbox, "triggers.watch.n = 1", { triggers })).triggers, null);
    assert.equal(ok(await runOne(sandbox, "triggers = 5", { triggers })).triggers, null);
  });

  it("info carries the versions", async () => {
    const out = ok(await runOne(sandbox, "storage.info = info"));
    assert.deepEqual(out.storage.info, { engineVersion: 33, semanticVersion: "33.0.0" });
  });

  it("log and console.* are captured with their level", async () => {
    const out = ok(
      await runOne(
        sandbox,
        'log("a", 1, { b: 2 }); console.log("l"); console.info("i"); console.warn("w"); console.error("e");',
      ),
    );
    assert.deepEqual(out.logs, [
      { level: "log", message: 'a 1 {"b":2}' },
      { level: "log", message: "l" },
      { level: "info", message: "i" },
      { level: "warn", message: "w" },
      { level: "error", message: "e" },
    ]);
  });

  it("logs are capped per phase, then one truncation notice", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    const first = ok(await runIn(phase, 'for (let i = 0; i < 1000; i++) log("x".repeat(100))'));
    const second = ok(await runIn(phase, 'log("after")'));
    await phase.end();
    const kept = first.logs.slice(0, -1);
    assert.equal(kept.length, Math.floor(LOG_CAP_BYTES / 100));
    assert.match(first.logs.at(-1)?.message ?? "", /truncated/);
    assert.deepEqual(second.logs, []);
    const fresh = ok(await runOne(sandbox, 'log("new phase")'));
    assert.deepEqual(fresh.logs, [{ level: "log", message: "new phase" }]);
  });

  it("Math.random and Date are fixed by seed, tick and trigger", async () => {
    const script =
      "storage.r = [Math.random(), Math.random()]; storage.now = Date.now(); storage.d = new Date().toISOString();";
    const a = ok(await runOne(sandbox, script));
    const b = ok(await runOne(sandbox, script));
    const other = ok(await runOne(sandbox, script, { trigger: "other" }));
    const later = ok(await runOne(sandbox, script, {}, { tick: 8 }));
    assert.deepEqual(a.storage, b.storage);
    assert.notDeepEqual(a.storage.r, other.storage.r);
    assert.equal(a.storage.now, Date.UTC(2000, 0, 1) + 7 * 60_000);
    assert.equal(a.storage.d, "2000-01-01T00:07:00.000Z");
    assert.equal(later.storage.now, Date.UTC(2000, 0, 1) + 8 * 60_000);
    for (const r of a.storage.r as number[]) assert.ok(r >= 0 && r < 1);
  });

  it("a call's wall limit is the CPU budget left with a margin, doubled per retry, never past the phase's ceiling", () => {
    const account = {
      info: phaseInfo(),
      cpuMs: 100,
      wallMs: 0,
      ceilingMs: PHASE_WALL_CEILING_MS,
      logBytes: 0,
      attempt: 0,
    };
    // A script on a whole core uses the 400 ms it has left before its wall limit hits.
    assert.equal(wallLimitMs(account), 520);
    assert.equal(wallLimitMs({ ...account, attempt: 2 }), 2080);
    assert.equal(wallLimitMs({ ...account, attempt: 7 }), PHASE_WALL_CEILING_MS);
    assert.equal(wallLimitMs({ ...account, attempt: 5, wallMs: PHASE_WALL_CEILING_MS - 10 }), 10);
    assert.equal(wallLimitMs({ ...account, attempt: 5, ceilingMs: 3000, wallMs: 2000 }), 1000);
    assert.equal(wallLimitMs({ ...account, cpuMs: 500 }), 0);
  });

  it("the memory limit grows with the trigger set", () => {
    assert.equal(memoryLimitMb(0), 16);
    assert.equal(memoryLimitMb(1024 * 1024), 20);
    assert.equal(memoryLimitMb(5_000_000), 16 + Math.ceil(20_000_000 / 1_048_576));
  });

  it("100 scripts of one phase run within the budget and see nothing of each other", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    let storage = { count: 0 };
    for (let i = 0; i < 100; i++) {
      const out = ok(
        await runIn(phase, "storage.count += 1; storage.leak = typeof leaked; var leaked = 1;", { storage }),
      );
      assert.equal(out.storage.leak, "undefined");
      storage = { count: out.storage.count as number };
    }
    await phase.end();
    assert.equal(storage.count, 100);
  });

  it("built-in globals cannot be deleted or redeclared as functions; assigning one lasts only for its script", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    const deleted = ok(await runIn(phase, "storage.gone = delete Map; storage.kind = typeof Map;"));
    assert.deepEqual(deleted.storage, { gone: false, kind: "function" });
    const declared = await runIn(phase, "function Map() {} storage.ran = true;");
    assert.equal(declared.status, "error");
    assert.match(JSON.stringify(declared), /TypeError/);
    const assigned = ok(await runIn(phase, 'Map = 1; var JSON = "mine"; storage.seen = [Map, JSON];'));
    assert.deepEqual(assigned.storage, { seen: [1, "mine"] });
    // The next script of the phase sees the real ones again.
    const next = ok(await runIn(phase, "storage.kinds = [typeof Map, typeof JSON.parse, typeof parseInt];"));
    assert.deepEqual(next.storage, { kinds: ["function", "function", "function"] });
    await phase.end();
  });
});

/** The live child processes of this test process (Linux /proc; a zombie is not live). */
function livePids(): Set<number> {
  const out = new Set<number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited while listed
    }
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ")".
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(ppid) === process.pid && state !== "Z") out.add(Number(entry));
  }
  return out;
}

it("warm() starts the child early; close() right after it still leaves no process behind", async () => {
  const before = livePids();
  const early = createSandbox();
  early.warm();
  await early.close();
  // warm()'s start runs on the slot's queue: one turn of the event loop lets it run if it was going to.
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    [...livePids()].filter((pid) => !before.has(pid)),
    [],
    "a process outlived close()",
  );
  const warmed = createSandbox();
  warmed.warm();
  try {
    const phase = await warmed.beginPhase(phaseInfo());
    await phase.end();
    // The path under test: warm() did start a process.
    assert.ok(
      [...livePids()].some((pid) => !before.has(pid)),
      "warm() started no process",
    );
  } finally {
    await warmed.close();
  }
  assert.deepEqual(
    [...livePids()].filter((pid) => !before.has(pid)),
    [],
    "a process outlived close()",
  );
});

describe("the trigger map is sent once per phase, and again when it changes", () => {
  const sandbox = createSandbox();
  after(() => sandbox.close());
  const read = 'storage.keys = Object.keys(triggers).join(",");';

  it("later calls with the same map object see it without it being sent again", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    try {
      const map = { a: { name: "a" }, b: { name: "b" } };
      assert.equal(ok(await runIn(phase, read, { triggers: map })).storage.keys, "a,b");
      assert.equal(ok(await runIn(phase, read, { triggers: map })).storage.keys, "a,b");
      const edited = { ...map, c: { name: "c" } };
      assert.equal(ok(await runIn(phase, read, { triggers: edited })).storage.keys, "a,b,c");
      assert.equal(ok(await runIn(phase, read, { triggers: edited })).storage.keys, "a,b,c");
    } finally {
      await phase.end();
    }
  });

  it("a call that fails before running (a syntax error) still leaves the phase holding its map", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    try {
      const map = { only: { name: "only" } };
      assert.equal((await runIn(phase, "this is not (javascript", { triggers: map })).status, "error");
      assert.equal(ok(await runIn(phase, read, { triggers: map })).storage.keys, "only");
    } finally {
      await phase.end();
    }
  });

  it("phases do not share their maps", async () => {
    const one = await sandbox.beginPhase(phaseInfo());
    const two = await sandbox.beginPhase(phaseInfo({ phase: "planning" }));
    try {
      const map = { x: { name: "x" } };
      assert.equal(ok(await runIn(one, read, { triggers: map })).storage.keys, "x");
      assert.equal(ok(await runIn(two, read, { triggers: map })).storage.keys, "x");
    } finally {
      await one.end();
      await two.end();
    }
  });
});

describe("an ended phase's context keeps its trigger map for the next phase", () => {
  // A sandbox of its own: one context, taken by each phase in turn.
  const sandbox = createSandbox();
  after(() => sandbox.close());
  const read = 'storage.keys = Object.keys(triggers).join(","); storage.n = triggers.a.n; triggers.a.n = 99;';
  const seen = async (triggers: Record<string, { name: string; n: number }>, sessionId: string) => {
    const out = ok(await runOne(sandbox, read, { triggers }, { sessionId }));
    assert.deepEqual(out.triggers, { ...triggers, a: { name: "a", n: 99 } }, "the script's edit is answered");
    return [out.storage.keys, out.storage.n];
  };

  it("copies a current map into the context once, a newer one at once, and no script's edit", async () => {
    const map = { a: { name: "a", n: 1 } };
    assert.deepEqual(await seen(map, "one"), ["a", 1]);
    const entered = sandbox.stats.triggerMapsEntered;
    const opened = sandbox.stats.contextsOpened;
    // The same session, then another session of the same world: the context holds the map already.
    assert.deepEqual(await seen(map, "one"), ["a", 1]);
    assert.deepEqual(await seen(map, "two"), ["a", 1]);
    assert.equal(sandbox.stats.triggerMapsEntered - entered, 0, "the held map is not copied again");
    // A changed map (a new object) is used by the next script, and copied once.
    const changed = { a: { name: "a", n: 2 }, b: { name: "b", n: 0 } };
    assert.deepEqual(await seen(changed, "two"), ["a,b", 2]);
    assert.deepEqual(await seen(changed, "one"), ["a,b", 2]);
    assert.equal(sandbox.stats.triggerMapsEntered - entered, 1);
    // Back to the first map: newer to the process than what the context holds, so copied again.
    assert.deepEqual(await seen(map, "one"), ["a", 1]);
    assert.equal(sandbox.stats.triggerMapsEntered - entered, 2);
    assert.equal(sandbox.stats.contextsOpened - opened, 0, "every phase took the ended one's context");
  });
});

describe("the snapshot's known map crosses when its flags change", () => {
  const sandbox = createSandbox();
  after(() => sandbox.close());
  const read =
    'storage.mill = check({ type: "known-entity", entity: "Old Mill" }); storage.ford = check({ type: "known-entity", entity: "Ford" });';
  const at = (known: Record<string, boolean>) => ({ snapshot: { ...SNAPSHOT, known } });
  const seen = (outcome: Awaited<ReturnType<typeof runIn>>) => {
    const { mill, ford } = ok(outcome).storage;
    return [mill, ford];
  };

  it("each call reads its own snapshot's flags, whether the map crossed again or not", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    try {
      assert.deepEqual(seen(await runIn(phase, read, at({ "Old Mill": true }))), [true, false]);
      // A new object with the same flags: not sent again.
      assert.deepEqual(seen(await runIn(phase, read, at({ "Old Mill": true }))), [true, false]);
      assert.deepEqual(seen(await runIn(phase, read, at({ "Old Mill": false }))), [false, false]);
      assert.deepEqual(seen(await runIn(phase, read, at({ "Old Mill": false, Ford: true }))), [false, true]);
      // The same names in another order are another map.
      assert.deepEqual(seen(await runIn(phase, read, at({ Ford: true, "Old Mill": true }))), [true, true]);
      assert.deepEqual(seen(await runIn(phase, read, at({ "Old Mill": true }))), [true, false]);
    } finally {
      await phase.end();
    }
  });

  it("a call that fails before running still leaves the process holding its map", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    try {
      assert.equal((await runIn(phase, "this is not (javascript", at({ Ford: true }))).status, "error");
      assert.deepEqual(seen(await runIn(phase, read, at({ Ford: true }))), [false, true]);
    } finally {
      await phase.end();
    }
  });

  it("phases and sessions each read their own map, on the same contexts", async () => {
    for (const [session, known, expected] of [
      ["s1", { "Old Mill": true }, [true, false]],
      ["s2", { Ford: true }, [false, true]],
      ["s1", { "Old Mill": true }, [true, false]],
    ] as const) {
      const phase = await sandbox.beginPhase(phaseInfo({ sessionId: session }));
      try {
        assert.deepEqual(seen(await runIn(phase, read, at({ ...known }))), expected);
      } finally {
        await phase.end();
      }
    }
  });

  it("a script cannot change the map the next script reads", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    try {
      const tamper =
        'const levels = check({ type: "player-level" }); levels.Wren = 99; storage.after = check({ type: "known-entity", entity: "Old Mill" });';
      assert.equal(ok(await runIn(phase, tamper, at({ "Old Mill": true }))).storage.after, true);
      assert.deepEqual(seen(await runIn(phase, read, at({ "Old Mill": true }))), [true, false]);
    } finally {
      await phase.end();
    }
  });

  it("a known map holding something other than flags crosses whole with its snapshot", async () => {
    const odd = { snapshot: { ...SNAPSHOT, known: { "Old Mill": 1 } as unknown as Record<string, boolean> } };
    assert.deepEqual(seen(await runOne(sandbox, read, odd)), [false, false]);
    assert.deepEqual(seen(await runOne(sandbox, read, at({ "Old Mill": true }))), [true, false]);
  });
});

describe("the snapshot's long fields cross when their text changes", () => {
  const sandbox = createSandbox();
  after(() => sandbox.close());
  const read =
    'storage.quest = check({ type: "quest-status", questId: "Lost Sheep" }); storage.story = check({ type: "story-text" }); storage.done = check({ type: "quests-completed" }); storage.party = check({ type: "party-location" });';
  const story = (n: number) => `The mill wheel turns, and turns again: ${n}.`;
  const at = (quest: string, n: number, extra: Partial<typeof SNAPSHOT> = {}) => ({
    snapshot: {
      ...SNAPSHOT,
      questStatus: { "Lost Sheep": quest, "Old Road": "active" },
      storyText: story(n),
      ...extra,
    },
  });
  const seen = (outcome: Awaited<ReturnType<typeof runIn>>) => {
    const { quest, story, done, party } = ok(outcome).storage;
    return [quest, story, done, party];
  };

  it("each call reads its own snapshot, whether its fields crossed again or not", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    try {
      const done = SNAPSHOT.questsCompleted;
      assert.deepEqual(seen(await runIn(phase, read, at("active", 1))), [
        "active",
        story(1),
        done,
        "Old Mill",
      ]);
      // New objects with the same text: not sent again.
      assert.deepEqual(seen(await runIn(phase, read, at("active", 1))), [
        "active",
        story(1),
        done,
        "Old Mill",
      ]);
      assert.deepEqual(seen(await runIn(phase, read, at("completed", 1))), [
        "completed",
        story(1),
        done,
        "Old Mill",
      ]);
      assert.deepEqual(seen(await runIn(phase, read, at("completed", 2))), [
        "completed",
        story(2),
        done,
        "Old Mill",
      ]);
      // A field short enough to cross inline this time, then long again.
      const short = at("completed", 2, { storyText: "Rain." });
      assert.deepEqual(seen(await runIn(phase, read, short)), ["completed", "Rain.", done, "Old Mill"]);
      assert.deepEqual(seen(await runIn(phase, read, at("completed", 2))), [
        "completed",
        story(2),
        done,
        "Old Mill",
      ]);
      const moved = at("active", 3, {
        position: { realm: "Vale", region: "Northfield", location: "Ford", area: "Shallows" },
        questsCompleted: ["Lost Sheep", "Broken Fence"],
      });
      assert.deepEqual(seen(await runIn(phase, read, moved)), [
        "active",
        story(3),
        ["Lost Sheep", "Broken Fence"],
        "Ford",
      ]);
    } finally {
      await phase.end();
    }
  });

  it("phases and sessions each read their own fields, on the same contexts", async () => {
    for (const [session, quest, n] of [
      ["s1", "active", 1],
      ["s2", "failed", 2],
      ["s1", "active", 1],
      ["s2", "failed", 2],
    ] as const) {
      const phase = await sandbox.beginPhase(phaseInfo({ sessionId: session }));
      try {
        assert.deepEqual(seen(await runIn(phase, read, at(quest, n)))?.slice(0, 2), [quest, story(n)]);
      } finally {
        await phase.end();
      }
    }
  });

  it("a script cannot change the fields the next script reads", async () => {
    const phase = await sandbox.beginPhase(phaseInfo());
    try {
      const tamper =
        'const done = check({ type: "quests-completed" }); done.push("Forged"); done.length = 0; storage.after = check({ type: "quests-completed" });';
      const long = { questsCompleted: ["Lost Sheep", "Broken Fence", "The Long Road Home"] };
      assert.deepEqual(
        ok(await runIn(phase, tamper, at("active", 1, long))).storage.after,
        long.questsCompleted,
      );
      assert.deepEqual(seen(await runIn(phase, read, at("active", 1, long)))[2], long.questsCompleted);
    } finally {
      await phase.end();
    }
  });

  it("a known map whose flags change crosses as the changed flags, the map staying whole", async () => {
    const names = Array.from({ length: 50 }, (_, i) => `Place ${i}`);
    const map = (on: (i: number) => boolean) => Object.fromEntries(names.map((name, i) => [name, on(i)]));
    const count =
      'let n = 0; for (let i = 0; i < 50; i++) if (check({ type: "known-entity", entity: "Place " + i })) n++; storage.n = n; storage.p7 = check({ type: "known-entity", entity: "Place 7" });';
    const phase = await sandbox.beginPhase(phaseInfo());
    try {
      for (const [on, n, p7] of [
        [(i: number) => i % 2 === 0, 25, false],
        [(i: number) => i % 2 === 0 || i === 7, 26, true],
        [(i: number) => i < 10, 10, true],
        [() => false, 0, false],
      ] as const) {
        const out = ok(await runIn(phase, count, { snapshot: { ...SNAPSHOT, known: map(on) } })).storage;
        assert.deepEqual([out.n, out.p7], [n, p7]);
      }
    } finally {
      await phase.end();
    }
  });
});

describe("a phase's last call ends it in the process (no `end` round trip)", () => {
  const sandbox = createSandbox();
  after(() => sandbox.close());
  const call = (script: string, storage: Record<string, unknown>) => ({
    trigger: "watch",
    script,
    snapshot: SNAPSHOT,
    storage: storage as never,
    effects: [],
    triggers: { watch: { name: "watch" } },
    engineVersion: 33,
    semanticVersion: "33.0.0",
  });
  const info = phaseInfo({ sessionId: "last-hint" });

  it("the last call's phase sends no end, and the next phase takes its reset context", async () => {
    // Warm: the process and a spare context exist.
    await runOne(sandbox, "1", {}, { sessionId: "last-hint" });
    const requests = sandbox.stats.requests;
    const opened = sandbox.stats.contextsOpened;
    const one = await sandbox.beginPhase(info);
    let storage: Record<string, unknown> = { n: 0 };
    for (let i = 0; i < 3; i++) {
      const out = ok(
        await one.run(call("storage.n += 1; var leaked = 1; globalThis.stray = 2;", storage), {
          last: i === 2,
        }),
      );
      storage = out.storage;
    }
    await one.end();
    assert.equal(storage.n, 3);
    const two = await sandbox.beginPhase({ ...info, tick: 8 });
    const seen = ok(
      await two.run(call("storage.seen = [typeof leaked, typeof stray, storage.n];", storage), {
        last: true,
      }),
    );
    await two.end();
    assert.deepEqual(seen.storage.seen, ["undefined", "undefined", 3]);
    assert.equal(sandbox.stats.requests - requests, 4, "one request per script, no end");
    assert.equal(sandbox.stats.contextsOpened - opened, 0, "the next phase took the ended one's context");
  });

  it("a call after a last one still runs, on the storage it is given", async () => {
    const phase = await sandbox.beginPhase({ ...info, tick: 9 });
    try {
      const first = ok(await phase.run(call("storage.a = 1;", { kept: true }), { last: true }));
      assert.deepEqual(first.storage, { kept: true, a: 1 });
      const again = ok(await phase.run(call("storage.b = storage.a + 1;", first.storage), { last: true }));
      assert.deepEqual(again.storage, { kept: true, a: 1, b: 2 });
      const more = ok(await phase.run(call("storage.c = typeof b;", again.storage)));
      assert.deepEqual(more.storage, { kept: true, a: 1, b: 2, c: "undefined" });
    } finally {
      await phase.end();
    }
  });

  it("a last call that fails still ends the phase; the session's next phase runs", async () => {
    const phase = await sandbox.beginPhase({ ...info, tick: 10 });
    const failed = await phase.run(call("this is not (javascript", { x: 1 }), { last: true });
    await phase.end();
    assert.equal(failed.status, "error");
    const next = ok(await runOne(sandbox, "storage.y = storage.x + 1;", { storage: { x: 1 } }, info));
    assert.deepEqual(next.storage, { x: 1, y: 2 });
  });
});
