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
 * `--max-steps 1`: one step at a time in the process, but a step waiting for a remote model gives
 * its slot up. Game A's narrator (a local server speaking the OpenAI protocol) never answers; game
 * B (offline narrator) plays its turn meanwhile, long before A's turn times out.
 */
describe(`server: a step waiting for a remote model frees its slot (${STORE_NAME})`, () => {
  let running: Running;
  let mock: MockServer;
  const remote = { on: false };

  before(async () => {
    mock = await MockServer.start();
    mock.handler = () => ({ hang: true });
    running = await startServer({
      maxSteps: 1,
      narrator: (world, game) =>
        remote.on && game.narrator !== "offline"
          ? createOpenAiProvider(world, {
              baseUrl: mock.url,
              model: "test-model",
              timeoutMs: 15_000,
              maxRetries: 0,
              retry: { sleep: async () => {} },
            })
          : offlineNarrator(world, game),
    });
  });
  after(async () => {
    await running.close();
    await mock.close();
    await dropStore(running.where);
    await closeSandbox();
  });

  it("runs another game's turn while one waits for its model", { timeout: 60_000 }, async () => {
    const anyone = new Client(running.url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    const game = async (narrator: "server" | "offline") => {
      const created = (await anyone.post("/games", { world: hash, seed: 3, narrator })).json;
      const joined = (
        await anyone.post("/games/join", { invite: created.invite, character: { name: "Ann" } })
      ).json;
      const host = new Client(running.url, created.hostToken);
      assert.equal((await host.post(`/games/${created.id}/start`)).status, 200);
      return {
        id: created.id as string,
        host,
        player: new Client(running.url, joined.token),
        token: joined.token,
      };
    };
    const a = await game("server");
    const b = await game("offline");
    remote.on = true;
    const streamA = listen(`${running.url}/games/${a.id}/events`, a.token);
    try {
      const act = (g: typeof a) =>
        g.player.post(`/games/${g.id}/actions`, { text: "walk to the Gutted Eel", idempotencyKey: "k1" });
      assert.equal((await act(a)).status, 202);
      // A's step holds the only slot until it calls its model, which never answers.
      await eventually(
        async () => mock.requests.length,
        (n) => n >= 1,
        10_000,
      );
      const sent = performance.now();
      assert.equal((await act(b)).status, 202);
      await eventually(
        () => b.host.get(`/games/${b.id}`),
        (r) => r.json.tick === 1,
        10_000,
      );
      assert.ok(performance.now() - sent < 10_000);
      assert.equal((await a.host.get(`/games/${a.id}`)).json.tick, 0, "A still waits for its model");
      assert.ok(
        !streamA.events.some((e) => e.event === "turn-failed"),
        "B's turn ran before A's model timed out",
      );
    } finally {
      streamA.close();
    }
  });
});
