import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { partyOfferedTheDebt } from "./chaos-kit.ts";
import { STORE_NAME, suiteServers } from "./harness.ts";

const QUEST = "The Keeper's Debt";
const TIMEOUT_S = 20;

/**
 * A quest answer does not restart the turn's timeout: an answer's commit leaves the turn's opening
 * time as it was (Store commitCheck's `answer`), and Store.dueGames counts the timeout from it. Ann
 * acts for turn 2 and Bo does not; Ann accepts a quest just before the timeout: the turn still runs
 * when it times out, not a whole timeout later (before, each answer postponed it again).
 */
describe(`server: a quest answer and the turn's timeout (${STORE_NAME})`, () => {
  const start = suiteServers();

  it("runs the timed-out turn within 10 s of its timeout", { timeout: 120_000 }, async () => {
    const running = await start({ sweepMs: 1000 });
    const url = running.url;
    const { id, players } = await partyOfferedTheDebt(url, { turnTimeoutSeconds: TIMEOUT_S });
    const opened = Number((await running.server.store.game(id))!.turn_opened_at);
    const due = opened + TIMEOUT_S * 1000;
    assert.equal(
      (await players[0]!.post(`/games/${id}/actions`, { text: "look around", idempotencyKey: "a2" })).status,
      202,
      "Ann acts for turn 2; Bo does not: the turn runs at its timeout",
    );
    // Just before the timeout, Ann accepts the offered quest (an answer that decides: one step).
    await new Promise((r) => setTimeout(r, Math.max(0, due - 1500 - Date.now())));
    const answered = await players[0]!.post(`/games/${id}/quests/${encodeURIComponent(QUEST)}/accept`);
    assert.equal(answered.status, 200, answered.text);
    let ranAt: number | undefined;
    while (Date.now() < due + 30_000) {
      if ((await running.server.store.game(id))!.tick === 2) {
        ranAt = Date.now();
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(
      ranAt !== undefined && ranAt - due <= 10_000,
      `the turn was due ${TIMEOUT_S} s after it opened and ran ${ranAt === undefined ? "not within 30 s" : `${ranAt - due} ms`} after that`,
    );
  });
});
