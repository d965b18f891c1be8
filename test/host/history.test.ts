import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import fc from "fast-check";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import type { NarrationRequest } from "../../src/engine/index.ts";
import { Game } from "../../src/host/game.ts";
import { headOf, pruneHistory, readHistory, saveHistory } from "../../src/host/history.ts";
import {
  castBallot,
  DEFAULT_PARTY_CONTROLS,
  decideControl,
  openVote,
  PartyControls,
  tallyVote,
} from "../../src/host/party-controls.ts";
import { applyPatch, diffValue } from "../../src/host/state-delta.ts";
import { diffWorld, renderWorldDiff } from "../../src/host/world-diff.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import { harbor } from "../helpers/author.ts";

const world = harbor();
const sandbox = createSandbox();
after(() => sandbox.close());

async function newGame(seed = 3) {
  return Game.start(
    world,
    { ai: createOfflineProvider(world), scripts: sandbox },
    { seed, gameMode: null, storyStart: "Dawn at the Docks", players: [{ premade: "Isobel Carrow" }] },
  );
}

async function play(game: Game, ...texts: string[]) {
  for (const text of texts) await game.apply({ type: "turn", actions: [{ player: game.players[0]!, text }] });
}

describe("state deltas", () => {
  test("a patch rebuilds the value byte for byte, key order and own __proto__ keys included", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const patch = diffValue(a, b);
        assert.equal(JSON.stringify(applyPatch(a, patch)), JSON.stringify(b));
        if (JSON.stringify(a) === JSON.stringify(b)) assert.equal(patch, undefined);
      }),
      { numRuns: 500 },
    );
    const before = JSON.parse('{"storage":{"a":1},"list":[1,2]}');
    const after = JSON.parse('{"storage":{"__proto__":{"x":1},"a":1},"list":[1,2,3]}');
    const patch = diffValue(before, after);
    assert.deepEqual(patch, {
      o: { storage: { o: { ["__proto__"]: { s: { x: 1 } } }, k: ["__proto__", "a"] }, list: { a: [3] } },
    });
    assert.equal(JSON.stringify(applyPatch(before, patch)), JSON.stringify(after));
  });

  test("a grown list is stored as what it gained, and unchanged parts are shared", () => {
    const story = [{ tick: 0, text: "a" }];
    const before = { story, party: { hp: 1 } };
    const after = { story: [...story, { tick: 1, text: "b" }], party: before.party };
    const patch = diffValue(before, after);
    assert.deepEqual(patch, { o: { story: { a: [{ tick: 1, text: "b" }] } } });
    const rebuilt = applyPatch(before, patch) as typeof after;
    assert.equal(rebuilt.party, before.party);
  });
});

