import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { Client, eventually, listen, STORE_NAME, suiteServer, WORLD_TEXT } from "./harness.ts";

const QUEST = "The Keeper's Debt";

/**
 * Quest answers per player (docs/server.md "Quest answers"): each of three
 * players answers for themself; the first accept takes the quest for the
 * party, a reject or an abandon applies only once every active player gave it.
 */
describe(`server: quest answers per player (${STORE_NAME})`, () => {
  let hash: string;
  const running = suiteServer();
  before(async () => {
    hash = (await new Client(running.url).call("POST", "/worlds", WORLD_TEXT)).json.hash;
  });

  /** A started game of three players, one turn in, at the Gutted Eel where Mara offers the Keeper's Debt. */
  const offered = async (seed: number) => {
    const anyone = new Client(running.url);
    const created = (await anyone.post("/games", { world: hash, seed })).json;
    const host = new Client(running.url, created.hostToken);
    const players: Client[] = [];
    for (const name of ["Ann", "Bea", "Cid"])
      players.push(
        new Client(
          running.url,
          (await anyone.post("/games/join", { invite: created.invite, character: { name } })).json.token,
        ),
      );
    assert.equal((await host.post(`/games/${created.id}/start`)).status, 200);
    const stream = listen(`${running.url}/games/${created.id}/events`, players[0]!.token!);
    for (const [i, p] of players.entries())
      await p.post(`/games/${created.id}/actions`, {
        text: "walk to the Gutted Eel",
        idempotencyKey: `k${i}`,
      });
    await stream.until((events) => events.some((e) => e.event === "turn" && e.data.tick === 1));
    const turn = stream.events.find((e) => e.event === "turn" && e.data.tick === 1)!.data;
    assert.ok(
      turn.prompts.some((p: { quest: string }) => p.quest === QUEST),
      "the turn offers the quest to the players",
    );
    const status = async () =>
      (await host.get(`/games/${created.id}`)).json.state.quests.find(
        (q: { quest: string }) => q.quest === QUEST,
      )?.status;
    const answer = (p: number, a: string) =>
      players[p]!.post(`/games/${created.id}/quests/${encodeURIComponent(QUEST)}/${a}`);
    return { id: created.id as string, host, players, stream, status, answer };
  };

  it("takes the quest for the party at the first accept, whatever the others said", {
    timeout: 120_000,
  }, async () => {
    const game = await offered(31);
    const ann = await game.answer(0, "reject");
    assert.equal(ann.status, 200, ann.text);
    assert.deepEqual(ann.json, {
      quest: QUEST,
      answer: "reject",
      status: "available",
      waitingFor: ["Bea", "Cid"],
    });
    assert.equal(await game.status(), "available", "one reject does not throw the quest away");
    const bea = await game.answer(1, "reject");
    assert.deepEqual(bea.json.waitingFor, ["Cid"]);
    const cid = await game.answer(2, "accept");
    assert.equal(cid.status, 200, cid.text);
    assert.equal(cid.json.status, "accepted");
    assert.equal(await game.status(), "accepted");
    // Abandoning needs every active player too.
    assert.deepEqual((await game.answer(0, "abandon")).json.waitingFor, ["Bea", "Cid"]);
    assert.deepEqual((await game.answer(1, "abandon")).json.waitingFor, ["Cid"]);
    assert.equal(await game.status(), "accepted", "two of three cannot abandon for the third");
    const last = await game.answer(2, "abandon");
    assert.equal(last.json.status, "abandoned");
    assert.equal(await game.status(), "abandoned");
    const again = await game.answer(0, "accept");
    assert.equal(again.status, 422);
    assert.equal(again.json.error.code, "engine/refused");
    // Every answer was an event for the party; the decisive ones a quest event.
    await game.stream.until((events) => events.filter((e) => e.event === "quest-answer").length === 6);
    await game.stream.until((events) => events.filter((e) => e.event === "quest").length === 2);
    const answers = game.stream.events
      .filter((e) => e.event === "quest-answer")
      .map((e) => `${e.data.name} ${e.data.answer}`);
    assert.deepEqual(answers, [
      "Ann reject",
      "Bea reject",
      "Cid accept",
      "Ann abandon",
      "Bea abandon",
      "Cid abandon",
    ]);
    game.stream.close();
  });

  it("rejects only when every active player rejects, counting each player's latest answer", {
    timeout: 120_000,
  }, async () => {
    const game = await offered(32);
    await game.answer(0, "reject");
    await game.answer(1, "reject");
    // Ann says it twice: still one answer; Cid has not answered.
    assert.deepEqual((await game.answer(0, "reject")).json.waitingFor, ["Cid"]);
    assert.equal(await game.status(), "available");
    const cid = await game.answer(2, "reject");
    assert.equal(cid.json.status, "rejected");
    assert.equal(await game.status(), "rejected");
    const transcript = (await game.host.get(`/games/${game.id}/transcript`)).json.transcript;
    const steps = transcript.filter((t: { kind: string }) => t.kind === "answer");
    assert.equal(steps.length, 1, "one step changed the game: the party's answer");
    assert.deepEqual(steps[0].inputs, { player: "Cid", quest: QUEST, answer: "reject" });
    game.stream.close();
  });

  it("does not count a kicked player", { timeout: 120_000 }, async () => {
    const game = await offered(33);
    const players = (await game.host.get(`/games/${game.id}`)).json.players as { id: string; name: string }[];
    await game.answer(0, "reject");
    assert.equal(
      (await game.host.post(`/games/${game.id}/players/${players.find((p) => p.name === "Cid")!.id}/kick`))
        .status,
      200,
    );
    const bea = await game.answer(1, "reject");
    assert.equal(bea.json.status, "rejected", "Ann and Bea are the whole party now");
    await eventually(game.status, (s) => s === "rejected");
    game.stream.close();
  });

  it("leaves the host's trace at the last turn after a decisive answer (an answer step has no trace)", {
    timeout: 120_000,
  }, async () => {
    const game = await offered(34);
    assert.equal((await game.answer(0, "accept")).json.status, "accepted");
    // The answer was a step of its own (seq 2, after the opening and the turn): /trace still shows the turn.
    const trace = await game.host.get(`/games/${game.id}/trace`);
    assert.equal(trace.status, 200, trace.text);
    assert.equal(trace.json.seq, 1);
    assert.equal(trace.json.tick, 1);
    assert.match(trace.json.text, /keeper_rumour/);
    const answerStep = await game.host.get(`/games/${game.id}/trace?seq=2`);
    assert.equal(answerStep.status, 409, "asked for by its seq, the answer step has no trace");
    assert.equal(answerStep.json.error.code, "game/state");
    game.stream.close();
  });

  it("a bare yes or no typed as an action answers the offer, as at the terminal's prompt; never 'You y.'", {
    timeout: 120_000,
  }, async () => {
    const game = await offered(35);
    const no = await game.players[0]!.post(`/games/${game.id}/actions`, { text: "n", idempotencyKey: "n0" });
    assert.equal(no.status, 202, no.text);
    assert.deepEqual(no.json, {
      answered: { quest: QUEST, answer: "reject", status: "available", waitingFor: ["Bea", "Cid"] },
    });
    const yes = await game.players[1]!.post(`/games/${game.id}/actions`, {
      text: "Yes.",
      idempotencyKey: "y1",
    });
    assert.equal(yes.status, 202, yes.text);
    assert.equal(yes.json.answered.status, "accepted");
    assert.equal(await game.status(), "accepted");
    // Nothing was submitted as an action for turn 2.
    const players = (await game.host.get(`/games/${game.id}`)).json.players as { submitted: boolean }[];
    assert.ok(players.every((p) => !p.submitted));
    // With nothing on offer, a bare "y" is refused with what to do, and is not played either.
    const nothing = await game.players[2]!.post(`/games/${game.id}/actions`, {
      text: "y",
      idempotencyKey: "y2",
    });
    assert.equal(nothing.status, 422, nothing.text);
    assert.match(nothing.json.error.message, /No quest is waiting for a yes or no/);
    game.stream.close();
  });
});
