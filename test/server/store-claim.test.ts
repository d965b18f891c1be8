import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { openStore } from "../../src/server/store/open.ts";
import { Store } from "../../src/server/store/store.ts";
import { dropStore, freshStore } from "./harness.ts";
import { gameRow, playerRow, worldRow } from "./rows.ts";

/**
 * A turn's look at its game and its claim at the store (PostgreSQL: one statement each,
 * statements.ts GAME_FOR_TURN and CLAIM_TURN; SQLite: the reads apart): the same game, inputs and state
 * as the separate reads give, the same refusals, and no submission lost to a claim that waited for it.
 */
describe(`server store: a turn's look and claim (${process.env.TALEFORGE_TEST_DATABASE_URL ? "postgresql" : "sqlite"})`, () => {
  const where = freshStore();
  let store: Store | undefined;
  after(async () => {
    await store?.open.close();
    await dropStore(where);
  });

  it("reads what the separate reads read, claims once, and sees a submission that committed while the claim waited", {
    timeout: 60_000,
  }, async () => {
    store = new Store(await openStore(where));
    const s = store;
    const now = Date.now();
    await s.putWorld(worldRow(now));
    const game = (id: string, status: "running" | "paused") =>
      gameRow(now, { id, status, host_token_hash: `h-${id}`, invite_code: `i-${id}` });
    const opening = (id: string) => ({
      game_id: id,
      seq: 0,
      parent: null,
      kind: "import" as const,
      tick: 0,
      state: `the state of ${id} \u00e9\u{1F600}`,
      inputs: "{}",
      cassette: "[]",
      trace: null,
      result: "{}",
      narration: "n",
      created_at: now,
    });
    for (const [id, status] of [
      ["g1", "running"],
      ["empty", "running"],
      ["paused", "paused"],
    ] as const)
      await s.importGame(game(id, status), opening(id));
    const player = (id: string, name: string, joined: number, gameId = "g1") =>
      playerRow(now + joined, { id, game_id: gameId, name, token_hash: `t-${id}` });
    await s.db
      .insertInto("players")
      .values([
        player("p2", "Bo", 2),
        player("p1", "Ann", 1),
        player("p3", "Cy", 3),
        player("q1", "Di", 1, "paused"),
      ])
      .execute();
    await s.db.updateTable("players").set({ status: "kicked" }).where("id", "=", "p3").execute();
    const submission = (key: string, playerId: string, tick: number, at: number) => ({
      id: `s-${key}`,
      game_id: "g1",
      player_id: playerId,
      tick,
      idempotency_key: key,
      text: `text ${key}`,
      created_at: at,
    });
    await s.db
      .insertInto("submissions")
      .values(submission("a", "p2", 1, now))
      .execute();

    // The look: the game's row as game() reads it, and its next turn's inputs as turnInputs reads them.
    const look = await s.gameForTurn("g1");
    assert.deepEqual(look.game, await s.game("g1"));
    assert.deepEqual(look.inputs, await s.turnInputs("g1", 1));
    assert.deepEqual(look.inputs, {
      players: [
        { id: "p1", name: "Ann" },
        { id: "p2", name: "Bo" },
      ],
      submitted: [{ player_id: "p2", text: "text a" }],
    });
    const empty = await s.gameForTurn("empty");
    assert.deepEqual(empty, { game: await s.game("empty"), inputs: { players: [], submitted: [] } });
    assert.deepEqual(
      await s.gameForTurn("paused"),
      { game: await s.game("paused") },
      "no inputs unless running",
    );
    assert.deepEqual(await s.gameForTurn("nothing"), { game: undefined });

    // The claim: the inputs after it holds, and (where the store reads it with the claim) the last state.
    assert.equal(
      await s.claimTurn({ id: "g1", seq: 5 }, "me", Date.now() + 60_000, 1),
      undefined,
      "not at seq 5",
    );
    const claimed = await s.claimTurn({ id: "g1", seq: 1 }, "me", Date.now() + 60_000, 1);
    assert.ok(claimed);
    assert.deepEqual(claimed.inputs, await s.turnInputs("g1", 1));
    if (claimed.last !== undefined) assert.deepEqual(claimed.last, await s.lastTurn("g1"));
    assert.equal((await s.game("g1"))?.lease_owner, "me");
    assert.equal(await s.claimTurn({ id: "g1", seq: 1 }, "you", Date.now() + 60_000, 1), undefined, "held");
    await s.release("g1", "me");

    // A submission whose transaction holds the game's row while the claim is asked: the claim waits for
    // it, and its inputs have it (PostgreSQL: the one statement's snapshot would not; see CLAIM_TURN).
    let claim: ReturnType<Store["claimTurn"]> | undefined;
    await s.db.transaction().execute(async (trx) => {
      await trx.updateTable("games").set({ updated_at: Date.now() }).where("id", "=", "g1").execute();
      await trx
        .insertInto("submissions")
        .values(submission("b", "p1", 1, now + 10))
        .execute();
      claim = s.claimTurn({ id: "g1", seq: 1 }, "me again", Date.now() + 60_000, 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const late = await claim;
    assert.ok(late, "claimed once the submission committed");
    assert.deepEqual(late.inputs.submitted, [
      { player_id: "p2", text: "text a" },
      { player_id: "p1", text: "text b" },
    ]);
    if (late.last !== undefined) assert.deepEqual(late.last, await s.lastTurn("g1"));
  });
});
