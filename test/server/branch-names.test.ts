import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type Answer,
  Client,
  DATABASE_URL,
  exampleGame,
  listen,
  playTurn,
  STORE_NAME,
  startChildServer,
  startServer,
  suiteServer,
} from "./harness.ts";

interface Branch {
  tip: number;
  name: string | null;
  current: boolean;
  turns: number;
  title: string;
}

/**
 * Naming and deleting branches over HTTP (issue 33; docs/server.md "Story controls"): a name is
 * cleaned, bounded and unique in the game, and stays with its branch as it grows; a deletion removes
 * the branch's own steps only, never the current branch; each on the game's claim, so two at once
 * (two clients, two processes) apply once; every page follows by the events.
 */
describe(`server: branch names and deletion (${STORE_NAME})`, () => {
  const running = suiteServer();

  async function newGame(url = running.url) {
    const g = await exampleGame(url);
    return { ...g, ann: g.players[0]!, annToken: g.tokens[0]! };
  }

  /** Ann acts; the turn runs (she is the only player): answers the game at its new tick. */
  const play = playTurn;

  const branches = async (g: { id: string; host: Client }) =>
    (await g.host.get(`/games/${g.id}/history/branches`)).json.branches as Branch[];

  /** Two turns, an undo and another second turn: two branches, the game on the newer one. */
  async function twoBranches() {
    const g = await newGame();
    await play(g, "I look around the docks.");
    await play(g, "walk to the Gutted Eel");
    assert.equal((await g.host.post(`/games/${g.id}/history/undo`, {})).status, 200);
    await play(g, "I ask the harbourmaster about the fog.");
    const list = await branches(g);
    assert.equal(list.length, 2);
    return { g, old: list.find((b) => !b.current)!, now: list.find((b) => b.current)! };
  }

  it("names a branch: cleaned and listed; the name stays with the branch as it grows", async () => {
    const { g, old, now } = await twoBranches();
    const stream = listen(`${running.url}/games/${g.id}/events`, g.hostToken);
    assert.equal(await stream.ready, 200);
    const named = await g.host.post(`/games/${g.id}/history/branches/name`, {
      branch: old.tip,
      name: "  The \u001b[31mEel\u0007   road ",
    });
    assert.equal(named.status, 200, named.text);
    assert.deepEqual(named.json, { tip: old.tip, name: "The Eel road" });
    assert.equal((await branches(g)).find((b) => b.tip === old.tip)!.name, "The Eel road");
    await stream.until((events) => events.some((e) => e.event === "branch-named"));
    assert.deepEqual(stream.events.find((e) => e.event === "branch-named")!.data, {
      tip: old.tip,
      name: "The Eel road",
    });
    stream.close();

    // The current branch's name follows its tip when play goes on from it.
    assert.equal(
      (await g.host.post(`/games/${g.id}/history/branches/name`, { branch: now.tip, name: "Fog" })).status,
      200,
    );
    await play(g, "I walk into the fog.");
    const grown = await branches(g);
    const current = grown.find((b) => b.current)!;
    assert.notEqual(current.tip, now.tip);
    assert.equal(current.name, "Fog");
    assert.equal(grown.filter((b) => b.name === "Fog").length, 1);
    // An empty name takes it away.
    const cleared = await g.host.post(`/games/${g.id}/history/branches/name`, {
      branch: current.tip,
      name: " ",
    });
    assert.deepEqual(cleared.json, { tip: current.tip, name: null });
    assert.equal((await branches(g)).find((b) => b.current)!.name, null);
  });

  it("refuses a name too long, a number, one taken, and a step that ends no branch, with stable codes", async () => {
    const { g, old, now } = await twoBranches();
    const name = (branch: number, text: string) =>
      g.host.post(`/games/${g.id}/history/branches/name`, { branch, name: text });
    const long = await name(old.tip, "x".repeat(61));
    assert.equal(long.status, 400);
    assert.equal(long.json.error.code, "branch/name-invalid");
    assert.match(long.json.error.message, /at most 60/);
    const number = await name(old.tip, "#12");
    assert.equal(number.status, 400);
    assert.equal(number.json.error.code, "branch/name-invalid");
    assert.equal((await name(old.tip, "Docks")).status, 200);
    const taken = await name(now.tip, "dOCKS");
    assert.equal(taken.status, 409);
    assert.equal(taken.json.error.code, "branch/name-taken");
    assert.equal(taken.json.error.details.tip, old.tip);
    // Renaming a branch to its own name (another case) is not a clash.
    assert.equal((await name(old.tip, "DOCKS")).status, 200);
    // The opening has children: it ends no branch.
    const inner = await name(0, "Opening");
    assert.equal(inner.status, 409);
    assert.equal(inner.json.error.code, "game/state");
    assert.match(inner.json.error.message, /No branch of the game ends at step 0/);
    const huge = await name(old.tip, "y".repeat(1001));
    assert.equal(huge.status, 400);
    assert.equal(huge.json.error.code, "request/invalid");
    assert.equal((await branches(g)).find((b) => b.tip === old.tip)!.name, "DOCKS");
  });

  it("deletes a branch's own steps, never the shared ones or the current branch", async () => {
    const { g, old, now } = await twoBranches();
    const stepsOf = async () =>
      ((await g.host.get(`/games/${g.id}/transcript`)).json.transcript as { seq: number }[]).map(
        (s) => s.seq,
      );
    const path = await stepsOf();
    const current = await g.host.post(`/games/${g.id}/history/branches/delete`, { branch: now.tip });
    assert.equal(current.status, 409);
    assert.equal(current.json.error.code, "game/state");
    assert.match(current.json.error.message, /switch to another branch/);

    assert.equal(
      (await g.host.post(`/games/${g.id}/history/branches/name`, { branch: old.tip, name: "Eel" })).status,
      200,
    );
    const stream = listen(`${running.url}/games/${g.id}/events`, g.hostToken);
    assert.equal(await stream.ready, 200);
    const deleted = await g.host.post(`/games/${g.id}/history/branches/delete`, { branch: old.tip });
    assert.equal(deleted.status, 200, deleted.text);
    // Only the undone turn was the old branch's own: the opening and turn 1 are shared.
    assert.deepEqual(deleted.json, { tip: old.tip, steps: [old.tip] });
    const left = await branches(g);
    assert.deepEqual(
      left.map((b) => b.tip),
      [now.tip],
    );
    assert.deepEqual(await stepsOf(), path);
    await stream.until((events) => events.some((e) => e.event === "branch-deleted"));
    assert.deepEqual(stream.events.find((e) => e.event === "branch-deleted")!.data, {
      tip: old.tip,
      steps: [old.tip],
    });
    stream.close();
    // Its step is gone: a switch to it finds none, and its name is free again.
    const gone = await g.host.post(`/games/${g.id}/history/switch`, { branch: old.tip });
    assert.equal(gone.status, 409);
    assert.match(gone.json.error.message, /no step/);
    assert.equal(
      (await g.host.post(`/games/${g.id}/history/branches/name`, { branch: now.tip, name: "eel" })).status,
      200,
    );
    const again = await g.host.post(`/games/${g.id}/history/branches/delete`, { branch: old.tip });
    assert.equal(again.status, 409);
    assert.equal(again.json.error.code, "game/state");
  });

  it("deletes a branch that went on after a switch back to it, down to where it split", async () => {
    const { g, old, now } = await twoBranches();
    assert.equal((await g.host.post(`/games/${g.id}/history/switch`, { branch: old.tip })).status, 200);
    await play(g, "I order a drink.");
    await play(g, "I listen to the sailors.");
    const list = await branches(g);
    const grown = list.find((b) => b.current)!;
    assert.equal(grown.turns, 4);
    assert.equal((await g.host.post(`/games/${g.id}/history/switch`, { branch: now.tip })).status, 200);
    const deleted = await g.host.post(`/games/${g.id}/history/branches/delete`, { branch: grown.tip });
    assert.equal(deleted.status, 200, deleted.text);
    // Turn 2, 3 and 4 of that branch: turn 1 and the opening are the current branch's too.
    assert.equal(deleted.json.steps.length, 3);
    assert.equal(deleted.json.steps[0], old.tip);
    assert.deepEqual(
      (await branches(g)).map((b) => b.tip),
      [now.tip],
    );
  });

  it("keeps the first draw a retry replaced: the current branch's replay needs it", async () => {
    const g = await newGame();
    await play(g, "I look around the docks.");
    const retried = await g.host.post(`/games/${g.id}/history/retry`, {});
    assert.equal(retried.status, 200, retried.text);
    const first = (await branches(g)).find((b) => !b.current)!;
    assert.equal(first.tip, retried.json.replaced);
    const kept = await g.host.post(`/games/${g.id}/history/branches/delete`, { branch: first.tip });
    assert.equal(kept.status, 409);
    assert.equal(kept.json.error.code, "game/state");
    assert.match(kept.json.error.message, /cannot be deleted/);
    assert.equal((await g.host.get(`/games/${g.id}/cassette`)).status, 200);
  });

  it("two clients' deletions or names at once apply once", async () => {
    const { g, old, now } = await twoBranches();
    const second = new Client(running.url, g.hostToken);
    const names = await Promise.all([
      g.host.post(`/games/${g.id}/history/branches/name`, { branch: old.tip, name: "Same" }),
      second.post(`/games/${g.id}/history/branches/name`, { branch: now.tip, name: "same" }),
    ]);
    assertOnce(names, ["game/busy", "branch/name-taken"]);
    assert.equal((await branches(g)).filter((b) => b.name !== null).length, 1);
    const deletes = await Promise.all([
      g.host.post(`/games/${g.id}/history/branches/delete`, { branch: old.tip }),
      second.post(`/games/${g.id}/history/branches/delete`, { branch: old.tip }),
    ]);
    assertOnce(deletes, ["game/busy", "game/state"]);
    assert.equal((await branches(g)).length, 1);
  });

  it("two servers' deletions or names at once apply once (two processes on PostgreSQL)", {
    timeout: 120_000,
  }, async () => {
    // SQLite serves from one process by design: there the two servers share this process.
    const child = DATABASE_URL
      ? await startChildServer(running.where)
      : await startServer({ where: running.where });
    try {
      const { g, old, now } = await twoBranches();
      const other = new Client(child.url, g.hostToken);
      const names = await Promise.all([
        g.host.post(`/games/${g.id}/history/branches/name`, { branch: old.tip, name: "Same" }),
        other.post(`/games/${g.id}/history/branches/name`, { branch: now.tip, name: "SAME" }),
      ]);
      assertOnce(names, ["game/busy", "branch/name-taken"]);
      const deletes = await Promise.all([
        g.host.post(`/games/${g.id}/history/branches/delete`, { branch: old.tip }),
        other.post(`/games/${g.id}/history/branches/delete`, { branch: old.tip }),
      ]);
      assertOnce(deletes, ["game/busy", "game/state"]);
      const left = (await other.get(`/games/${g.id}/history/branches`)).json.branches as Branch[];
      assert.deepEqual(
        left.map((b) => b.tip),
        [now.tip],
      );
    } finally {
      await child.close();
    }
  });
});

/** Of two requests at once, one applied (200) and the other was refused (409) with one of `codes`. */
function assertOnce(answers: Answer[], codes: string[]) {
  const statuses = answers.map((a) => a.status).sort();
  assert.deepEqual(statuses, [200, 409], answers.map((a) => a.text).join("\n"));
  const refused = answers.find((a) => a.status === 409)!;
  assert.ok(codes.includes(refused.json.error.code), refused.text);
}
