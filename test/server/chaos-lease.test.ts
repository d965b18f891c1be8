import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Provider } from "../../src/ai/provider.ts";
import { startParty } from "./chaos-kit.ts";
import { Client, eventually, listen, offlineNarrator, STORE_NAME, suiteServers } from "./harness.ts";

/**
 * Issue 32, finding 2, the other side of short claims: a step that runs longer than its lease
 * (a slow model call) keeps its game, because it renews its claim while it runs (a heartbeat); the
 * sweep does not take the game over and run the turn a second time.
 */
describe(`server: a step longer than its lease keeps its game (${STORE_NAME})`, () => {
  const start = suiteServers();
  let calls = 0;

  it("renews the claim while the model answers slowly; the turn runs once", { timeout: 60_000 }, async () => {
    const running = await start({
      leaseMs: 2000,
      sweepMs: 100,
      narrator: (world, game) =>
        new Proxy(offlineNarrator(world, game), {
          get(target, key) {
            const value = Reflect.get(target, key);
            if (key === "classify")
              return async (...args: unknown[]) => {
                calls++;
                // Three leases long.
                await new Promise((r) => setTimeout(r, 6000));
                return (value as (...a: unknown[]) => unknown).apply(target, args);
              };
            return typeof value === "function" ? value.bind(target) : value;
          },
        }) as Provider,
    });
    const party = await startParty(running.url, 1, 7);
    const stream = listen(`${running.url}/games/${party.id}/events`, party.tokens[0]!);
    try {
      const ann = new Client(running.url, party.tokens[0]);
      const sent = await ann.post(`/games/${party.id}/actions`, { text: "look around", idempotencyKey: "k" });
      assert.equal(sent.status, 202);
      await eventually(
        () => party.host.get(`/games/${party.id}`),
        (a) => a.json.tick === 1,
        30_000,
      );
      // A sweep or two more: a takeover would show as a second call.
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(calls, 1, "the model was asked once: nobody took the game over while it answered");
      assert.ok(!stream.events.some((e) => e.event === "turn-failed"), "no step failed (taken over)");
      const transcript = (await ann.get(`/games/${party.id}/transcript`)).json.transcript;
      assert.equal(transcript.length, 2);
    } finally {
      stream.close();
    }
  });
});
