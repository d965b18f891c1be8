import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import SqliteDatabase from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { AiError } from "../../src/ai/errors.ts";
import { migrations } from "../../src/server/store/migrations.ts";
import { openStore } from "../../src/server/store/open.ts";
import type { Database } from "../../src/server/store/schema.ts";
import { Store } from "../../src/server/store/store.ts";
import { playWith, scratchDir } from "../cli/helpers.ts";
import {
  type Answer,
  assertRefused,
  Client,
  DATABASE_URL,
  dropStore,
  exampleGame,
  freshStore,
  listen,
  offlineNarratorWith,
  playTurn,
  STORE_NAME,
  startChildServer,
  startServer,
  stopServer,
  suiteServer,
} from "./harness.ts";
import { gameRow, worldRow } from "./rows.ts";

/**
 * The story controls over HTTP (issue 33; docs/server.md "Story controls"): a game's steps are a
 * tree; undo, retry, alter, rewind and a branch switch move its head or add a sibling step, on the
 * game's claim, so two requests at once (two clients, two processes) apply once; the transcript, the
 * save and the cassette follow the current branch; the diff compares any two steps.
 */
describe(`server: story controls (${STORE_NAME})`, () => {
  const running = suiteServer();

  async function newGame(url = running.url) {
    const g = await exampleGame(url);
    return { ...g, ann: g.players[0]!, annToken: g.tokens[0]! };
  }

  /** Ann acts; the turn runs (she is the only player): answers the game at its new tick. */
  const play = playTurn;

  const transcript = async (g: { id: string; ann: Client }) =>
    (await g.ann.get(`/games/${g.id}/transcript`)).json.transcript as {
      seq: number;
      tick: number;
      kind: string;
      inputs: { actions?: { player: string; text: string }[] };
      narration: string;
    }[];

  const headOf = async (g: { id: string; ann: Client }) => (await transcript(g)).at(-1)!.seq;

  it("undo takes the last turn back; its action returns to the player, who plays another", async () => {
    const g = await newGame();
    const stream = listen(`${running.url}/games/${g.id}/events`, g.annToken);
    assert.equal(await stream.ready, 200);
    await play(g, "I look around the docks.");
    await play(g, "walk to the Gutted Eel");
    const before = await transcript(g);
    assert.equal(before.length, 3);

    const undone = await g.host.post(`/games/${g.id}/history/undo`, { head: before.at(-1)!.seq });
    assert.equal(undone.status, 200, undone.text);
    assert.equal(undone.json.control, "undo");
    assert.equal(undone.json.tick, 1);
    assert.deepEqual(undone.json.actions, [{ player: "Ann", text: "walk to the Gutted Eel" }]);
    const after = await transcript(g);
    assert.deepEqual(
      after.map((s) => s.seq),
      before.slice(0, 2).map((s) => s.seq),
    );
    assert.equal((await g.host.get(`/games/${g.id}`)).json.tick, 1);
    // Every player's page follows: the event carries the returned actions and the state.
    await stream.until((events) => events.some((e) => e.event === "head-moved"));
    const moved = stream.events.find((e) => e.event === "head-moved")!;
    assert.equal(moved.data.control, "undo");
    assert.deepEqual(moved.data.actions, [{ player: "Ann", text: "walk to the Gutted Eel" }]);
    assert.equal(moved.data.state.tick, 1);
    stream.close();

    // The turn is open again: Ann submits another action for turn 2 and it runs.
    const replayed = await play(g, "I ask the harbourmaster about the fog.");
    assert.equal(replayed.tick, 2);
    const now = await transcript(g);
    assert.equal(now.length, 3);
    assert.deepEqual(now.at(-1)!.inputs.actions, [
      { player: "Ann", text: "I ask the harbourmaster about the fog." },
    ]);
    // The undone step stays in the tree: a branch to switch back to.
    const branches = (await g.host.get(`/games/${g.id}/history/branches`)).json;
    assert.ok(branches.branches.some((b: { tip: number }) => b.tip === before.at(-1)!.seq));
  });

  it("refuses what cannot be done: nothing to undo, a stale head, a player's request, a step not stored", async () => {
    const g = await newGame();
    const opening = await headOf(g);
    assertRefused(
      await g.host.post(`/games/${g.id}/history/undo`),
      409,
      "game/state",
      /no turn to take back/,
    );
    assertRefused(await g.host.post(`/games/${g.id}/history/retry`), 409, "game/state", /not a turn/);
    // Who may is the game's rule (story-votes.test.ts has the rest): here, the host only.
    assert.equal((await g.host.call("PUT", `/games/${g.id}/controls`, { undo: "host" })).status, 200);
    assertRefused(
      await g.ann.post(`/games/${g.id}/history/undo`),
      403,
      "game/control-denied",
      /Only the host may undo/,
    );
    await play(g, "I look around the docks.");
    const stale = await g.host.post(`/games/${g.id}/history/undo`, { head: opening });
    const error = assertRefused(stale, 409, "game/state", /someone else moved it first/);
    assert.equal(error.details.expected, opening);
    assert.equal((await g.host.get(`/games/${g.id}`)).json.tick, 1, "nothing was undone");
    assertRefused(
      await g.host.post(`/games/${g.id}/history/switch`, { branch: 999 }),
      409,
      "game/state",
      /no step 999/,
    );
    assertRefused(
      await g.host.post(`/games/${g.id}/history/rewind`, { tick: 5 }),
      409,
      "game/state",
      /no step at turn 5/,
    );
    assertRefused(
      await g.host.post(`/games/${g.id}/history/rewind`, { tick: 1 }),
      409,
      "game/state",
      /at turn 1 already/,
    );
    assertRefused(
      await g.host.get(`/games/${g.id}/history/diff?a=0&b=999`),
      409,
      "game/state",
      /no step 999/,
    );
    assertRefused(
      await g.host.post(`/games/${g.id}/history/alter`, { text: "" }),
      400,
      "request/invalid",
      /./,
    );
    assertRefused(
      await g.host.post(`/games/${g.id}/history/alter`, { text: "  " }),
      409,
      "game/state",
      /empty/,
    );
  });

  it("retry runs the last turn again with the same actions; the first draw stays as a sibling", async () => {
    const g = await newGame();
    await play(g, "I look around the docks.");
    const first = (await transcript(g)).at(-1)!;
    const retried = await g.host.post(`/games/${g.id}/history/retry`, { head: first.seq });
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.json.replaced, first.seq);
    assert.equal(retried.json.tick, 1);
    assert.equal(retried.json.draw, 1);
    const now = await transcript(g);
    assert.equal(now.length, 2);
    assert.equal(now.at(-1)!.seq, retried.json.seq);
    assert.notEqual(retried.json.seq, first.seq);
    assert.deepEqual(now.at(-1)!.inputs.actions, first.inputs.actions);
    assert.equal((await g.host.get(`/games/${g.id}`)).json.tick, 1);
    // The first draw is a branch of its own, unchanged.
    const branches = (await g.host.get(`/games/${g.id}/history/branches`)).json;
    assert.deepEqual(
      branches.branches.map((b: { tip: number }) => b.tip).sort(),
      [first.seq, retried.json.seq].sort(),
    );
    const current = branches.branches.find((b: { current: boolean }) => b.current);
    assert.equal(current.tip, retried.json.seq);
    await g.host.post(`/games/${g.id}/history/switch`, { branch: first.seq });
    const back = (await transcript(g)).at(-1)!;
    assert.equal(back.seq, first.seq);
    assert.equal(back.narration, first.narration);
    // A second retry of the same turn is the next draw.
    const again = await g.host.post(`/games/${g.id}/history/retry`);
    assert.equal(again.json.draw, 2, again.text);
    // A step's stored save holds that step and the one before it, never the whole tree: the store's
    // rows are the history (a tree in every row would grow with every turn).
    for (const action of ["I walk to the lighthouse.", "I wait.", "I look around."]) await play(g, action);
    const saved = JSON.parse((await g.host.get(`/games/${g.id}/save`)).text) as {
      history?: { nodes: unknown[] };
    };
    assert.ok(saved.history !== undefined, "the save carries the step a retry needs");
    assert.ok(saved.history.nodes.length <= 2, `${saved.history.nodes.length} steps in one row's save`);
  });

  it("alter replaces the last narration for everyone and the story's history; the original stays, marked", async () => {
    const g = await newGame();
    await play(g, "I look around the docks.");
    const original = (await transcript(g)).at(-1)!;
    const text = "The fog parts. A gull named Wendeline lands on the bollard and stares at you.";
    const altered = await g.host.post(`/games/${g.id}/history/alter`, { text, head: original.seq });
    assert.equal(altered.status, 200, altered.text);
    assert.equal(altered.json.by, "the host");
    assert.equal(altered.json.replaced, original.seq);
    const now = (await transcript(g)).at(-1)!;
    assert.equal(now.narration, text);
    assert.equal(now.tick, 1);
    // The save (what the narrator's history and story conditions read) holds the new text, not the old.
    const save = (await g.host.get(`/games/${g.id}/save`)).text;
    assert.ok(save.includes("Wendeline"));
    // The host's log says who altered what.
    const log = (await g.host.get(`/games/${g.id}/log?type=notice`)).json.entries as { message: string }[];
    assert.ok(
      log.some((e) => /altered by the host/.test(e.message)),
      JSON.stringify(log),
    );
    // The original is kept as a sibling.
    const branches = (await g.host.get(`/games/${g.id}/history/branches`)).json;
    assert.ok(branches.branches.some((b: { tip: number }) => b.tip === original.seq));
    // Play goes on from the altered step.
    assert.equal((await play(g, "I wave at the gull.")).tick, 2);
  });

  it("rewind starts a new branch at an earlier turn; the diff between branches names what changed", async () => {
    const g = await newGame();
    await play(g, "I look around the docks.");
    await play(g, "walk to the Gutted Eel");
    const oldBranch = await transcript(g);
    const oldTip = oldBranch.at(-1)!.seq;
    const rewound = await g.host.post(`/games/${g.id}/history/rewind`, { tick: 1 });
    assert.equal(rewound.status, 200, rewound.text);
    assert.equal(rewound.json.tick, 1);
    assert.equal((await transcript(g)).length, 2);
    await play(g, "I look around the docks again.");
    const newTip = await headOf(g);
    const branches = (await g.host.get(`/games/${g.id}/history/branches`)).json;
    const old = branches.branches.find((b: { tip: number }) => b.tip === oldTip);
    assert.ok(old, JSON.stringify(branches));
    assert.equal(old.current, false);
    assert.equal(old.splitAt, oldBranch[1]!.seq, "it splits at turn 1");
    assert.equal(old.turns, 2);
    const diff = await g.host.get(`/games/${g.id}/history/diff?a=${newTip}&b=${oldTip}`);
    assert.equal(diff.status, 200, diff.text);
    assert.equal(diff.json.from, 2);
    assert.equal(diff.json.to, 2);
    const { realm, region, location, area } = (await g.host.get(`/games/${g.id}`)).json.state.position;
    const newPosition = { realm, region, location, area };
    // The old branch walked to the Gutted Eel; the new one stayed.
    const moved = diff.json.changes.find((c: { kind: string }) => c.kind === "position");
    assert.ok(moved, JSON.stringify(diff.json.changes));
    const at = moved.before;
    assert.deepEqual(
      { realm: at.realm, region: at.region, location: at.location, area: at.area },
      newPosition,
    );
    assert.notEqual(moved.after.location, newPosition.location);
    const same = await g.host.get(`/games/${g.id}/history/diff?a=${newTip}&b=${newTip}`);
    assert.deepEqual(same.json.changes, []);
    // A player reads the same branches, and of the diff what the party sees: the host's changes but
    // the world's workings (narrative events, flags, storage, triggers consumed).
    assert.equal(diff.json.scope, "host");
    const theirs = await g.ann.get(`/games/${g.id}/history/branches`);
    assert.equal(theirs.status, 200, theirs.text);
    assert.deepEqual(theirs.json, branches);
    const partyDiff = await g.ann.get(`/games/${g.id}/history/diff?a=${newTip}&b=${oldTip}`);
    assert.equal(partyDiff.status, 200, partyDiff.text);
    assert.equal(partyDiff.json.scope, "party");
    const partyKinds = ["position", "party", "quest", "objective", "trait", "item"];
    const hostOnly = diff.json.changes.filter((c: { kind: string }) => !partyKinds.includes(c.kind));
    assert.ok(
      hostOnly.length > 0,
      `the walk changed the world's workings too: ${JSON.stringify(diff.json.changes)}`,
    );
    assert.deepEqual(
      partyDiff.json.changes,
      diff.json.changes.filter((c: { kind: string }) => partyKinds.includes(c.kind)),
    );
    // Switch back: the old branch's story is the transcript again, and the game is at its turn.
    const switched = await g.host.post(`/games/${g.id}/history/switch`, { branch: oldTip });
    assert.equal(switched.status, 200, switched.text);
    assert.deepEqual(
      (await transcript(g)).map((s) => [s.seq, s.narration]),
      oldBranch.map((s) => [s.seq, s.narration]),
    );
    assert.equal((await g.host.get(`/games/${g.id}`)).json.tick, 2);
    // The cassette follows the current branch.
    const cassette = (await g.host.get(`/games/${g.id}/cassette`)).text;
    assert.ok(cassette.includes("walk to the Gutted Eel"));
    assert.ok(!cassette.includes("again."), "the other branch's action is not on this branch's cassette");
  });

  it("branches the list shows alike say where they part: the turn and a few words of its action", async () => {
    const g = await newGame();
    await play(g, "I look around the docks.");
    const tips: number[] = [];
    // The same action after turn 1 on three lines, then another choice at turn 3 on each.
    for (const choice of ["talk to Mara Venn", "travel to the Old Lighthouse", "wait"]) {
      if (tips.length > 0) {
        const rewound = await g.host.post(`/games/${g.id}/history/rewind`, { tick: 1 });
        assert.equal(rewound.status, 200, rewound.text);
      }
      await play(g, "walk to the Gutted Eel");
      await play(g, choice);
      tips.push(await headOf(g));
    }
    const view = (await g.host.get(`/games/${g.id}/history/branches`)).json as {
      branches: {
        tip: number;
        title: string;
        turns: number;
        splitTick: number | null;
        current: boolean;
        parting: unknown;
      }[];
    };
    const [mara, lighthouse, wait] = tips.map((tip) => view.branches.find((b) => b.tip === tip)!);
    // The first two read alike but for their parting: the same first words, turns and split.
    assert.deepEqual(
      [mara!.title, mara!.turns, mara!.splitTick],
      [lighthouse!.title, lighthouse!.turns, lighthouse!.splitTick],
    );
    assert.equal(mara!.splitTick, 1);
    assert.deepEqual(mara!.parting, { turn: 3, by: "action", text: "talk to Mara Venn", draw: 0 });
    assert.deepEqual(lighthouse!.parting, {
      turn: 3,
      by: "action",
      text: "travel to the Old Lighthouse",
      draw: 0,
    });
    // The current branch lists apart ("current"): nothing to tell.
    assert.equal(wait!.current, true);
    assert.equal(wait!.parting, null);
    // Retried, the turn and the draw it replaced list apart: the old one splits after turn 2.
    const retried = await g.host.post(`/games/${g.id}/history/retry`, { head: tips[2] });
    assert.equal(retried.status, 200, retried.text);
    const again = (await g.host.get(`/games/${g.id}/history/branches`)).json as typeof view;
    const replaced = again.branches.find((b) => b.tip === tips[2])!;
    assert.equal(replaced.splitTick, 2);
    assert.equal(replaced.parting, null);
    // Retried again: the two draws it replaced split after turn 2, and read differently (their
    // stories' first words, or else where their stories part and their draws).
    const head = (await transcript(g)).at(-1)!.seq;
    assert.equal((await g.host.post(`/games/${g.id}/history/retry`, { head })).status, 200);
    const drawn = (await g.host.get(`/games/${g.id}/history/branches`)).json as typeof view;
    const draws = drawn.branches.filter((b) => b.tip === tips[2] || b.tip === head);
    assert.equal(draws.length, 2);
    assert.deepEqual(
      draws.map((b) => b.splitTick),
      [2, 2],
    );
    assert.notDeepEqual(
      ...(draws.map((b) => [b.title, b.parting]) as [unknown, unknown]),
      "the draws read differently",
    );
    if (draws[0]!.title === draws[1]!.title)
      assert.deepEqual(
        draws.map((b) => (b.parting as { draw: number }).draw),
        [0, 1],
      );
    // A player reads the same list.
    assert.deepEqual((await g.ann.get(`/games/${g.id}/history/branches`)).json, drawn);
  });

  it("a retry whose narrator fails changes nothing and schedules nothing", async () => {
    const failing = { on: false };
    const second = await startServer({
      narrator: offlineNarratorWith((inner, request, onChunk, signal) =>
        failing.on
          ? Promise.reject(new AiError("timeout", "the narrator timed out"))
          : inner.narrate(request, onChunk, signal),
      ),
    });
    try {
      const g = await newGame(second.url);
      const stream = listen(`${second.url}/games/${g.id}/events`, g.annToken);
      assert.equal(await stream.ready, 200);
      await play(g, "I look around the docks.");
      const before = await transcript(g);
      failing.on = true;
      const refused = await g.host.post(`/games/${g.id}/history/retry`);
      assertRefused(refused, 502, "turn/failed", /narrator failed/);
      failing.on = false;
      assert.deepEqual(await transcript(g), before);
      const view = (await g.host.get(`/games/${g.id}`)).json;
      assert.equal(view.tick, 1);
      // The claim was released: the retry goes through now, and no turn-failed was announced.
      const retried = await g.host.post(`/games/${g.id}/history/retry`);
      assert.equal(retried.status, 200, retried.text);
      await stream.until((events) => events.some((e) => e.event === "turn-retried"));
      assert.ok(!stream.events.some((e) => e.event === "turn-failed"));
      stream.close();
    } finally {
      await stopServer(second);
    }
  });

  it("the cassette of a branch with a retry and an alter replays in play", { timeout: 120_000 }, async () => {
    const g = await newGame();
    await play(g, "I look around the docks.");
    await play(g, "walk to the Gutted Eel");
    await g.host.post(`/games/${g.id}/history/rewind`, { tick: 1 });
    await play(g, "I ask the harbourmaster about the fog.");
    assert.equal((await g.host.post(`/games/${g.id}/history/retry`)).status, 200);
    const text = "The harbourmaster, a woman named Orsolya, points out to sea without a word.";
    assert.equal((await g.host.post(`/games/${g.id}/history/alter`, { text })).status, 200);
    const cassette = await g.host.get(`/games/${g.id}/cassette`);
    assert.equal(cassette.status, 200, cassette.text);
    assert.ok(!cassette.text.includes("walk to the Gutted Eel"), "the branch left is not on the cassette");
    const file = scratchDir().write("branch.cassette", cassette.text);
    const replay = await playWith([join("examples", "harbor.world.json"), "--replay", file], []);
    assert.equal(replay.code, 0, replay.err);
    assert.match(replay.out, /Replay finished at turn 2\./);
    // The branch's steps in order, each retried or altered one after the step it replaced.
    const inputs = cassette.text
      .split("\n")
      .filter((line) => line.startsWith('{"input"'))
      .map((line) => JSON.parse(line).input.type);
    assert.deepEqual(inputs, ["turn", "turn", "retry", "alter"]);
    assert.match(replay.out, /> \/alter/);
  });

  it("two clients' undo or retry at once apply once", async () => {
    const g = await newGame();
    await play(g, "I look around the docks.");
    await play(g, "walk to the Gutted Eel");
    const second = new Client(running.url, g.hostToken);
    const head = await headOf(g);
    const undos = await Promise.all([
      g.host.post(`/games/${g.id}/history/undo`, { head }),
      second.post(`/games/${g.id}/history/undo`, { head }),
    ]);
    assertOnce(undos);
    assert.equal((await g.host.get(`/games/${g.id}`)).json.tick, 1);
    const tips = async () =>
      ((await g.host.get(`/games/${g.id}/history/branches`)).json.branches as { tip: number }[]).map(
        (b) => b.tip,
      );
    const before = await tips();
    const at = await headOf(g);
    const retries = await Promise.all([
      g.host.post(`/games/${g.id}/history/retry`, { head: at }),
      second.post(`/games/${g.id}/history/retry`, { head: at }),
    ]);
    assertOnce(retries);
    const added = (await tips()).filter((tip) => !before.includes(tip));
    assert.equal(added.length, 1, "one new sibling, not two");
  });

  it("two servers' undo or retry at once apply once (two processes on PostgreSQL)", {
    timeout: 120_000,
  }, async () => {
    // SQLite serves from one process by design (a second one on the folder is refused): there the two
    // servers share this process, as in interleavings.test.ts.
    const child = DATABASE_URL
      ? await startChildServer(running.where)
      : await startServer({ where: running.where });
    try {
      const g = await newGame();
      await play(g, "I look around the docks.");
      await play(g, "walk to the Gutted Eel");
      const other = new Client(child.url, g.hostToken);
      const head = await headOf(g);
      const undos = await Promise.all([
        g.host.post(`/games/${g.id}/history/undo`, { head }),
        other.post(`/games/${g.id}/history/undo`, { head }),
      ]);
      assertOnce(undos);
      assert.equal((await other.get(`/games/${g.id}`)).json.tick, 1);
      const retries = await Promise.all([
        g.host.post(`/games/${g.id}/history/retry`, { head: await headOf(g) }),
        other.post(`/games/${g.id}/history/retry`, { head: await headOf(g) }),
      ]);
      assertOnce(retries);
      assert.equal((await transcript(g)).length, 2);
    } finally {
      await child.close();
    }
  });
});

