import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { MockServer } from "../ai/mock-server.ts";
import {
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
 * `--max-steps 1`: one step at a time in the process, but a step waiting for a remote model gives
 * its slot up. Game A's narrator (a local server speaking the OpenAI protocol) never answers; game
 * B (offline narrator) plays its turn meanwhile, long before A's turn times out.
 */
describe(`server: a step waiting for a remote model frees its slot (${STORE_NAME})`, () => {
  let mock: MockServer;
  const remote = { on: false };

  before(async () => {
    mock = await MockServer.start();
    mock.handler = () => ({ hang: true });
  });
  const running = suiteServer({
    maxSteps: 1,
    narrator: (world, game) =>
      remote.on && game.narrator !== "offline"
        ? remoteNarrator(world, mock.url, 15_000)
        : offlineNarrator(world, game),
  });
  after(async () => {
    await mock.close();
  });

  it("runs another game's turn while one waits for its model", { timeout: 60_000 }, async () => {
    const hash = await uploadWorld(running.url);
    const game = async (narrator: "server" | "offline") => {
      const made = await startedGame(running.url, hash, { body: { seed: 3, narrator } });
      return { id: made.id, host: made.host, player: made.players[0]!, token: made.tokens[0]! };
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