describe("the game's history", () => {
  test("a save keeps the tree and loads it back to the same bytes; branches survive", async () => {
    const game = await newGame();
    await play(game, "walk to the Gutted Eel", "talk to Mara Venn", "look around");
    await game.apply({ type: "rewind", turn: 1 });
    await play(game, "wait");
    await game.apply({ type: "branch", op: "name", branch: "2", name: "Waiting" });
    const save = game.save();
    const loaded = await Game.start(
      world,
      { ai: createOfflineProvider(world), scripts: sandbox },
      { seed: 0, gameMode: null, load: save },
    );
    assert.equal(loaded.historyNote, null);
    assert.equal(loaded.save(), save);
    assert.deepEqual(
      loaded.branches().map((b) => [b.number, b.title, b.splitAt, b.turns, b.current]),
      [
        [1, "the first story", null, 3, false],
        [2, "Waiting", 1, 2, true],
      ],
    );
    await loaded.apply({ type: "branch", op: "switch", branch: "1" });
    assert.equal(loaded.session.tick, 3);
    assert.equal(
      JSON.stringify(loaded.session.state),
      JSON.stringify(game.history.nodes.get(game.branches()[0]!.tip)!.state),
    );
  });

  test("a loaded game's /undo takes back the saved turns, as the game it was saved from would", async () => {
    const game = await newGame();
    await play(game, "walk to the Gutted Eel", "talk to Mara Venn");
    const save = game.save();
    for (const loaded of [
      await Game.start(
        world,
        { ai: createOfflineProvider(world), scripts: sandbox },
        { seed: 0, gameMode: null, load: save },
      ),
      await newGame().then(async (g) => {
        await g.apply({ type: "load", save });
        return g;
      }),
    ]) {
      assert.equal(loaded.session.tick, 2);
      const undone = await loaded.apply({ type: "undo" });
      assert.equal(undone.type === "undo" && undone.undone, true);
      assert.equal(loaded.session.tick, 1);
      assert.equal(
        JSON.stringify(loaded.session.state),
        JSON.stringify(game.history.nodes.get(game.history.nodes.get(game.history.head)!.parent!)!.state),
      );
    }
  });

  test("embedding answers are saved once per distinct vector and read back whole", async () => {
    const game = await newGame();
    await play(game, "walk to the Gutted Eel", "look around");
    // The game keeps one copy of each distinct vector (the answer tap interns them).
    const vector = [0.25, -1, 3];
    const other = [1, 2];
    for (const node of game.history.nodes.values())
      node.answers.push({ call: "embed", answer: [vector, other, vector] });
    const saved = saveHistory(game.history);
    assert.deepEqual(saved.vectors, [vector, [1, 2]]);
    assert.deepEqual(saved.nodes[1]!.answers.at(-1), { call: "embed", refs: [0, 1, 0] });
    const read = readHistory(JSON.parse(JSON.stringify(saved)));
    assert.ok(typeof read !== "string", String(read));
    for (const node of read.nodes.values())
      assert.deepEqual(node.answers.at(-1), { call: "embed", answer: [vector, [1, 2], vector] });
    const broken = JSON.parse(JSON.stringify(saved));
    broken.nodes[1].answers.at(-1).refs = [7];
    assert.match(String(readHistory(broken)), /a vector the save lacks/);
  });

  test("a trusted read (the server's own save) gives what the checked read gives, key order included", async () => {
    const game = await newGame();
    await play(game, "walk to the Gutted Eel", "look around");
    await game.apply({ type: "alter", text: "The fog lifts over the harbour.", by: "Isobel Carrow" });
    await game.apply({ type: "rewind", turn: 1 });
    await play(game, "wait");
    for (const node of game.history.nodes.values()) {
      node.answers.push({ call: "embed", answer: [[0.5, 1]] });
      node.answers.push({ call: "judge", answer: null, error: "timeout" });
      // A stream that broke off: chunks and an error, given in the other order.
      node.answers.push({ chunks: ["The fog "], error: "timeout", call: "narrate", answer: null });
    }
    const saved = JSON.parse(JSON.stringify(saveHistory(game.history)));
    // The same history with every object's keys reversed, an answer input and keys the schema strips.
    const reversed = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reversed)
        : value !== null && typeof value === "object"
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([k, v]) => [k, reversed(v)]),
            )
          : value;
    const shuffled = reversed(saved) as typeof saved;
    shuffled.nodes[1].input = {
      by: "Ann",
      answer: "accept",
      quest: "The Keeper's Debt",
      type: "answer",
      extra: 1,
    };
    shuffled.nodes[1].answers[0].extra = "dropped";
    shuffled.nodes[1].extra = true;
    let altered = 0;
    for (const value of [saved, shuffled]) {
      const checked = readHistory(structuredClone(value));
      const trusted = readHistory(structuredClone(value), { trusted: true });
      assert.ok(typeof checked !== "string" && typeof trusted !== "string");
      assert.equal(JSON.stringify(saveHistory(trusted)), JSON.stringify(saveHistory(checked)));
      for (const [id, node] of checked.nodes) {
        assert.equal(JSON.stringify(trusted.nodes.get(id)), JSON.stringify(node));
        if (node.altered) altered++;
      }
    }
    assert.ok(altered >= 2, "the history holds an altered step");
    // Another shape than this version writes goes through the schema: the same refusal as unchecked.
    for (const broken of [
      { ...saved, version: 2 },
      { ...saved, nodes: {} },
      { ...saved, head: "1" },
    ]) {
      const said = readHistory(broken, { trusted: true });
      assert.equal(typeof said, "string");
      assert.equal(said, readHistory(broken));
    }
  });

  test("a version 2 save (no history) loads as one branch starting at the saved turn", async () => {
    const game = await newGame();
    await play(game, "walk to the Gutted Eel");
    const file = JSON.parse(game.save());
    delete file.history;
    file.version = 2;
    const loaded = await Game.start(
      world,
      { ai: createOfflineProvider(world), scripts: sandbox },
      { seed: 0, gameMode: null, load: JSON.stringify(file) },
    );
    assert.deepEqual(
      loaded.branches().map((b) => [b.title, b.turns]),
      [["the loaded game", 1]],
    );
    await play(loaded, "look around");
    assert.equal(loaded.branches()[0]!.turns, 2);
    await assert.rejects(
      loaded.apply({ type: "rewind", turn: 0 }),
      /Turn 0 is not on this branch: it goes from turn 1 to turn 2\./,
    );
  });

  test("a damaged history loads the game as one branch and says why", async () => {
    const game = await newGame();
    await play(game, "walk to the Gutted Eel");
    const file = JSON.parse(game.save());
    file.history.nodes[1].parent = 99;
    const loaded = await Game.start(
      world,
      { ai: createOfflineProvider(world), scripts: sandbox },
      { seed: 0, gameMode: null, load: JSON.stringify(file) },
    );
    assert.match(loaded.historyNote ?? "", /history.nodes.1: its parent 99 is not before it/);
    assert.equal(loaded.session.tick, 1);
    assert.equal(typeof readHistory({ version: 1, head: 1, names: [], nodes: [] }), "string");
  });

  test("a state in a saved history that does not fit the world is refused when the game goes to it", async () => {
    const game = await newGame();
    await play(game, "walk to the Gutted Eel", "look around");
    const saved = saveHistory(game.history);
    (saved.nodes[0]!.state as { position: { location: string } }).position.location = "Nowhere";
    const file = JSON.parse(game.save());
    file.history = saved;
    const loaded = await Game.start(
      world,
      { ai: createOfflineProvider(world), scripts: sandbox },
      { seed: 0, gameMode: null, load: JSON.stringify(file) },
    );
    await assert.rejects(loaded.apply({ type: "rewind", turn: 0 }), (error: Error & { code?: string }) => {
      assert.equal(error.code, "history/refused");
      assert.match(error.message, /The saved history's state at turn 0 does not load: /);
      return true;
    });
    assert.equal(loaded.session.tick, 2, "the game stays where it was");
  });

  test("a retry asks the narrator for another draw: the same request with draw 1 and another seed", async () => {
    const offline = createOfflineProvider(world);
    const asked: NarrationRequest[] = [];
    const ai = {
      ...offline,
      narrate: (request: NarrationRequest, onChunk?: (text: string) => void, signal?: AbortSignal) => {
        asked.push(structuredClone(request));
        return offline.narrate(request, onChunk, signal);
      },
    };
    const game = await Game.start(
      world,
      { ai, scripts: sandbox },
      { seed: 3, gameMode: null, storyStart: "Dawn at the Docks", players: [{ premade: "Isobel Carrow" }] },
    );
    await play(game, "look around");
    await game.apply({ type: "retry" });
    await game.apply({ type: "retry" });
    const [first, second, third] = asked.slice(-3) as [NarrationRequest, NarrationRequest, NarrationRequest];
    assert.equal(first.draw, undefined);
    assert.equal(second.draw, 1);
    assert.equal(third.draw, 2);
    assert.equal(new Set([first.seed, second.seed, third.seed]).size, 3);
    const { seed: _a, draw: _b, ...rest1 } = first;
    const { seed: _c, draw: _d, ...rest2 } = second;
    assert.deepEqual(rest2, rest1, "the same turn from the same state");
    // Draws are counted per action from the same moment: each retry is a new branch, the first stays.
    assert.deepEqual(
      game.branches().map((b) => b.title),
      ["the first story", "look around (draw 2)", "look around (draw 3)"],
    );
  });

  test("undo drops the undone turn and gives its actions back; a rewound branch stays", async () => {
    const game = await newGame();
    await play(game, "walk to the Gutted Eel", "look around");
    const undone = await game.apply({ type: "undo" });
    assert.deepEqual(undone, {
      type: "undo",
      undone: true,
      actions: [{ player: "Isobel Carrow", text: "look around" }],
    });
    assert.equal(game.history.nodes.size, 2);
    assert.equal(game.session.tick, 1);
  });

  test("deleting a branch removes it and the branches that split from it; the current one cannot be deleted", async () => {
    const game = await newGame();
    await play(game, "walk to the Gutted Eel", "look around");
    await game.apply({ type: "rewind", turn: 1 });
    await play(game, "wait", "wait");
    await game.apply({ type: "rewind", turn: 2 });
    await play(game, "look around");
    assert.equal(game.branches().length, 3);
    await assert.rejects(
      game.apply({ type: "branch", op: "delete", branch: "3" }),
      /The game is on this branch/,
    );
    await game.apply({ type: "branch", op: "switch", branch: "1" });
    const deleted = await game.apply({ type: "branch", op: "delete", branch: "2" });
    assert.equal(deleted.type === "branch" && deleted.removed, 2);
    assert.equal(game.branches().length, 1);
    await assert.rejects(
      game.apply({ type: "branch", op: "name", branch: "1", name: "42" }),
      /cannot be a number/,
    );
  });

  test("a history past its limit drops the branches the game is not on, then its oldest steps", async () => {
    const game = await newGame();
    await play(game, "walk to the Gutted Eel", "look around", "wait");
    await game.apply({ type: "rewind", turn: 1 });
    await play(game, "wait", "wait");
    await game.apply({ type: "branch", op: "switch", branch: "1" });
    await game.apply({ type: "rewind", turn: 2 });
    await play(game, "look around");
    assert.equal(game.history.nodes.size, 7);
    // The branch from turn 1 goes first: the game is on the one from turn 2.
    pruneHistory(game.history, 6);
    assert.deepEqual(
      game.branches().map((b) => [b.title, b.turns, b.current]),
      [
        ["the first story", 3, false],
        ["look around", 3, true],
      ],
    );
    assert.equal(game.history.nodes.size, 5);
    // Then the oldest steps of the game's own line, with what split off them (here the first story).
    pruneHistory(game.history, 2);
    assert.equal(game.history.nodes.size, 1);
    assert.deepEqual(
      game.branches().map((b) => [b.title, b.turns, b.current]),
      [["look around", 3, true]],
    );
    assert.equal(headOf(game.history).tick, 3);
    // The kept steps save and load as a tree whose first step is whole.
    const read = readHistory(JSON.parse(JSON.stringify(saveHistory(game.history))));
    assert.ok(typeof read !== "string", String(read));
    assert.equal(JSON.stringify(headOf(read).state), JSON.stringify(game.session.state));
    await assert.rejects(
      game.apply({ type: "rewind", turn: 0 }),
      /Turn 0 is not on this branch: it goes from turn 3 to turn 3\./,
    );
  });

  test("the world diff lists each kind of change as typed data and in lines", async () => {
    const game = await newGame();
    await play(game, "walk to the Gutted Eel", "talk to Mara Venn");
    const diff = game.diff("0", "2");
    const kinds = new Set(diff.changes.map((c) => c.kind));
    for (const kind of ["position", "quest", "objective", "flag", "storage", "trigger"])
      assert.ok(kinds.has(kind as never), kind);
    assert.equal(diff.from, 0);
    assert.equal(diff.to, 2);
    const lines = renderWorldDiff(diff);
    assert.ok(lines.includes('Quest "The Keeper\'s Debt": hidden -> available'), lines.join("\n"));
    assert.deepEqual(renderWorldDiff(diffWorld(game.session.state, game.session.state)), [
      "Nothing differs in the world.",
    ]);
    // A control character in a key never reaches the lines raw.
    const a = game.session.state;
    const b = structuredClone(a);
    b.storage["bell\u001b[2J"] = 1;
    assert.doesNotMatch(
      renderWorldDiff(diffWorld(a, b), (t) => t.replace(/\p{Cc}/gu, "?")).join("\n"),
      /\u001b/,
    );
  });
});