/** Of two requests at once, one applied (200) and the other was refused (409: busy, or the head moved). */
function assertOnce(answers: Answer[]) {
  const statuses = answers.map((a) => a.status).sort();
  assert.deepEqual(statuses, [200, 409], answers.map((a) => a.text).join("\n"));
  const refused = answers.find((a) => a.status === 409)!;
  assert.ok(["game/busy", "game/state"].includes(refused.json.error.code), refused.text);
}

/**
 * Games stored before the steps were a tree (migration 0007_turns_parent): each row's parent is the
 * row before it and the head is the newest row, so an old game reads as one branch. SQLite here: the
 * migration's statements are the same plain SQL on PostgreSQL.
 */
describe("server store: a game stored before the tree is one branch", {
  skip: DATABASE_URL !== undefined,
}, () => {
  it("gets parents and a head from its rows", async () => {
    const where = freshStore();
    const folder = where.data!;
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new SqliteDatabase(join(folder, "taleforge.sqlite")) }),
    });
    const migrator = new Migrator({ db, provider: migrations("sqlite") });
    const migrated = await migrator.migrateTo("0006_games_creator_strikes");
    assert.equal(migrated.error, undefined);
    const now = Date.now();
    await db.insertInto("worlds").values(worldRow(now)).execute();
    // Kysely's types know the columns of the newest schema; the old table has no `head`.
    await db
      .insertInto("games")
      .values([
        gameRow(now, { id: "old", host_token_hash: "h1", invite_code: "I1", seq: 3, tick: 2 }),
        gameRow(now, {
          id: "lobby",
          host_token_hash: "h2",
          invite_code: "I2",
          seq: 0,
          tick: 2,
          status: "lobby",
        }),
      ] as never)
      .execute();
    const turn = { game_id: "old", inputs: "{}", cassette: "[]", trace: null, result: "{}", created_at: now };
    await db
      .insertInto("turns")
      .values(
        [0, 1, 2].map((seq) => ({
          ...turn,
          seq,
          tick: seq,
          kind: seq === 0 ? "opening" : "turn",
          state: `state ${seq}`,
          narration: `story ${seq}`,
        })) as never,
      )
      .execute();
    await db.destroy();

    const open = await openStore(where);
    try {
      const store = new Store(open);
      assert.deepEqual(await store.path("old"), [0, 1, 2]);
      assert.equal((await store.lastTurn("old"))?.state, "state 2");
      assert.deepEqual(
        (await store.steps("old")).map((s) => [s.seq, s.parent]),
        [
          [0, null],
          [1, 0],
          [2, 1],
        ],
      );
      assert.equal((await store.game("lobby"))?.head, null);
      assert.deepEqual(await store.path("lobby"), []);
      assert.equal(await store.lastTurn("lobby"), undefined);
    } finally {
      await open.close();
      await dropStore(where);
    }
  });
});
