import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createOpenAiProvider } from "../../src/ai/openai/index.ts";
import { MockServer } from "../ai/mock-server.ts";
import {
  Client,
  closeSandbox,
  dropStore,
  eventually,
  listen,
  offlineNarrator,
  type Running,
  STORE_NAME,
  startServer,
  WORLD_TEXT,
} from "./harness.ts";

/**
 * A narrator that fails: a local server speaking the OpenAI protocol answers
 * 500, or never answers. The game stays at its previous turn, the submitted
 * actions stay, and the turn runs once the narrator is back.
 */
describe(`server: a failing narrator (${STORE_NAME})`, () => {
  let running: Running;
  let mock: MockServer;
  const mode = { current: "offline" as "offline" | "500" | "hang" };

  before(async () => {
    mock = await MockServer.start();
    mock.handler = () =>
      mode.current === "hang" ? { hang: true } : { status: 500, json: { error: { message: "boom" } } };
    running = await startServer({
      narrator: (world, game) =>
        mode.current === "offline"
          ? offlineNarrator(world, game)
          : createOpenAiProvider(world, {
              baseUrl: mock.url,
              model: "test-model",
              timeoutMs: 500,
              maxRetries: 0,
              retry: { sleep: async () => {} },
            }),
    });
  });
  after(async () => {
    await running.close();
    await mock.close();
    await dropStore(running.where);
    await closeSandbox();
  });

  it("keeps the game at its previous turn when the narrator answers 500 or hangs, then runs the same actions", async () => {
    const anyone = new Client(running.url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    const created = (await anyone.post("/games", { world: hash, seed: 3 })).json;
    const host = new Client(running.url, created.hostToken);
    const joined = (await anyone.post("/games/join", { invite: created.invite, character: { name: "Ann" } }))
      .json;
    const ann = new Client(running.url, joined.token);

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
    const stream = listen(`${running.url}/games/${created.id}/events`, joined.token);
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