describe("party controls", () => {
  test("who may use a control: the host, anyone, or a vote of the active players", () => {
    const controls = PartyControls.parse({ alter: "host", retry: "vote", undo: "anyone", voteSeconds: 30 });
    assert.deepEqual(decideControl(controls, "alter", { isHost: false, active: true }, 3), {
      type: "denied",
      reason: "Only the host may alter in this game.",
    });
    assert.deepEqual(decideControl(controls, "alter", { isHost: true, active: true }, 3), { type: "apply" });
    assert.deepEqual(decideControl(controls, "undo", { isHost: false, active: true }, 3), { type: "apply" });
    assert.deepEqual(decideControl(controls, "retry", { isHost: false, active: true }, 3), {
      type: "vote",
      seconds: 30,
    });
    assert.deepEqual(decideControl(controls, "retry", { isHost: false, active: true }, 1), { type: "apply" });
    assert.equal(
      decideControl(DEFAULT_PARTY_CONTROLS, "retry", { isHost: true, active: false }, 3).type,
      "denied",
    );
    assert.equal(PartyControls.safeParse({ voteSeconds: 5 }).success, false);
  });

  test("a vote passes on a majority, fails when a majority cannot come or time is up", () => {
    const players = ["a", "b", "c"];
    let vote = openVote("rewind", "4", "a", 1000, PartyControls.parse({ voteSeconds: 60 }));
    assert.equal(tallyVote(vote, players, 1000), "open");
    vote = castBallot(vote, "b", true);
    assert.equal(tallyVote(vote, players, 1000), "passed");
    let against = openVote("retry", null, "a", 0, DEFAULT_PARTY_CONTROLS);
    against = castBallot(castBallot(against, "b", false), "c", false);
    assert.equal(tallyVote(against, players, 0), "failed");
    const late = openVote("retry", null, "a", 0, DEFAULT_PARTY_CONTROLS);
    assert.equal(tallyVote(late, players, late.closesAt), "failed");
    // A player who left does not count toward the majority.
    assert.equal(tallyVote(late, ["a"], 0), "passed");
  });
});
