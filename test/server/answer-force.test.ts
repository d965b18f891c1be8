import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Provider } from "../../src/ai/provider.ts";
import { partyOfferedTheDebt, startParty } from "./chaos-kit.ts";
import { Client, eventually, offlineNarrator, STORE_NAME, suiteServers } from "./harness.ts";

const QUEST = "The Keeper's Debt";

/**
 * A forced turn survives a quest answer: the host forces the turn (202, "running") while a quest
 * answer's step holds the game. The answer's commit leaves the turn it answers in as it was (its
 * force, retry time and opening: Store commitCheck's `answer`), so the forced turn, refused while the
 * answer held the game, is still due after it and runs. The window is made wide and certain by one
 * step slot taken by another game's slow turn: the answer waits for it holding its claim, the force
 * behind it. (Before, the answer's commit cleared the force and the turn never ran.)
 */
describe(`server: a forced turn while a quest answer's step holds the game (${STORE_NAME})`, () => {
  const start = suiteServers();
  let slowNext = false;

  it("runs the forced turn", { timeout: 90_000 }, async () => {
    const running = await start({
      maxSteps: 1,
      sweepMs: 1000,
      narrator: (world, game) =>
        new Proxy(offlineNarrator(world, game), {
          get(target, key) {
            const value = Reflect.get(target, key);
            if (key === "classify")
              return async (...args: unknown[]) => {
                if (slowNext) {
                  slowNext = false;
                  await new Promise((r) => setTimeout(r, 3000));
                }
                return (value as (...a: unknown[]) => unknown).apply(target, args);
              };
            return typeof value === "function" ? value.bind(target) : value;
          },
        }) as Provider,
    });
    const url = running.url;
    const { id, host, players } = await partyOfferedTheDebt(url);
    // Ann acts for turn 2; Bo does not.
    assert.equal(
      (await players[0]!.post(`/games/${id}/actions`, { text: "look around", idempotencyKey: "a2" })).status,
      202,
    );

    // Another game's slow turn takes the process's only step slot.
    const other = await startParty(url, 1, 5);
    slowNext = true;
    await new Client(url, other.tokens[0]).post(`/games/${other.id}/actions`, {
      text: "look around",
      idempotencyKey: "o1",
    });
    await new Promise((r) => setTimeout(r, 300));
    // Ann accepts the offered quest: the answer claims the game and waits for the slot.
    const answered = players[0]!.post(`/games/${id}/quests/${encodeURIComponent(QUEST)}/accept`);
    await new Promise((r) => setTimeout(r, 300));
    // The host forces turn 2 meanwhile: acknowledged.
    const forced = await host.post(`/games/${id}/turn`);
    assert.equal(forced.status, 202, forced.text);
    assert.equal(forced.json.turn, "running");
    assert.equal((await answered).status, 200, "the answer is applied");

    try {
      await eventually(
        () => host.get(`/games/${id}`),
        (a) => a.json.tick === 2,
        15_000,
      );
    } catch {
      const row = (await running.server.store.game(id))!;
      const steps = await running.server.store.tree(id);
      assert.fail(
        `the forced turn never ran: 15 s after the force the game is at tick ${row.tick}, forced_tick ${row.forced_tick}, steps ${steps.map((s) => s.kind).join(",")}`,
      );
    }
  });
});
