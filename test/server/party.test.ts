import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { unpackRow } from "../../src/server/store/packed.ts";
import { readWalkthrough } from "../helpers/walkthrough.ts";
import { Client, listen, type SseEvent, STORE_NAME, suiteServer, WORLD_TEXT } from "./harness.ts";

const WORLD = JSON.parse(WORLD_TEXT);

/** Every hiddenInfo string of the example world: none may reach a player. */
function hiddenStrings(): string[] {
  const out: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object")
      for (const [k, v] of Object.entries(value)) {
        if (k === "hiddenInfo" && typeof v === "string") out.push(v);
        else walk(v);
      }
  };
  walk(WORLD);
  return out;
}

describe(`server: a three-player game over HTTP (${STORE_NAME})`, () => {
  const running = suiteServer();

  it("plays the example world's main quest to the end with three players", { timeout: 120_000 }, async () => {
    const walkthrough = readWalkthrough();
    const anyone = new Client(running.url);
    const upload = await anyone.call("POST", "/worlds?name=harbor", WORLD_TEXT);
    assert.equal(upload.status, 200, upload.text); // the example world is bundled: stored at start
    const hash = upload.json.hash as string;
    assert.match(hash, /^[0-9a-f]{64}$/);
    const again = await anyone.call("POST", "/worlds?name=harbor", WORLD_TEXT);
    assert.equal(again.status, 200);
    assert.equal(again.json.created, false, "the same bytes are stored once");

    const created = await anyone.post("/games", { world: hash, storyStart: walkthrough.storyStart, seed: 7 });
    assert.equal(created.status, 201, created.text);
    const { id, hostToken, invite } = created.json;
    const host = new Client(running.url, hostToken);

    const characters = [
      { premade: walkthrough.player.premade },
      { name: "Ada Quill", traits: ["Noble"] },
      { name: "Bo Tarr", traits: ["Dockborn"] },
    ];
    const players: Client[] = [];
    const names: string[] = [];
    for (const character of characters) {
      const joined = await anyone.post("/games/join", { invite, character });
      assert.equal(joined.status, 201, joined.text);
      assert.equal(joined.json.gameId, id);
      assert.ok(joined.json.token.length >= 40, "tokens carry at least 128 random bits");
      players.push(new Client(running.url, joined.json.token));
      names.push(joined.json.name);
    }
    const taken = await anyone.post("/games/join", { invite, character: { name: "Ada Quill" } });
    assert.equal(taken.status, 409);
    assert.equal(taken.json.error.code, "game/name-taken");

    // A player's SSE stream, opened before the start; it drops mid-game and resumes.
    let stream = listen(`${running.url}/games/${id}/events`, players[1]!.token!);
    assert.equal(await stream.ready, 200);
    const hostStream = listen(`${running.url}/games/${id}/events`, hostToken);

    const start = await host.post(`/games/${id}/start`);
    assert.equal(start.status, 200, start.text);
    assert.ok(start.json.story.length > 0);

    let tick = 0;
    const received: SseEvent[] = [];
    let step = 0;
    for (const command of walkthrough.steps) {
      step++;
      const actions = [command.command, "follow the others", "keep watch"];
      for (const [i, player] of players.entries()) {
        const key = `t${tick + 1}-p${i}`;
        const sent = await player.post(`/games/${id}/actions`, { text: actions[i], idempotencyKey: key });
        assert.equal(sent.status, 202, sent.text);
        if (i === 0) {
          const duplicate = await player.post(`/games/${id}/actions`, {
            text: actions[i],
            idempotencyKey: key,
          });
          assert.equal(duplicate.status, 202);
          assert.equal(duplicate.json.duplicate, true, "the same key twice is one submission");
          assert.equal(duplicate.json.submission, sent.json.submission);
        }
      }
      const turn = await stream.until((events) =>
        events.some((e) => e.event === "turn" && e.data.tick === tick + 1),
      );
      void turn;
      tick++;
      const result = stream.events.find((e) => e.event === "turn" && e.data.tick === tick)!.data;
      assert.deepEqual(
        result.fired
          .map((f: { trigger: string }) => f.trigger)
          .filter((t: string) => command.fired.includes(t)),
        command.fired,
        `step ${step} (${command.command}) fires ${command.fired.join(", ")}`,
      );
      assert.equal(result.actions.length, 3, "every player's action is in the turn, once");
      for (const prompt of result.prompts as { quest: string }[]) {
        // One player answers the offer for the party.
        const answered = await players[2]!.post(
          `/games/${id}/quests/${encodeURIComponent(prompt.quest)}/accept`,
        );
        assert.equal(answered.status, 200, answered.text);
        assert.equal(answered.json.status, "accepted");
      }
      if (step === 4) {
        // Drop the stream and resume from the last event id: nothing is missed.
        const lastId = stream.events.filter((e) => e.id !== undefined).at(-1)!.id!;
        received.push(...stream.events);
        stream.close();
        const missedWhileAway = await players[0]!.post(`/games/${id}/actions`, {
          text: walkthrough.steps[step]!.command,
          idempotencyKey: `t${tick + 1}-p0`,
        });
        assert.equal(missedWhileAway.status, 202);
        stream = listen(`${running.url}/games/${id}/events`, players[1]!.token!, lastId);
        await stream.until((events) =>
          events.some((e) => e.event === "submission" && e.data.tick === tick + 1),
        );
        assert.ok(
          Number(stream.events.find((e) => e.id)!.id) > Number(lastId),
          "resumes after the last id seen",
        );
        const sentAgain = await players[0]!.post(`/games/${id}/actions`, {
          text: walkthrough.steps[step]!.command,
          idempotencyKey: `t${tick + 1}-p0`,
        });
        assert.equal(sentAgain.json.duplicate, true);
      }
    }
    received.push(...stream.events);
    stream.close();

    const ids = received.filter((e) => e.id !== undefined).map((e) => Number(e.id));
    assert.deepEqual(
      ids,
      [...new Set(ids)].sort((a, b) => a - b),
      "every event once, in order, across the reconnect",
    );
    const turns = received.filter((e) => e.event === "turn").map((e) => e.data.tick);
    assert.deepEqual(
      turns,
      Array.from({ length: walkthrough.steps.length + 1 }, (_, i) => i),
      "no turn event missed",
    );

    const state = await players[0]!.get(`/games/${id}`);
    assert.equal(state.status, 200);
    assert.equal(state.json.tick, walkthrough.steps.length);
    const quest = state.json.state.quests.find((q: { quest: string }) => q.quest === "The Keeper's Debt");
    assert.equal(quest.status, walkthrough.expect.quests["The Keeper's Debt"]);
    assert.equal(state.json.state.storage, undefined, "players never see storage");

    // scope "player": noble_audience fired for the Noble player only.
    const transcript = await players[0]!.get(`/games/${id}/transcript`);
    assert.equal(transcript.status, 200);
    const fired = transcript.json.transcript.flatMap(
      (t: { result: { fired?: { trigger: string; players: string[] }[] } }) => t.result.fired ?? [],
    );
    const noble = fired.filter((f: { trigger: string }) => f.trigger === "noble_audience");
    assert.equal(noble.length, 1, "noble_audience fires once");
    assert.deepEqual(noble[0].players, ["Ada Quill"]);

    // Issue 34: a party's story names who does what, and says which paragraph tells of whom, so
    // each player's page can mark their own lines; the segments are the story, paragraph by paragraph.
    type Step = {
      kind: string;
      narration: string;
      result: { segments?: { actor: string | null; text: string }[] };
    };
    const told = (transcript.json.transcript as Step[]).filter((t) => t.kind === "turn");
    for (const t of told) {
      assert.ok(t.result.segments, `a party turn has segments: ${t.narration}`);
      assert.equal(t.result.segments.map((s) => s.text).join("\n\n"), t.narration);
    }
    const actors = new Set(told.flatMap((t) => t.result.segments!.map((s) => s.actor)));
    for (const name of names) assert.ok(actors.has(name), `a line told of ${name}`);
    for (const t of told)
      for (const s of t.result.segments!)
        if (s.actor !== null) assert.ok(s.text.includes(s.actor), `"${s.text}" names ${s.actor}`);

    // The host's views: the log (filtered) and the trace.
    const all = await host.get(`/games/${id}/log`);
    assert.equal(all.status, 200);
    assert.equal(all.json.nextOffset, undefined, "the whole log fits one page");
    // Page by page, two entries at a time, the same entries in the same order.
    assert.ok(all.json.entries.length >= 3, "enough entries to page through");
    const paged: unknown[] = [];
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const page = await host.get(`/games/${id}/log?limit=2&offset=${offset}`);
      assert.ok(page.json.entries.length <= 2);
      paged.push(...page.json.entries);
      assert.ok(page.json.nextOffset === undefined || page.json.nextOffset === offset + 2);
      offset = page.json.nextOffset;
    }
    assert.deepEqual(paged, all.json.entries);
    const notices = await host.get(`/games/${id}/log?type=notice`);
    assert.ok(notices.json.entries.length > 0, "the quest answer is logged");
    // The log names whose answer decided the party's (players[2], Bo Tarr, answered every offer).
    const answers = notices.json.entries.filter((e: { message: string }) => /quest "/.test(e.message));
    assert.ok(answers.length > 0);
    for (const entry of answers)
      assert.match(
        entry.message,
        /^The party accepted quest "[^"]+" on Bo Tarr's answer; it is now accepted\.$/,
      );
    assert.ok(notices.json.entries.every((e: { type: string }) => e.type === "notice"));
    assert.ok(
      notices.json.entries.length < all.json.entries.length ||
        all.json.entries.every((e: { type: string }) => e.type === "notice"),
    );
    const byTrigger = all.json.entries.find((e: { trigger: string | null }) => e.trigger !== null);
    if (byTrigger) {
      const filtered = await host.get(
        `/games/${id}/log?trigger=${encodeURIComponent(byTrigger.trigger)}&tick=${byTrigger.tick}`,
      );
      assert.ok(filtered.json.entries.length > 0);
      assert.ok(
        filtered.json.entries.every(
          (e: { trigger: string; tick: number }) =>
            e.trigger === byTrigger.trigger && e.tick === byTrigger.tick,
        ),
      );
    }
    const trace = await host.get(`/games/${id}/trace`);
    assert.equal(trace.status, 200, trace.text);
    assert.match(trace.json.text, /light_the_beacon/);
    // A step stored before traces carried their conditions' subjects and the spent triggers is
    // completed from the previous step's save: the same text and the same trace as a step stored now.
    const db = running.server.store.db;
    // Rows as stored (SQLite deflates their large texts: store/packed.ts), read as text.
    const rows = (
      await db.selectFrom("turns").selectAll().where("game_id", "=", id).orderBy("seq").execute()
    ).map(unpackRow);
    let compared = 0;
    for (const row of rows) {
      if (row.trace === null) continue;
      const now = await host.get(`/games/${id}/trace?seq=${row.seq}`);
      assert.equal(now.status, 200, now.text);
      const old = JSON.parse(row.trace);
      delete old.trace.spent;
      for (const phase of old.trace.phases)
        for (const t of phase.triggers) for (const c of t.conditions) delete c.subject;
      await db
        .updateTable("turns")
        .set({ trace: JSON.stringify(old) })
        .where("game_id", "=", id)
        .where("seq", "=", row.seq)
        .execute();
      const completed = await host.get(`/games/${id}/trace?seq=${row.seq}`);
      assert.equal(completed.json.text, now.json.text, `step ${row.seq}`);
      assert.deepEqual(completed.json.trace, now.json.trace, `step ${row.seq}`);
      compared++;
    }
    assert.ok(compared > 5, `${compared} stored traces compared`);
    await hostStream.until((events) => events.some((e) => e.event === "log"));
    hostStream.close();

    // A player token on every host-only route: 403 with a stable code.
    for (const [method, path] of [
      ["GET", `/games/${id}/log`],
      ["GET", `/games/${id}/trace`],
      ["GET", `/games/${id}/save`],
      ["GET", `/games/${id}/cassette`],
      ["POST", `/games/${id}/turn`],
      ["POST", `/games/${id}/pause`],
      ["POST", `/games/${id}/resume`],
      ["POST", `/games/${id}/end`],
      ["POST", `/games/${id}/start`],
      ["POST", `/games/${id}/players/${"0".repeat(32)}/kick`],
    ] as const) {
      const answer = await players[1]!.call(method, path, method === "POST" ? {} : undefined);
      assert.equal(answer.status, 403, `${method} ${path}`);
      assert.equal(answer.json.error.code, "auth/host-only", `${method} ${path}`);
    }

    // Hidden fields never reach a player: scan every answer players got.
    const secrets = hiddenStrings();
    assert.ok(secrets.length >= 3);
    const playerTexts = [
      ...players.flatMap((p) => p.seen),
      ...anyone.seen,
      { route: "sse", text: received.map((e) => JSON.stringify(e.data)).join("\n") },
    ];
    for (const { route, text } of playerTexts)
      for (const secret of secrets)
        assert.ok(!text.includes(secret.slice(0, 40)), `${route} leaks hiddenInfo "${secret.slice(0, 40)}"`);

    // The save exports and imports as a new game at the same tick.
    const save = await host.get(`/games/${id}/save`);
    assert.equal(save.status, 200);
    assert.equal(save.json.state.tick, walkthrough.steps.length);
    const imported = await anyone.post("/games/import", { world: hash, save: save.text });
    assert.equal(imported.status, 201, imported.text);
    assert.deepEqual(imported.json.characters, names);
    const importedHost = new Client(running.url, imported.json.hostToken);
    const importedGame = await importedHost.get(`/games/${imported.json.id}`);
    assert.equal(importedGame.json.tick, walkthrough.steps.length);
  });
});
