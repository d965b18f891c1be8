import assert from "node:assert/strict";
import { describe, it } from "node:test";
import pino from "pino";
import { ANSWER_CLAIM } from "../../src/server/store/store.ts";
import {
  Client,
  eventually,
  listen,
  offlineNarratorWith,
  STORE_NAME,
  suiteServers,
  WORLD_TEXT,
} from "./harness.ts";

const QUEST = "The Keeper's Debt";

/**
 * The offline narrator, whose narration waits while `hold` is set: a turn stays in flight (its claim
 * held) until the test lets it go.
 */
function gatedNarrator() {
  let open: () => void = () => {};
  let gate: Promise<void> | null = null;
  let arrived: () => void = () => {};
  let entered: Promise<void> = Promise.resolve();
  const factory = offlineNarratorWith(async (inner, request, onChunk, signal) => {
    if (gate) {
      arrived();
      await gate;
    }
    return inner.narrate(request, onChunk, signal);
  });
  return {
    factory,
    hold() {
      gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      entered = new Promise<void>((resolve) => {
        arrived = resolve;
      });
    },
    /** Resolves when a narration reached the gate set by the last hold(): its turn is in flight, holding its claim. */
    entered: () => entered,
    release() {
      gate = null;
      open();
    },
  };
}

/**
 * A logger that keeps the server's log lines, so a test can wait for one (the order of steps is
 * decided by what the server says it does, never by a sleep: issue 40, 3).
 */
function capturedLog() {
  const lines: { msg: string; game?: string }[] = [];
  const waiters: { test: (line: { msg: string; game?: string }) => boolean; resolve: () => void }[] = [];
  const log = pino(
    { level: "debug" },
    {
      write(text: string) {
        const line = JSON.parse(text);
        lines.push(line);
        for (const w of waiters.filter((w) => w.test(line))) w.resolve();
      },
    },
  );
  const said = (msg: string, game: string) => {
    const test = (line: { msg: string; game?: string }) => line.msg === msg && line.game === game;
    if (lines.some(test)) return Promise.resolve();
    return new Promise<void>((resolve) => waiters.push({ test, resolve }));
  };
  return { log, said };
}

const ANSWER_WAITS = "a quest answer waits for the step in flight";

