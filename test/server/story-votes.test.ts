import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import {
  assertRefused,
  Client,
  DATABASE_URL,
  eventually,
  listen,
  STORE_NAME,
  startChildServer,
  startServer,
  suiteServer,
  WORLD_TEXT,
} from "./harness.ts";

/**
 * Party decisions on the story controls (issue 33; docs/server.md "Party votes"): the game's rules
 * say who may use each control (the host, anyone, a vote); a vote passes by a majority of the active
 * players and applies the control once, fails, expires or goes stale, and is open one at a time.
 * The votes' clock is the server's `clock` option: the test moves it on instead of waiting.
 */
describe(`server: party votes on the story controls (${STORE_NAME})`, () => {
  /** How far the votes' clock is ahead of the wall clock. */
  const skew = { ms: 0 };
  const running = suiteServer({ clock: () => Date.now() + skew.ms });

  /** A started game with `names` as its players, and the rules `controls`. */
  async function party(names: string[], controls?: Record<string, unknown>) {
    const anyone = new Client(running.url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    const created = await anyone.post("/games", { world: hash, seed: 11, ...(controls ? { controls } : {}) });
    assert.equal(created.status, 201, created.text);
    const host = new Client(running.url, created.json.hostToken);
    const players: Client[] = [];
    const tokens: string[] = [];
    for (const name of names) {
      const joined = await anyone.post("/games/join", { invite: created.json.invite, character: { name } });
      assert.equal(joined.status, 201, joined.text);
      players.push(new Client(running.url, joined.json.token));
      tokens.push(joined.json.token);
    }
    assert.equal((await host.post(`/games/${created.json.id}/start`)).status, 200);
    return {
      id: created.json.id as string,
      host,
      players,
      tokens,
      hostToken: created.json.hostToken as string,
    };
  }

  type Party = Awaited<ReturnType<typeof party>>;

  /** Every player acts; the turn runs. Answers the game at its new tick. */
  async function play(g: Party, text: string) {
    const tick = (await g.host.get(`/games/${g.id}`)).json.tick as number;
    for (const p of g.players) {
      const sent = await p.post(`/games/${g.id}/actions`, { text, idempotencyKey: randomUUID() });
      assert.equal(sent.status, 202, sent.text);
    }
    return (
      await eventually(
        () => g.host.get(`/games/${g.id}`),
        (a) => a.json.tick === tick + 1,
      )
    ).json;
  }

  const steps = async (g: Party) =>
    ((await g.host.get(`/games/${g.id}/transcript`)).json.transcript as { seq: number }[]).length;

  it("follows each control's rule: the host's, anyone's, a vote's; `may` says which", async () => {
    const g = await party(["Ann", "Bo"], { retry: "host", undo: "anyone", alter: "vote" });
    const [ann] = g.players as [Client, Client];
    await play(g, "I look around the docks.");
    await play(g, "walk to the Gutted Eel");
    const view = (await ann.get(`/games/${g.id}`)).json;
    assert.deepEqual(view.controls, {
      retry: "host",
      undo: "anyone",
      alter: "vote",
      rewind: "vote",
      branch: "host",
      voteSeconds: 60,
    });
    assert.deepEqual(view.may, {
      retry: "denied",
      undo: "apply",
      alter: "vote",
      rewind: "vote",
      branch: "denied",
    });
    assert.equal(view.vote, null);
    const hostView = (await g.host.get(`/games/${g.id}`)).json;
    assert.deepEqual(hostView.may, {
      retry: "apply",
      undo: "apply",
      alter: "vote",
      rewind: "vote",
      branch: "apply",
    });

    assertRefused(
      await ann.post(`/games/${g.id}/history/retry`),
      403,
      "game/control-denied",
      /Only the host may retry/,
    );
    assertRefused(
      await ann.post(`/games/${g.id}/history/switch`, { branch: 0 }),
      403,
      "game/control-denied",
      /branch/,
    );
    // Anyone: applied at once, as the host's request.
    const undone = await ann.post(`/games/${g.id}/history/undo`);
    assert.equal(undone.status, 200, undone.text);
    assert.equal(undone.json.control, "undo");
    assert.equal((await g.host.get(`/games/${g.id}`)).json.tick, 1);
    // The host's rule: the host applies it.
    const retried = await g.host.post(`/games/${g.id}/history/retry`);
    assert.equal(retried.status, 200, retried.text);
    // A vote: opened, not applied; the asker's ballot is yes.
    const asked = await ann.post(`/games/${g.id}/history/alter`, { text: "The fog lifts." });
    assert.equal(asked.status, 202, asked.text);
    assert.equal(asked.json.vote.control, "alter");
    assert.deepEqual(asked.json.vote.argument, { text: "The fog lifts." });
    assert.equal(asked.json.vote.by, "Ann");
    assert.deepEqual(asked.json.vote.tally, { yes: 1, no: 0, need: 2, voters: 2 });
    assert.equal((await g.host.get(`/games/${g.id}`)).json.vote.id, asked.json.vote.id);

    // The host changes the rules: everyone gets the event; a rule left out stays.
    const stream = listen(`${running.url}/games/${g.id}/events`, g.tokens[1]!);
    assert.equal(await stream.ready, 200);
    const set = await g.host.call("PUT", `/games/${g.id}/controls`, { retry: "anyone", voteSeconds: 30 });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.json.controls.retry, "anyone");
    assert.equal(set.json.controls.undo, "anyone");
    assert.equal(set.json.controls.voteSeconds, 30);
    await stream.until((events) => events.some((e) => e.event === "controls-changed"));
    stream.close();
    assertRefused(
      await ann.call("PUT", `/games/${g.id}/controls`, { retry: "host" }),
      403,
      "auth/host-only",
      /./,
    );
    assertRefused(
      await g.host.call("PUT", `/games/${g.id}/controls`, { retry: "everyone" }),
      400,
      "request/invalid",
      /retry/,
    );
    assertRefused(
      await g.host.call("PUT", `/games/${g.id}/controls`, { voteSeconds: 5 }),
      400,
      "request/invalid",
      /voteSeconds/,
    );
  });

  it("a vote of three passes by a majority: the control applies once, after vote-closed", async () => {
    const g = await party(["Ann", "Bo", "Cy"]);
    const [ann, bo, cy] = g.players as [Client, Client, Client];
    await play(g, "I look around the docks.");
    await play(g, "walk to the Gutted Eel");
    const before = await steps(g);
    const stream = listen(`${running.url}/games/${g.id}/events`, g.tokens[2]!);
    assert.equal(await stream.ready, 200);

    const asked = await ann.post(`/games/${g.id}/history/undo`);
    assert.equal(asked.status, 202, asked.text);
    const vote = asked.json.vote;
    assert.deepEqual(vote.tally, { yes: 1, no: 0, need: 2, voters: 3 });
    // One vote at a time: another request (any control, anyone) is refused while it is open.
    assertRefused(await bo.post(`/games/${g.id}/history/retry`), 409, "game/vote-open", /asked by Ann/);
    assertRefused(
      await g.host.post(`/games/${g.id}/history/rewind`, { tick: 0 }),
      409,
      "game/vote-open",
      /./,
    );
    // The host token is no voter.
    assertRefused(
      await g.host.post(`/games/${g.id}/history/vote`, { vote: vote.id, ballot: "yes" }),
      403,
      "auth/player-only",
      /./,
    );

    const passed = await bo.post(`/games/${g.id}/history/vote`, { vote: vote.id, ballot: "yes" });
    assert.equal(passed.status, 200, passed.text);
    assert.equal(passed.json.outcome, "passed");
    assert.equal(passed.json.result.control, "undo");
    assert.equal((await g.host.get(`/games/${g.id}`)).json.tick, 1);
    assert.equal(await steps(g), before - 1);
    assert.equal((await cy.get(`/games/${g.id}`)).json.vote, null);
    // A late ballot answers the outcome and counts nothing.
    const late = await cy.post(`/games/${g.id}/history/vote`, { vote: vote.id, ballot: "no" });
    assert.equal(late.status, 200, late.text);
    assert.equal(late.json.outcome, "passed");

    await stream.until((events) => events.some((e) => e.event === "head-moved"));
    const kinds = stream.events
      .map((e) => e.event)
      .filter((k) => k.startsWith("vote-") || k === "head-moved");
    assert.deepEqual(kinds, ["vote-opened", "vote-cast", "vote-closed", "head-moved"]);
    const opened = stream.events.find((e) => e.event === "vote-opened")!;
    assert.equal(opened.data.by, "Ann");
    const cast = stream.events.find((e) => e.event === "vote-cast")!;
    assert.equal(cast.data.by, "Bo");
    assert.deepEqual(cast.data.tally, { yes: 2, no: 0, need: 2, voters: 3 });
    const closed = stream.events.find((e) => e.event === "vote-closed")!;
    assert.deepEqual(
      { outcome: closed.data.outcome, by: closed.data.by, control: closed.data.control },
      { outcome: "passed", by: "Ann", control: "undo" },
    );
    stream.close();
  });

  it("naming and deleting branches follow the branch rule: refused, put to a vote, or anyone's", async () => {
    const g = await party(["Ann", "Bo", "Cy"], { retry: "host", rewind: "host" });
    const [ann, bo] = g.players as [Client, Client, Client];
    await play(g, "I look around the docks.");
    await play(g, "walk to the Gutted Eel");
    // A second branch: back to turn 1 and on; the first branch's tip stays.
    const old = (await g.host.get(`/games/${g.id}/history/branches`)).json.branches.find(
      (b: { current: boolean }) => b.current,
    ).tip as number;
    assert.equal((await g.host.post(`/games/${g.id}/history/rewind`, { tick: 1 })).status, 200);
    await play(g, "wait and listen");
    // The default rule: the host's only.
    assertRefused(
      await ann.post(`/games/${g.id}/history/branches/name`, { branch: old, name: "Eel" }),
      403,
      "game/control-denied",
      /host/,
    );
    // Put to a vote: the host's own request opens it; two yes of three name the branch.
    assert.equal((await g.host.call("PUT", `/games/${g.id}/controls`, { branch: "vote" })).status, 200);
    const asked = await g.host.post(`/games/${g.id}/history/branches/name`, { branch: old, name: "Eel" });
    assert.equal(asked.status, 202, asked.text);
    assert.deepEqual(asked.json.vote.argument, { branch: old, name: "Eel" });
    assert.equal(asked.json.vote.control, "name");
    const branchNameOf = async () =>
      (await g.host.get(`/games/${g.id}/history/branches`)).json.branches.find(
        (b: { tip: number }) => b.tip === old,
      )?.name;
    assert.equal(await branchNameOf(), null, "nothing is named before the vote passes");
    await ann.post(`/games/${g.id}/history/vote`, { vote: asked.json.vote.id, ballot: "yes" });
    const passed = await bo.post(`/games/${g.id}/history/vote`, { vote: asked.json.vote.id, ballot: "yes" });
    assert.equal(passed.json.outcome, "passed", passed.text);
    assert.deepEqual(passed.json.result, { tip: old, name: "Eel" });
    assert.equal(await branchNameOf(), "Eel");
    // Anyone's: a player deletes the other branch at once.
    assert.equal((await g.host.call("PUT", `/games/${g.id}/controls`, { branch: "anyone" })).status, 200);
    const deleted = await bo.post(`/games/${g.id}/history/branches/delete`, { branch: old });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(deleted.json.tip, old);
    assert.equal(await branchNameOf(), undefined);
  });

  it("a vote fails once a majority can no longer come; nothing happens", async () => {
    const g = await party(["Ann", "Bo", "Cy"]);
    const [ann, bo, cy] = g.players as [Client, Client, Client];
    await play(g, "I look around the docks.");
    const before = await steps(g);
    const asked = await ann.post(`/games/${g.id}/history/rewind`, { tick: 0 });
    assert.equal(asked.status, 202, asked.text);
    assert.deepEqual(asked.json.vote.argument, { tick: 0 });
    const one = await bo.post(`/games/${g.id}/history/vote`, { vote: asked.json.vote.id, ballot: "no" });
    assert.equal(one.json.outcome, "open", one.text);
    const two = await cy.post(`/games/${g.id}/history/vote`, { vote: asked.json.vote.id, ballot: "no" });
    assert.equal(two.json.outcome, "failed", two.text);
    assert.deepEqual(two.json.vote.tally, { yes: 1, no: 2, need: 2, voters: 3 });
    assert.equal(await steps(g), before);
    assert.equal((await ann.get(`/games/${g.id}`)).json.vote, null);
    // Another vote may open now.
    assert.equal((await bo.post(`/games/${g.id}/history/retry`)).status, 202);
  });

  it("a vote expires at its time: closed once, by a read or the sweep", async () => {
    const g = await party(["Ann", "Bo", "Cy"], { voteSeconds: 10 });
    const [ann, bo] = g.players as [Client, Client, Client];
    await play(g, "I look around the docks.");
    const stream = listen(`${running.url}/games/${g.id}/events`, g.tokens[0]!);
    assert.equal(await stream.ready, 200);
    const asked = await ann.post(`/games/${g.id}/history/retry`);
    assert.equal(asked.status, 202, asked.text);
    assert.equal(asked.json.vote.closesAt - asked.json.vote.openedAt, 10_000);
    skew.ms += 11_000;
    try {
      const late = await bo.post(`/games/${g.id}/history/vote`, { vote: asked.json.vote.id, ballot: "yes" });
      assert.equal(late.status, 200, late.text);
      assert.equal(late.json.outcome, "expired");
      assert.equal((await ann.get(`/games/${g.id}`)).json.vote, null);
      await stream.until((events) => events.some((e) => e.event === "vote-closed"));
      const closed = stream.events.filter((e) => e.event === "vote-closed");
      assert.equal(closed.length, 1);
      assert.equal(closed[0]!.data.outcome, "expired");
      assert.ok(
        !stream.events.some((e) => e.event === "vote-cast"),
        "a ballot after the time is not counted",
      );
      assert.ok(!stream.events.some((e) => e.event === "turn-retried"));
      // The sweep closes one nobody reads.
      const again = await ann.post(`/games/${g.id}/history/retry`);
      assert.equal(again.status, 202, again.text);
      skew.ms += 11_000;
      await stream.until((events) => events.filter((e) => e.event === "vote-closed").length === 2);
      assert.equal(stream.events.filter((e) => e.event === "vote-closed")[1]!.data.outcome, "expired");
    } finally {
      stream.close();
      skew.ms = 0;
    }
  });

  it("a vote goes stale when a turn runs before it passes; the host token's vote has no ballot", async () => {
    const g = await party(["Ann", "Bo", "Cy"]);
    const [, bo] = g.players as [Client, Client, Client];
    await play(g, "I look around the docks.");
    const asked = await g.host.post(`/games/${g.id}/history/undo`);
    assert.equal(asked.status, 202, asked.text);
    assert.equal(asked.json.vote.by, "the host");
    assert.equal(asked.json.vote.player, null);
    assert.deepEqual(asked.json.vote.tally, { yes: 0, no: 0, need: 2, voters: 3 });
    await play(g, "walk to the Gutted Eel");
    const ballot = await bo.post(`/games/${g.id}/history/vote`, { vote: asked.json.vote.id, ballot: "yes" });
    assert.equal(ballot.status, 200, ballot.text);
    assert.equal(ballot.json.outcome, "stale");
    const view = (await g.host.get(`/games/${g.id}`)).json;
    assert.equal(view.tick, 2, "nothing was undone");
    assert.equal(view.vote, null);
    assertRefused(
      await bo.post(`/games/${g.id}/history/vote`, { vote: "0".repeat(32), ballot: "yes" }),
      409,
      "game/vote-closed",
      /not open/,
    );
  });

  it("two servers' ballots at once apply the control once (two processes on PostgreSQL)", {
    timeout: 120_000,
  }, async () => {
    // SQLite serves from one process by design: there the two servers share this process.
    const child = DATABASE_URL
      ? await startChildServer(running.where)
      : await startServer({ where: running.where });
    try {
      for (const control of ["undo", "retry"] as const) {
        const g = await party(["Ann", "Bo", "Cy"]);
        const [ann, bo] = g.players as [Client, Client, Client];
        const cy = new Client(child.url, g.tokens[2]);
        await play(g, "I look around the docks.");
        await play(g, "walk to the Gutted Eel");
        const stream = listen(`${running.url}/games/${g.id}/events`, g.tokens[0]!);
        assert.equal(await stream.ready, 200);
        const before = (await g.host.get(`/games/${g.id}/history/branches`)).json.branches.length as number;
        const asked = await ann.post(`/games/${g.id}/history/${control}`);
        assert.equal(asked.status, 202, asked.text);
        const ballots = await Promise.all([
          bo.post(`/games/${g.id}/history/vote`, { vote: asked.json.vote.id, ballot: "yes" }),
          cy.post(`/games/${g.id}/history/vote`, { vote: asked.json.vote.id, ballot: "yes" }),
        ]);
        for (const b of ballots) {
          assert.equal(b.status, 200, b.text);
          assert.equal(b.json.outcome, "passed", b.text);
        }
        assert.equal(ballots.filter((b) => b.json.result !== undefined).length, 1, "one ballot applied it");
        const event = control === "undo" ? "head-moved" : "turn-retried";
        await stream.until((events) => events.some((e) => e.event === event));
        // Whatever else arrives meanwhile arrives now: one close, one control.
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(stream.events.filter((e) => e.event === "vote-closed").length, 1);
        assert.equal(stream.events.filter((e) => e.event === event).length, 1);
        stream.close();
        const view = (await g.host.get(`/games/${g.id}`)).json;
        if (control === "undo") assert.equal(view.tick, 1);
        else {
          assert.equal(view.tick, 2);
          const branches = (await g.host.get(`/games/${g.id}/history/branches`)).json.branches.length;
          assert.equal(branches, before + 1, "one new sibling, not two");
        }
      }
    } finally {
      await child.close();
    }
  });
});
