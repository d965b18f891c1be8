import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { MockServer } from "../ai/mock-server.ts";
import {
  Client,
  eventually,
  listen,
  offlineNarrator,
  remoteNarrator,
  STORE_NAME,
  startedGame,
  suiteServer,
  uploadWorld,
} from "./harness.ts";

/**
 * A failed turn is the table's problem (issue 34 item 1): it runs again by itself after a wait,
 * players are told one plain sentence (no model address, no route), the host gets the cause, and
 * after the last wait anyone may press Retry. The turn that finally runs is the one submitted.
 */
describe(`server: the party's table (${STORE_NAME})`, () => {
  let mock: MockServer;
  const mode = { current: "offline" as "offline" | "500" };

  before(async () => {
    mock = await MockServer.start();
    mock.handler = () => ({ status: 500, json: { error: { message: "boom" } } });
  });
  const running = suiteServer({
    sweepMs: 50,
    retryDelaysMs: [300, 600],
    narrator: (world, game) =>
      mode.current === "offline" ? offlineNarrator(world, game) : remoteNarrator(world, mock.url, 500),
  });
  after(async () => {
    await mock.close();
  });

  async function game() {
    const made = await startedGame(running.url, await uploadWorld(running.url), { body: { seed: 3 } });
    const joined = { token: made.tokens[0]!, playerId: made.playerIds[0]! };
    return {
      id: made.id,
      host: made.host,
      ann: made.players[0]!,
      hostToken: made.hostToken,
      annToken: joined.token,
      joined,
    };
  }

  it("runs a failed turn again by itself; players read a plain sentence, the host the cause", async () => {
    const { id, host, ann, hostToken, annToken } = await game();
    const seen = listen(`${running.url}/games/${id}/events`, annToken);
    const hostSeen = listen(`${running.url}/games/${id}/events`, hostToken);
    mode.current = "500";
    const sent = await ann.post(`/games/${id}/actions`, {
      text: "walk to the Gutted Eel",
      idempotencyKey: "k1",
    });
    assert.equal(sent.status, 202);
    // The first failure, then the second, each scheduled by itself (nobody asked again).
    await seen.until((events) => events.filter((e) => e.event === "turn-failed").length >= 2, 20_000);
    const failures = seen.events
      .filter((e) => e.event === "turn-failed")
      .map((e) => e.data as Record<string, unknown>);
    assert.equal(failures[0]!.message, "The narrator did not answer. Trying again in 1 s.");
    assert.equal(failures[0]!.attempt, 1);
    assert.equal(failures[1]!.attempt, 2);
    assert.equal(typeof failures[0]!.retryAt, "number");
    for (const text of [seen.raw]) {
      assert.ok(!text.includes(mock.url), "no model address on a player's stream");
      assert.ok(!text.includes("127.0.0.1"), "no address at all");
      assert.ok(!/POST|\/games\//.test(text), "no route named");
      assert.ok(!text.includes("turn-failure"), "the cause is the host's only");
    }
    await hostSeen.until((events) => events.some((e) => e.event === "turn-failure"), 10_000);
    const cause = hostSeen.events.find((e) => e.event === "turn-failure")!.data as { cause: string };
    assert.match(cause.cause, /failed \(500\)/, "the host reads what went wrong");
    // The model is back: the turn runs by itself, with exactly the action submitted, once.
    mode.current = "offline";
    const done = await eventually(
      () => host.get(`/games/${id}`),
      (a) => a.json.tick === 1,
      20_000,
    );
    assert.equal(done.json.tick, 1);
    const transcript = (await ann.get(`/games/${id}/transcript`)).json.transcript;
    assert.deepEqual(transcript.at(-1).inputs.actions, [{ player: "Ann", text: "walk to the Gutted Eel" }]);
    assert.equal(transcript.filter((s: { kind: string }) => s.kind === "turn").length, 1);
    seen.close();
    hostSeen.close();
  });

  it("after the last wait, it waits for a Retry, which any player may press", async () => {
    const { id, host, ann, annToken } = await game();
    const seen = listen(`${running.url}/games/${id}/events`, annToken);
    mode.current = "500";
    await ann.post(`/games/${id}/actions`, { text: "look around", idempotencyKey: "k1" });
    await seen.until(
      (events) =>
        events.some((e) => e.event === "turn-failed" && (e.data as { retryAt: unknown }).retryAt === null),
      20_000,
    );
    const last = seen.events.filter((e) => e.event === "turn-failed").at(-1)!.data as Record<string, unknown>;
    assert.equal(last.attempt, 3);
    assert.match(
      String(last.message),
      /^The narrator did not answer\. It will not try again by itself: press Retry/,
    );
    // Nothing more by itself.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(seen.events.filter((e) => e.event === "turn-failed").length, 3);
    mode.current = "offline";
    const retried = await ann.post(`/games/${id}/retry`);
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.json.turn, "ran");
    assert.equal((await host.get(`/games/${id}`)).json.tick, 1);
    // Retry never runs a turn that is not ready.
    const idle = await ann.post(`/games/${id}/retry`);
    assert.equal(idle.json.turn, "waiting");
    assert.equal((await host.get(`/games/${id}`)).json.tick, 1);
    seen.close();
  });

  it("a seat link: the host makes a new token for a player's seat; the old one stops working", async () => {
    const { id, host, ann, joined } = await game();
    const seat = await host.post(`/games/${id}/players/${joined.playerId}/seat`);
    assert.equal(seat.status, 200, seat.text);
    assert.equal(seat.json.name, "Ann");
    assert.notEqual(seat.json.token, joined.token);
    const old = await ann.get(`/games/${id}`);
    assert.equal(old.status, 401);
    const again = new Client(running.url, seat.json.token);
    const view = await again.get(`/games/${id}`);
    assert.equal(view.status, 200);
    assert.equal(view.json.you.name, "Ann");
    // Players cannot make one.
    assert.equal((await again.post(`/games/${id}/players/${joined.playerId}/seat`)).status, 403);
  });

  it("a freed seat: the old token stops, turns stop waiting, and the next to join as the character takes it", async () => {
    const { id, host, ann, joined } = await game();
    const anyone = new Client(running.url);
    const invite = (await host.get(`/games/${id}`)).json.invite;
    const bo = (await anyone.post("/games/join", { invite, character: { name: "Bo" } })).json;
    // Bo joined after the start: a started game takes only the party's characters.
    assert.equal(bo.error?.code, "game/state");
    const stream = listen(`${running.url}/games/${id}/events`, joined.token);
    await stream.until((e) => e.some((x) => x.event === "turn"));
    const freed = await host.post(`/games/${id}/players/${joined.playerId}/free`);
    assert.equal(freed.status, 200, freed.text);
    assert.deepEqual(freed.json, { freed: joined.playerId, name: "Ann" });
    await stream.ended;
    assert.equal((await ann.get(`/games/${id}`)).status, 401);
    assert.equal((await host.get(`/games/${id}`)).json.players[0].status, "open");
    // The invite offers the character again; joining as it takes the same seat.
    assert.deepEqual((await anyone.get(`/invites/${invite}`)).json.claimable, ["Ann"]);
    const taken = await anyone.post("/games/join", { invite, character: { name: "Ann" } });
    assert.equal(taken.status, 201, taken.text);
    assert.equal(taken.json.playerId, joined.playerId, "the same seat, with its history");
    const again = new Client(running.url, taken.json.token);
    assert.equal((await again.get(`/games/${id}`)).json.you.name, "Ann");
    assert.deepEqual((await anyone.get(`/invites/${invite}`)).json.claimable, []);
    // Only the host frees a seat, and only an active one.
    assert.equal((await again.post(`/games/${id}/players/${joined.playerId}/free`)).status, 403);
    assert.equal((await host.post(`/games/${id}/players/${"0".repeat(32)}/free`)).status, 404);
  });

  it("the host role handed to a player: the old host token stops at once, the player takes it", async () => {
    const { id, host, ann, joined } = await game();
    const hostStream = listen(`${running.url}/games/${id}/events`, host.token!);
    await hostStream.until((e) => e.some((x) => x.event === "turn"));
    // Nothing to take before it is handed.
    const early = await ann.post(`/games/${id}/host/claim`);
    assert.equal(early.status, 409);
    assert.equal(early.json.error.code, "host/no-offer");
    const handed = await host.post(`/games/${id}/host`, { player: joined.playerId });
    assert.equal(handed.status, 200, handed.text);
    assert.deepEqual(handed.json, { offered: joined.playerId, name: "Ann" });
    await hostStream.ended;
    assert.equal((await host.get(`/games/${id}`)).status, 401, "the old host token no longer works");
    const claimed = await ann.post(`/games/${id}/host/claim`);
    assert.equal(claimed.status, 200, claimed.text);
    const newHost = new Client(running.url, claimed.json.hostToken);
    const view = await newHost.get(`/games/${id}`);
    assert.equal(view.status, 200);
    assert.deepEqual(view.json.you, { host: true });
    assert.equal((await ann.post(`/games/${id}/host/claim`)).status, 409, "taken once");
    // The new host's stream reads the game from the beginning (the old hand-over does not end it).
    const fresh = listen(`${running.url}/games/${id}/events`, claimed.json.hostToken);
    await fresh.until((e) => e.some((x) => x.event === "host-changed"));
    assert.deepEqual(fresh.events.find((x) => x.event === "host-changed")!.data, {
      player: joined.playerId,
      name: "Ann",
    });
    fresh.close();
    // A player cannot hand it on.
    assert.equal((await ann.post(`/games/${id}/host`, { player: joined.playerId })).status, 403);
  });
});
