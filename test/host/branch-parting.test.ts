import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import type { SessionState } from "../../src/engine/index.ts";
import {
  PARTING_CHARS,
  PARTING_REACH,
  type PartingStep,
  partBranches,
  snippet,
} from "../../src/host/branch-parting.ts";
import {
  addStep,
  type BranchInfo,
  type History,
  listBranches,
  listedTitle,
  newHistory,
  nodeOf,
} from "../../src/host/history.ts";

/** The history functions never read a state: a stand-in keeps these tests on the tree alone. */
const STATE = { tick: 0 } as unknown as SessionState;

function opening(): History {
  return newHistory({ type: "opening" }, STATE, "The harbour wakes.");
}

/** Plays `text` after node `after` (a later draw with `draw`): the new node's id. */
function turn(history: History, after: number, text: string, story: string, draw = 0): number {
  const parent = nodeOf(history, after);
  return addStep(history, after, {
    input: { type: "turn", actions: [{ player: "Isobel", text }], draw },
    tick: parent.tick + 1,
    story,
    answers: [],
    fired: [],
    state: STATE,
  }).id;
}

/** Plays a line of turns after `after`: the last node's id. */
function line(history: History, after: number, turns: [string, string][]): number {
  let at = after;
  for (const [text, story] of turns) at = turn(history, at, text, story);
  return at;
}

/** What a listing shows of a branch besides its parting (history.ts listBranches keys on the same). */
const listed = (b: BranchInfo) => JSON.stringify([listedTitle(b.title), b.splitFrom, b.splitAt, b.turns]);