/** A quest answer sent while a turn runs (docs/server.md "Quest answers"). */
describe(`server: a quest answer during a turn (${STORE_NAME})`, () => {
  const start = suiteServers();

  /** A one-player game at the Gutted Eel, the quest offered, and a second turn held in flight. */
  const inFlight = async (answerWaitMs: number) => {
    const narrator = gatedNarrator();
    const logged = capturedLog();
    const running = await start({ narrator: narrator.factory, answerWaitMs, log: logged.log });
    const anyone = new Client(running.url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    const created = (await anyone.post("/games", { world: hash, seed: 31 })).json;
    const host = new Client(running.url, created.hostToken);
    const ann = new Client(
      running.url,
      (await anyone.post("/games/join", { invite: created.invite, character: { name: "Ann" } })).json.token,
    );
    assert.equal((await host.post(`/games/${created.id}/start`)).status, 200);
    const stream = listen(`${running.url}/games/${created.id}/events`, created.hostToken);
    await ann.post(`/games/${created.id}/actions`, { text: "walk to the Gutted Eel", idempotencyKey: "k1" });
    await stream.until((events) => events.some((e) => e.event === "turn" && e.data.tick === 1));
    const status = async () =>
      (await host.get(`/games/${created.id}`)).json.state.quests.find(
        (q: { quest: string }) => q.quest === QUEST,
      )?.status;
    assert.equal(await status(), "available");
    narrator.hold();
    assert.equal(
      (await ann.post(`/games/${created.id}/actions`, { text: "look around", idempotencyKey: "k2" })).status,
      202,
    );
    // The turn claims the game as soon as the submission is stored; its narration then waits at the gate.
    await stream.until((events) => events.some((e) => e.event === "submission" && e.data.tick === 2));
    await narrator.entered();
    const answer = () => ann.post(`/games/${created.id}/quests/${encodeURIComponent(QUEST)}/accept`);
    const answerWaits = () => logged.said(ANSWER_WAITS, created.id);
    return { id: created.id as string, narrator, stream, status, answer, answerWaits };
  };

  it("waits for the turn in flight and applies the answer, never 'busy' for a stored answer", {
    timeout: 120_000,
  }, async () => {
    const game = await inFlight(30_000);
    const pending = game.answer();
    // The path under test: the answer found the turn in flight and waits for it (the server says so).
    await game.answerWaits();
    game.narrator.release();
    const reply = await pending;
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json.status, "accepted");
    assert.equal(await game.status(), "accepted");
    await game.stream.until((events) => events.some((e) => e.event === "quest"));
    const kinds = game.stream.events.filter((e) => e.id !== undefined).map((e) => e.event);
    // The answer is judged after the turn it waited for, and announced with the step applying it.
    const turn2 = kinds.lastIndexOf("turn");
    assert.ok(turn2 < kinds.indexOf("quest-answer"), kinds.join(","));
    assert.equal(kinds.indexOf("quest-answer") + 1, kinds.indexOf("quest"), kinds.join(","));
    game.stream.close();
  });

  it("a submission while an answer holds the game is stored and acknowledged, and applied once", {
    timeout: 120_000,
  }, async () => {
    // One step at a time on this process: a turn of another game held in flight keeps the only slot,
    // so the answer below claims its game and then waits for the slot, holding the claim.
    const narrator = gatedNarrator();
    const running = await start({ narrator: narrator.factory, maxSteps: 1 });
    const store = running.server.store;
    const anyone = new Client(running.url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    const party = async (names: string[]) => {
      const created = (await anyone.post("/games", { world: hash, seed: 31 })).json;
      const players: Client[] = [];
      for (const name of names)
        players.push(
          new Client(
            running.url,
            (await anyone.post("/games/join", { invite: created.invite, character: { name } })).json.token,
          ),
        );
      const host = new Client(running.url, created.hostToken);
      assert.equal((await host.post(`/games/${created.id}/start`)).status, 200);
      return { id: created.id as string, host, players, token: created.hostToken as string };
    };
    const a = await party(["Ann", "Bob"]);
    const [ann, bob] = a.players as [Client, Client];
    const stream = listen(`${running.url}/games/${a.id}/events`, a.token);
    await ann.post(`/games/${a.id}/actions`, { text: "walk to the Gutted Eel", idempotencyKey: "a1" });
    await bob.post(`/games/${a.id}/actions`, { text: "walk to the Gutted Eel", idempotencyKey: "b1" });
    await stream.until((events) => events.some((e) => e.event === "turn" && e.data.tick === 1));
    const b = await party(["Cy"]);
    narrator.hold();
    const other = listen(`${running.url}/games/${b.id}/events`, b.token);
    await b.players[0]!.post(`/games/${b.id}/actions`, { text: "look around", idempotencyKey: "c1" });
    await other.until((events) => events.some((e) => e.event === "submission"));
    // Game B's turn holds the only slot, its narration waiting at the gate.
    await narrator.entered();
    const pending = ann.post(`/games/${a.id}/quests/${encodeURIComponent(QUEST)}/accept`);
    // The path under test: the answer has claimed game A (its owner marked "answer:") and waits for the slot.
    await eventually(
      () => store.game(a.id),
      (game) => game?.lease_owner?.startsWith(ANSWER_CLAIM) === true,
    );
    // The answer holds game A's claim while it waits for the slot; an action for the next turn is
    // not part of that step, so it is stored and acknowledged.
    const bobs = await bob.post(`/games/${a.id}/actions`, { text: "look around", idempotencyKey: "b2" });
    assert.equal(bobs.status, 202, bobs.text);
    assert.equal(bobs.json.tick, 2);
    const anns = await ann.post(`/games/${a.id}/actions`, { text: "sit down", idempotencyKey: "a2" });
    assert.equal(anns.status, 202, anns.text);
    // The same key again while the claim holds: the same submission.
    const again = await bob.post(`/games/${a.id}/actions`, { text: "look around", idempotencyKey: "b2" });
    assert.equal(again.status, 202, again.text);
    assert.equal(again.json.duplicate, true);
    assert.equal(again.json.submission, bobs.json.submission);
    narrator.release();
    const reply = await pending;
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json.status, "accepted");
    await stream.until((events) => events.some((e) => e.event === "turn" && e.data.tick === 2));
    const turn2 = stream.events.find((e) => e.event === "turn" && e.data.tick === 2)!;
    assert.deepEqual(
      turn2.data.actions.map((x: { player: string; text: string }) => `${x.player}: ${x.text}`).sort(),
      ["Ann: sit down", "Bob: look around"],
    );
    // Applied once, by state: the game waits at tick 2 for the next turn's actions, and the next turn
    // (tick 3) holds only the actions sent for it. Stored actions applied a second time would have made
    // a turn of their own before it, or come into it.
    const game = (await a.host.get(`/games/${a.id}`)).json;
    assert.equal(game.tick, 2);
    assert.ok(game.players.every((p: { submitted: boolean }) => !p.submitted));
    for (const [player, key] of [
      [ann, "a3"],
      [bob, "b3"],
    ] as const) {
      const sent = await player.post(`/games/${a.id}/actions`, { text: "wait", idempotencyKey: key });
      assert.equal(sent.status, 202, sent.text);
      assert.equal(sent.json.tick, 3);
    }
    await stream.until((events) => events.some((e) => e.event === "turn" && e.data.tick === 3));
    const turns = stream.events.filter((e) => e.event === "turn");
    assert.deepEqual(
      turns.map((e) => e.data.tick),
      [0, 1, 2, 3],
    );
    assert.deepEqual(
      turns[3]!.data.actions.map((x: { player: string; text: string }) => `${x.player}: ${x.text}`).sort(),
      ["Ann: wait", "Bob: wait"],
    );
    stream.close();
    other.close();
  });

  it("past its wait, refuses with game/busy and stores nothing; answered again, it applies", {
    timeout: 120_000,
  }, async () => {
    const game = await inFlight(300);
    const reply = await game.answer();
    assert.equal(reply.status, 409, reply.text);
    assert.equal(reply.json.error.code, "game/busy");
    assert.match(reply.json.error.message, /not stored/);
    game.narrator.release();
    await game.stream.until((events) => events.filter((e) => e.event === "turn").length === 3);
    assert.equal(await game.status(), "available");
    assert.ok(!game.stream.events.some((e) => e.event === "quest-answer"), "nothing announced");
    const again = await game.answer();
    assert.equal(again.status, 200, again.text);
    assert.equal(again.json.status, "accepted");
    game.stream.close();
  });
});
