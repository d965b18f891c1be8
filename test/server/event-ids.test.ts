import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { readWalkthrough } from "../helpers/walkthrough.ts";
import {
  Client,
  closeSandbox,
  DATABASE_URL,
  dropStore,
  listen,
  type Running,
  type SseEvent,
  STORE_NAME,
  startChildServer,
  startServer,
} from "./harness.ts";

/**
 * Event ids per game (docs/server.md "Events"): a player's stream numbers the game's events 1, 2, 3...
 * with no gap, whatever other games do at the same time (on another process too, on PostgreSQL); the
 * host's log events are numbered after the event before them (`12.1`), so they leave no gap in the
 * players' ids, and a stream resumes after either kind.
 */
describe(`server: per-game event ids (${STORE_NAME})`, () => {
  let running: Running;
  let other: { url: string; close(): Promise<void> } | undefined;
  before(async () => {
    running = await startServer();
    if (DATABASE_URL) other = await startChildServer(running.where);
  });
  after(async () => {
    await other?.close();
    await running.close();
    await dropStore(running.where);
    await closeSandbox();
  });

  it("numbers each game's events without gaps while games interleave, the host's log in between", {
    timeout: 120_000,
  }, async () => {
    const walkthrough = readWalkthrough();
    const anyone = new Client(running.url);
    const hash = (await anyone.get("/worlds")).json.worlds[0].hash as string;
    const games: { id: string; host: Client; players: Client[]; via: string }[] = [];
    for (const [n, via] of [running.url, other?.url ?? running.url, running.url].entries()) {
      const created = (await anyone.post("/games", { world: hash, seed: n + 1 })).json;
      const players: Client[] = [];
      for (const name of ["Ann", "Bea"]) {
        const joined = await new Client(via).post("/games/join", {
          invite: created.invite,
          character: { name },
        });
        players.push(new Client(via, joined.json.token));
      }
      games.push({ id: created.id, host: new Client(via, created.hostToken), players, via });
    }
    const streams = games.map((g) => ({
      player: listen(`${running.url}/games/${g.id}/events`, g.players[0]!.token!),
      host: listen(`${running.url}/games/${g.id}/events`, g.host.token!),
    }));
    for (const g of games) assert.equal((await g.host.post(`/games/${g.id}/start`)).status, 200);
    const turns = 4;
    for (let tick = 1; tick <= turns; tick++) {
      // Every game's submissions interleaved, then their turns run at the same time.
      for (const p of [0, 1])
        for (const g of games) {
          const sent = await g.players[p]!.post(`/games/${g.id}/actions`, {
            text: p === 0 ? walkthrough.steps[tick - 1]!.command : "follow Ann",
            idempotencyKey: `t${tick}`,
          });
          assert.equal(sent.status, 202, sent.text);
        }
      for (const [n, s] of streams.entries()) {
        await s.player.until((events) => events.some((e) => e.event === "turn" && e.data.tick === tick));
        // A quest offer answered: a step of its own, with a notice in the host's log.
        const turn = s.player.events.find((e) => e.event === "turn" && e.data.tick === tick)!;
        for (const prompt of turn.data.prompts as { quest: string }[]) {
          const g = games[n]!;
          const answered = await g.players[1]!.post(
            `/games/${g.id}/quests/${encodeURIComponent(prompt.quest)}/accept`,
          );
          assert.equal(answered.status, 200, answered.text);
        }
      }
    }
    for (const s of streams)
      await s.host.until((events) => events.filter((e) => e.event === "turn").length > turns);
    const stored = (events: SseEvent[]) => events.filter((e) => e.id !== undefined);
    for (const [n, s] of streams.entries()) {
      const ids = stored(s.player.events).map((e) => e.id!);
      assert.deepEqual(
        ids,
        ids.map((_, i) => String(i + 1)),
        `game ${n + 1}: the player's ids are 1..${ids.length}, no gap`,
      );
      const hostIds = stored(s.host.events).map((e) => e.id!);
      const logs = stored(s.host.events).filter((e) => e.event === "log");
      assert.ok(logs.length > 0, "the host got log events");
      assert.ok(
        logs.every((e) => /^\d+\.\d+$/.test(e.id!)),
        `log events are numbered after an event: ${logs.map((e) => e.id)}`,
      );
      assert.deepEqual(
        hostIds.filter((id) => !id.includes(".")),
        ids,
        "the host sees the players' events with the same ids",
      );
      assert.equal(new Set(hostIds).size, hostIds.length, "no id twice");
      // Resuming after a log event's id (host) and after the event before it (player).
      const log = logs.at(-1)!;
      const resumedHost = listen(
        `${running.url}/games/${games[n]!.id}/events`,
        games[n]!.host.token!,
        log.id,
      );
      const resumedPlayer = listen(
        `${running.url}/games/${games[n]!.id}/events`,
        games[n]!.players[0]!.token!,
        log.id!.split(".")[0],
      );
      await games[n]!.players[1]!.post(`/games/${games[n]!.id}/actions`, {
        text: "wait",
        idempotencyKey: "last",
      });
      for (const r of [resumedHost, resumedPlayer])
        await r.until((events) => events.some((e) => e.event === "submission"), 10_000);
      const after = hostIds.slice(hostIds.indexOf(log.id!) + 1);
      assert.deepEqual(
        stored(resumedHost.events)
          .map((e) => e.id)
          .slice(0, after.length),
        after,
      );
      const afterPlayer = ids.filter((id) => Number(id) > Number(log.id!.split(".")[0]));
      assert.deepEqual(
        stored(resumedPlayer.events)
          .map((e) => e.id)
          .slice(0, afterPlayer.length),
        afterPlayer,
      );
      assert.ok(stored(resumedPlayer.events).every((e) => e.event !== "log"));
      resumedHost.close();
      resumedPlayer.close();
      s.player.close();
      s.host.close();
    }
  });
});
