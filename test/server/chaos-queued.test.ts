import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { actionKey, actionText, type Party, type Proc, startParty, startProc } from "./chaos-kit.ts";
import {
  Client,
  closeSandbox,
  DATABASE_URL,
  dropStore,
  eventually,
  freshStore,
  type Running,
  STORE_NAME,
  startServer,
} from "./harness.ts";

const GAMES = 5;

/**
 * Issue 32, finding 1: turns acknowledged (every player submitted, every answer 202) but still
 * queued in a process when it stops (SIGTERM or kill -9) are run by the next process, not left
 * at their tick for ever. The process runs one step at a time and each turn's intent takes 600 ms, so
 * most of the turns are waiting for a slot when it stops. PostgreSQL: the other process is already
 * running; SQLite: the data folder's next process.
 */
describe(`server: turns queued in a process that stops (${STORE_NAME})`, () => {
  const stores: { data?: string; database?: string; schema?: string }[] = [];
  const others: Running[] = [];
  after(async () => {
    for (const other of others) await other.close();
    for (const where of stores) await dropStore(where);
    await closeSandbox();
  });

  for (const how of ["SIGTERM", "kill -9"] as const)
    it(`runs every due turn after ${how}`, { timeout: 120_000 }, async () => {
      const where = freshStore();
      stores.push(where);
      let other: Running | undefined;
      if (DATABASE_URL) {
        // The other process sweeps as the default does.
        other = await startServer({ where, sweepMs: 1000 });
        others.push(other);
      }
      const proc: Proc = await startProc(where, {
        TALEFORGE_CHILD_NARRATOR: "slow:600",
        TALEFORGE_CHILD_MAX_STEPS: "1",
      });
      const parties: Party[] = [];
      for (let g = 0; g < GAMES; g++) parties.push(await startParty(proc.url, 2, 10 + g));
      const send = (party: Party, p: number) =>
        new Client(proc.url, party.tokens[p]).post(`/games/${party.id}/actions`, {
          text: actionText(p, 1),
          idempotencyKey: actionKey(p, 1),
        });
      for (const party of parties) assert.equal((await send(party, 0)).status, 202);
      const acks = await Promise.all(parties.map((party) => send(party, 1)));
      for (const ack of acks) assert.equal(ack.status, 202, ack.text);
      // The first turn is running; the others wait for the process's only slot.
      await new Promise((r) => setTimeout(r, 300));
      if (how === "SIGTERM") await proc.stop();
      else await proc.kill();

      if (!other) {
        other = await startServer({ where, sweepMs: 1000 });
        others.push(other);
      }
      const survivor: Running = other;
      for (const party of parties) {
        const host = new Client(survivor.url, party.host.token);
        const done = await eventually(
          () => host.get(`/games/${party.id}`),
          (a) => a.json.tick === 1,
          30_000,
        );
        assert.equal(done.json.tick, 1, `game ${party.id} ran its due turn`);
        const transcript = (
          await new Client(survivor.url, party.tokens[0]).get(`/games/${party.id}/transcript`)
        ).json.transcript;
        assert.equal(transcript.length, 2, "the opening and one turn: the turn ran once");
        assert.deepEqual(
          transcript[1].inputs.actions.map((a: { text: string }) => a.text).sort(),
          [actionText(0, 1), actionText(1, 1)].sort(),
        );
      }
    });
});
