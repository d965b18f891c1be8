import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import {
  Client,
  closeSandbox,
  DATABASE_URL,
  dropStore,
  eventually,
  freshStore,
  STORE_NAME,
  startChildServer,
  startServer,
  WORLD_TEXT,
} from "./harness.ts";

type Op =
  | { kind: "submit"; player: number; server: number }
  | { kind: "repeat"; server: number }
  | { kind: "force"; server: number }
  | { kind: "listen"; player: number; server: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("submit" as const),
    player: fc.integer({ min: 0, max: 2 }),
    server: fc.integer({ min: 0, max: 1 }),
  }),
  fc.record({ kind: fc.constant("repeat" as const), server: fc.integer({ min: 0, max: 1 }) }),
  fc.record({ kind: fc.constant("force" as const), server: fc.integer({ min: 0, max: 1 }) }),
  fc.record({
    kind: fc.constant("listen" as const),
    player: fc.integer({ min: 0, max: 2 }),
    server: fc.integer({ min: 0, max: 1 }),
  }),
);

/**
 * Random interleavings of submissions, repeated submissions (the same key),
 * forced turns and event streams that open and drop, sent concurrently to two
 * servers sharing one store: every acknowledged action is applied exactly
 * once, in the turn it was acknowledged for, and nothing else is applied.
 */
describe(`server: interleavings across two servers (${STORE_NAME}${DATABASE_URL ? ", two processes" : ", one process"})`, () => {
  const where = freshStore();
  let servers: { url: string; close(): Promise<void> }[] = [];
  let hash = "";
  before(async () => {
    // PostgreSQL: two real processes (this one and a child). SQLite serves from one process by design
    // (a second process on the folder is refused), so there the two servers share this process.
    servers = [
      await startServer({ where }),
      DATABASE_URL ? await startChildServer(where) : await startServer({ where }),
    ];
    hash = (await new Client(servers[0]!.url).call("POST", "/worlds", WORLD_TEXT)).json.hash;
  });
  after(async () => {
    for (const s of servers) await s.close();
    await dropStore(where);
    await closeSandbox();
  });

  it("never loses or duplicates an acknowledged action", { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { minLength: 2, maxLength: 6 }),
        async (batches) => {
          const anyone = new Client(servers[0]!.url);
          const created = (await anyone.post("/games", { world: hash, seed: 1, narrator: "offline" })).json;
          const tokens: string[] = [];
          for (const name of ["A", "B", "C"])
            tokens.push(
              (await anyone.post("/games/join", { invite: created.invite, character: { name } })).json.token,
            );
          assert.equal(
            (await new Client(servers[1]!.url, created.hostToken).post(`/games/${created.id}/start`)).status,
            200,
          );
          const acknowledged = new Map<string, { player: string; text: string; tick: number }>();
          let last: { player: number; key: string; text: string } | undefined;
          let n = 0;
          for (const batch of batches) {
            await Promise.all(
              batch.map(async (o) => {
                const url = servers[o.server]!.url;
                if (o.kind === "force") {
                  const answer = await new Client(url, created.hostToken).post(`/games/${created.id}/turn`);
                  assert.ok([202, 409].includes(answer.status), answer.text);
                  return;
                }
                if (o.kind === "listen") {
                  const controller = new AbortController();
                  const response = await fetch(`${url}/games/${created.id}/events`, {
                    headers: { authorization: `Bearer ${tokens[o.player]}` },
                    signal: controller.signal,
                  });
                  assert.equal(response.status, 200);
                  controller.abort();
                  return;
                }
                const sent =
                  o.kind === "repeat" && last
                    ? last
                    : { player: o.kind === "submit" ? o.player : 0, key: `k${n}`, text: `action ${n++}` };
                last = sent;
                const answer = await new Client(url, tokens[sent.player]).post(
                  `/games/${created.id}/actions`,
                  { text: sent.text, idempotencyKey: sent.key },
                );
                if (answer.status === 202) {
                  const prior = acknowledged.get(answer.json.submission);
                  if (prior) assert.equal(prior.text, sent.text, "a repeated key is the same submission");
                  acknowledged.set(answer.json.submission, {
                    player: "ABC"[sent.player]!,
                    text: sent.text,
                    tick: answer.json.tick,
                  });
                } else
                  assert.ok(
                    ["submission/conflict", "game/busy"].includes(answer.json.error.code),
                    answer.text,
                  );
              }),
            );
          }
          // Let every acknowledged action run: force the turns still waiting.
          const host = new Client(servers[0]!.url, created.hostToken);
          const maxTick = Math.max(0, ...[...acknowledged.values()].map((a) => a.tick));
          await eventually(
            async () => {
              const game = (await host.get(`/games/${created.id}`)).json;
              if (game.tick < maxTick && game.players.some((p: { submitted: boolean }) => p.submitted))
                await host.post(`/games/${created.id}/turn`);
              return game;
            },
            (game) => game.tick >= maxTick,
            60_000,
          );
          const transcript = (await host.get(`/games/${created.id}/transcript`)).json.transcript as {
            kind: string;
            tick: number;
            inputs: { actions?: { player: string; text: string }[] };
          }[];
          const applied = transcript
            .filter((t) => t.kind === "turn")
            .flatMap((t) => (t.inputs.actions ?? []).map((a) => ({ ...a, tick: t.tick })));
          const expected = [...acknowledged.values()].sort((a, b) => a.text.localeCompare(b.text));
          assert.deepEqual(
            applied.sort((a, b) => a.text.localeCompare(b.text)),
            expected,
          );
        },
      ),
      { numRuns: 6, seed: 20261125, endOnFailure: true },
    );
  });
});