describe("branches that list alike", () => {
  test("the same action typed again after a rewind: each says the turn they part at and its action", () => {
    const h = opening();
    const five = line(h, h.root, [
      ["walk to the Gutted Eel", "The Eel is loud."],
      ["talk to Mara", "Mara shrugs."],
      ["look around", "Nets and tar."],
      ["go north", "The quay."],
      ["wait", "Rain."],
    ]);
    line(h, five, [["search the quay", "Crates."]]);
    // Rewound to turn 5 twice, the same action typed, then another choice at turn 7.
    line(h, five, [
      ["open the door", "It creaks."],
      ["open the door", "A cellar."],
    ]);
    line(h, five, [
      ["open the door", "It creaks."],
      ["close the shutters", "Dark."],
    ]);
    const [first, a, b] = listBranches(h);
    assert.equal(first!.parting, null, "the first story lists apart from the others");
    assert.equal(listed(a!), listed(b!), "the two branches read the same but for their parting");
    assert.deepEqual(a!.parting, { turn: 7, by: "action", text: "open the door", draw: 0 });
    assert.deepEqual(b!.parting, { turn: 7, by: "action", text: "close the shutters", draw: 0 });
  });

  test("copies of one story are numbered; a retry's title says its draw", () => {
    const h = opening();
    const one = turn(h, h.root, "walk to the Gutted Eel", "The Eel is loud.");
    line(h, one, [["look around", "Nets and tar."]]);
    // Three branches from turn 1 that tell the same story (a narrator that answers alike).
    turn(h, one, "open the door", "The door creaks open onto a cellar.");
    turn(h, one, "open the door", "The door creaks open onto a cellar.");
    const c = turn(h, one, "open the door", "The door creaks open onto a cellar.");
    // Draw 2 of the third's turn: a branch of its own, whose title says the draw.
    turn(h, nodeOf(h, c).parent!, "open the door", "The door creaks open onto the sea.", 1);
    const branches = listBranches(h);
    const alike = branches.filter((b) => b.title === "open the door");
    assert.equal(alike.length, 3);
    assert.deepEqual(
      alike.map((b) => b.parting),
      [
        { turn: null, by: "copy", text: "", draw: 0, copy: 1, copies: 3 },
        { turn: null, by: "copy", text: "", draw: 0, copy: 2, copies: 3 },
        { turn: null, by: "copy", text: "", draw: 0, copy: 3, copies: 3 },
      ],
    );
    const retried = branches.find((b) => b.title === "open the door (draw 2)")!;
    assert.equal(retried.parting, null, "a retry's title says its draw");
  });

  test("a retried turn among look-alikes: the turn, the draw and the words where the story turns", () => {
    const parting = partBranches([
      { key: "k", steps: [step(2, "open the door", "The door creaks open onto a cellar full of nets.", 0)] },
      { key: "k", steps: [step(2, "open the door", "The door creaks open onto a cellar full of crabs.", 1)] },
      { key: "other", steps: [] },
    ]);
    assert.deepEqual(parting[0], { turn: 2, by: "story", text: "…onto a cellar full of nets.", draw: 0 });
    assert.deepEqual(parting[1], { turn: 2, by: "story", text: "…a cellar full of crabs.", draw: 1 });
    assert.equal(parting[2], null);
  });

  test("more look-alikes than a branch is compared with: each still says its own action, or is numbered", () => {
    const count = PARTING_REACH * 4 + 3;
    const branches = Array.from({ length: count }, (_, i) => ({
      key: "k",
      steps: [
        step(5, "open the door", "It creaks.", 0),
        // Every tenth a copy of the one before it.
        step(6, `go ${i % 10 === 9 ? i - 1 : i} paces north`, "Fog.", 0),
      ],
    }));
    const partings = partBranches(branches);
    assert.equal(new Set(partings.map((p) => JSON.stringify(p))).size, count, "all distinct");
    for (const [i, p] of partings.entries()) {
      if (i % 10 === 8 || i % 10 === 9) assert.equal(p!.by, "copy", `${i}`);
      else assert.deepEqual(p, { turn: 6, by: "action", text: `go ${i} paces north`, draw: 0 });
    }
  });

  test("any texts: look-alikes get distinct partings, each text short and one line", () => {
    const words = fc.oneof(fc.constantFrom("go", "go north", "a\u0007\n b"), fc.string({ maxLength: 70 }));
    const line = fc.array(
      fc.record({
        tick: fc.constantFrom(1, 2),
        action: fc.option(words),
        draw: fc.constantFrom(0, 1),
        story: fc.option(words),
      }),
      { maxLength: 4 },
    );
    fc.assert(
      fc.property(
        fc.array(fc.record({ key: fc.constantFrom("a", "b"), steps: line }), { maxLength: 12 }),
        (branches) => {
          const partings = partBranches(branches);
          for (const [i, p] of partings.entries()) {
            const twins = branches.filter((b, j) => j !== i && b.key === branches[i]!.key);
            assert.equal(p === null, twins.length === 0);
            if (p === null) continue;
            assert.ok(p.text.length <= PARTING_CHARS && !/[\n\u0000-\u001f]/.test(p.text), p.text);
            for (const [j, q] of partings.entries())
              if (j !== i && branches[j]!.key === branches[i]!.key) assert.notDeepEqual(p, q);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  test("a snippet keeps where two texts part within its width", () => {
    const a = "wait for a long while at the bar of the Gutted Eel and then go north";
    const b = "wait for a long while at the bar of the Gutted Eel and then go south";
    assert.equal(snippet(a, [b]), "…Eel and then go north");
    assert.equal(
      snippet("look around the harbour for a boat to hire", ["look up"]),
      "look around the harbour for…",
    );
    assert.equal(snippet("go", ["go north"]), "go");
  });

  test("a snippet or a title never cuts an emoji in half, wherever the cut falls", () => {
    const halves = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", " ", "🐟", "é", "go"), { minLength: 1, maxLength: 40 }),
        fc.array(fc.constantFrom("a", " ", "🐟", "é", "go"), { maxLength: 40 }),
        (mine, other) => {
          const text = mine.join("");
          const cut = snippet(text, [other.join("")]);
          assert.doesNotMatch(cut, halves, `${JSON.stringify(text)} -> ${JSON.stringify(cut)}`);
          assert.ok([...cut].length <= PARTING_CHARS);
        },
      ),
      { numRuns: 400 },
    );
    const history = opening();
    turn(history, history.root, "b", "Story.");
    turn(history, history.root, `${"a".repeat(24)}🐟🐟 north`, "Story.");
    const title = listBranches(history)[1]!.title;
    assert.ok(title.startsWith("aaaa"), title);
    assert.doesNotMatch(title, halves);
  });

  test("any two branches that list alike get distinct partings; a branch no other lists alike gets none", () => {
    // Few words, shared beginnings and long texts: look-alikes, copies and texts alike past the width.
    const long = "wait for a long while at the bar of the Gutted Eel and then ";
    const texts = ["go", "go north", `${long}go north`, `${long}go south`, `${long}go south now`];
    const stories = ["Rain.", "Rain falls.", `${long}rain`, `${long}rain falls`];
    const ops = fc.array(
      fc.record({
        after: fc.nat(),
        text: fc.constantFrom(...texts),
        story: fc.constantFrom(...stories),
        draw: fc.constantFrom(0, 0, 1),
      }),
      { minLength: 1, maxLength: 40 },
    );
    fc.assert(
      fc.property(ops, (steps) => {
        const h = opening();
        const ids = [h.root];
        for (const s of steps) ids.push(turn(h, ids[s.after % ids.length]!, s.text, s.story, s.draw));
        const branches = listBranches(h);
        for (const [i, a] of branches.entries()) {
          const twins = branches.filter((b) => b !== a && listed(b) === listed(a));
          assert.equal(a.parting === null, twins.length === 0, "a parting only among look-alikes");
          for (const b of twins)
            assert.notDeepEqual(a.parting, b.parting, `branches ${i + 1} and ${b.number}`);
          if (a.parting === null) continue;
          assert.ok(a.parting.text.length <= PARTING_CHARS, a.parting.text);
          if (a.parting.by !== "action" && a.parting.by !== "story") continue;
          // The words are the branch's own, at the turn it names.
          const node = [...h.nodes.values()].find((n) => n.tick === a.parting!.turn && onBranch(h, a, n.id))!;
          const own =
            a.parting.by === "action"
              ? node.input.type === "turn"
                ? node.input.actions[0]!.text
                : ""
              : (node.story ?? "");
          assert.ok(own.includes(a.parting.text.replace(/^…|…$/g, "")), `${a.parting.text} in ${own}`);
          assert.equal(node.input.type === "turn" ? node.input.draw : 0, a.parting.draw);
        }
      }),
      { numRuns: 300 },
    );
  });
});

function step(tick: number, action: string, story: string, draw: number): PartingStep {
  return { tick, action, story, draw };
}

/** Whether node `id` is on the branch: between its start and its tip, along first children. */
function onBranch(h: History, branch: BranchInfo, id: number): boolean {
  for (let at: number | undefined = branch.start; at !== undefined; at = nodeOf(h, at).children[0])
    if (at === id) return true;
  return false;
}
