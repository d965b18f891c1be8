import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { MockServer } from "../ai/mock-server.ts";
import {
  eventually,
  joinedGame,
  listen,
  offlineNarrator,
  remoteNarrator,
  STORE_NAME,
  suiteServer,
  uploadWorld,
} from "./harness.ts";

/**
 * A narrator that fails: a local server speaking the OpenAI protocol answers
 * 500, or never answers. The game stays at its previous turn, the submitted
 * actions stay, and the turn runs once the narrator is back.
 */
describe(`server: a failing narrator (${STORE_NAME})`, () => {
  let mock: MockServer;
  const mode = { current: "offline" as "offline" | "500" | "hang" };

  before(async () => {
    mock = await MockServer.start();
    mock.handler = () =>
      mode.current === "hang" ? { hang: true } : { status: 500, json: { error: { message: "boom" } } };
  });
  const running = suiteServer({
    narrator: (world, game) =>
      mode.current === "offline" ? offlineNarrator(world, game) : remoteNarrator(world, mock.url, 500),
  });
  after(async () => {
    await mock.close();
  });

  it("keeps the game at its previous turn when the narrator answers 500 or hangs, then runs the same actions", async () => {
    const created = await joinedGame(running.url, await uploadWorld(running.url), { body: { seed: 3 } });
    const host = created.host;
    const ann = created.players[0]!;

    mode.current = "500";
    const refused = await host.post(`/games/${created.id}/start`);
    assert.equal(refused.status, 502, refused.text);
    assert.equal(refused.json.error.code, "turn/failed");
    assert.equal(
      (await host.get(`/games/${created.id}`)).json.status,
      "lobby",
      "a failed opening starts nothing",
    );

    mode.current = "offline";
    assert.equal((await host.post(`/games/${created.id}/start`)).status, 200);
    const stream = listen(`${running.url}/games/${created.id}/events`, created.tokens[0]!);
    for (const failure of ["500", "hang"] as const) {
      mode.current = failure;
      const before = (await host.get(`/games/${created.id}/save`)).text;
      if (failure === "500") {
        const sent = await ann.post(`/games/${created.id}/actions`, {
          text: "walk to the Gutted Eel",
          idempotencyKey: "k1",
        });
        assert.equal(sent.status, 202);
      } else {
        assert.equal((await host.post(`/games/${created.id}/turn`)).status, 202);
      }
      const count = failure === "500" ? 1 : 2;
      await stream.until((events) => events.filter((e) => e.event === "turn-failed").length >= count);
      const game = (await host.get(`/games/${created.id}`)).json;
      assert.equal(game.tick, 0, `after a ${failure}, the game is at its previous turn`);
      assert.equal(game.players[0].submitted, true, "the submitted action stays");
      assert.equal(
        (await host.get(`/games/${created.id}/save`)).text,
        before,
        "nothing half-applied is stored",
      );
      assert.equal((await ann.get(`/games/${created.id}/transcript`)).json.transcript.length, 1);
    }

    mode.current = "offline";
    assert.equal((await host.post(`/games/${created.id}/turn`)).status, 202);
    const done = await eventually(
      () => host.get(`/games/${created.id}`),
      (a) => a.json.tick === 1,
      30_000,
    );
    assert.equal(done.json.tick, 1);
    const transcript = (await ann.get(`/games/${created.id}/transcript`)).json.transcript;
    assert.deepEqual(
      transcript[1].inputs.actions,
      [{ player: "Ann", text: "walk to the Gutted Eel" }],
      "the same action ran, once",
    );
    stream.close();
  });
});
