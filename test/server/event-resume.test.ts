import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { Client, listen, STORE_NAME, suiteServer, WORLD_TEXT } from "./harness.ts";

/** The event stream's edges: HEAD, and a Last-Event-ID the game never reached (docs/server.md "Events"). */
describe(`server: event stream HEAD and resume ids (${STORE_NAME})`, () => {
  let game: string;
  let player: Client;
  const running = suiteServer();
  before(async () => {
    const anyone = new Client(running.url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    const created = (await anyone.post("/games", { world: hash, seed: 5 })).json;
    game = created.id;
    player = new Client(
      running.url,
      (await anyone.post("/games/join", { invite: created.invite, character: { name: "Ann" } })).json.token,
    );
    assert.equal((await new Client(running.url, created.hostToken).post(`/games/${game}/start`)).status, 200);
  });

  it("answers HEAD with the stream's headers and no stream, and checks the token as GET does", async () => {
    const head = await fetch(`${running.url}/games/${game}/events`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${player.token}` },
      signal: AbortSignal.timeout(5000),
    });
    assert.equal(head.status, 200);
    assert.match(head.headers.get("content-type") ?? "", /^text\/event-stream/);
    assert.equal(await head.text(), "");
    const anonymous = await fetch(`${running.url}/games/${game}/events`, {
      method: "HEAD",
      signal: AbortSignal.timeout(5000),
    });
    assert.equal(anonymous.status, 401);
  });

  it("sends the game's events from the beginning for a Last-Event-ID beyond its newest event", async () => {
    const all = listen(`${running.url}/games/${game}/events`, player.token!);
    await all.until((events) => events.some((e) => e.event === "turn"));
    // Stored events only (narration chunks stream live, without an id).
    const stored = (events: { id?: string }[]) => events.filter((e) => e.id !== undefined);
    const newest = Number(stored(all.events).at(-1)!.id);
    all.close();
    for (const id of [String(newest + 1_000_000), "999999999999999"]) {
      const stream = listen(`${running.url}/games/${game}/events`, player.token!, id);
      await stream.until((events) => events.some((e) => e.event === "turn"), 10_000);
      assert.deepEqual(stored(stream.events)[0], stored(all.events)[0]);
      // And the events after it still arrive.
      await player.post(`/games/${game}/actions`, { text: "look around", idempotencyKey: `k${id}` });
      await stream.until((events) => events.some((e) => e.event === "submission"), 10_000);
      stream.close();
    }
    // An id the game reached resumes after it, as before.
    const resumed = listen(`${running.url}/games/${game}/events`, player.token!, String(newest));
    await resumed.until((events) => events.some((e) => e.event === "submission"), 10_000);
    assert.ok(stored(resumed.events).every((e) => Number(e.id) > newest));
    resumed.close();
  });
});
