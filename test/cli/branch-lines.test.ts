import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { painter } from "../../src/author/paint.ts";
import { branchesView } from "../../src/cli/play/history-views.ts";
import type { SessionState } from "../../src/engine/index.ts";
import { addStep, listBranches, newHistory, nodeOf } from "../../src/host/history.ts";

/** The history functions never read a state: a stand-in keeps the tree alone. */
const STATE = { tick: 0 } as unknown as SessionState;

describe("/branches", () => {
  test("any two branches read differently, past their numbers, and every line fits 80 columns", () => {
    const long = "wait at the bar of the Gutted Eel for a long while, then ";
    const texts = [
      "go",
      "go north",
      `${long}go north`,
      `${long}go south`,
      `${long}go south now`,
      "a\u001b[2Jb",
    ];
    const stories = ["Rain.", "Rain falls.", `${long}rain`, `${long}rain falls`];
    const ops = fc.array(
      fc.record({
        after: fc.nat(),
        text: fc.constantFrom(...texts),
        story: fc.constantFrom(...stories),
        draw: fc.constantFrom(0, 0, 1, 11),
      }),
      { minLength: 1, maxLength: 40 },
    );
    fc.assert(
      fc.property(ops, (steps) => {
        const h = newHistory({ type: "opening" }, STATE, "The harbour wakes.");
        const ids = [h.root];
        for (const s of steps) {
          const parent = nodeOf(h, ids[s.after % ids.length]!);
          const node = addStep(h, parent.id, {
            input: { type: "turn", actions: [{ player: "Isobel", text: s.text }], draw: s.draw },
            tick: parent.tick + 1,
            story: s.story,
            answers: [],
            fired: [],
            state: STATE,
          });
          ids.push(node.id);
        }
        const branches = listBranches(h);
        const view = branchesView(branches, h.nodes.get(h.head)!.tick, painter(false)).split("\n");
        // A branch's line starts with its mark and number; a parting's line is indented below it.
        const entries: string[] = [];
        for (const line of view.slice(0, view.indexOf(""))) {
          assert.ok(line.length <= 80, `wider than 80 columns: ${line}`);
          assert.ok(!line.includes("\u001b"), "outside text is escaped");
          if (line.startsWith("      ")) entries[entries.length - 1] += `\n${line}`;
          else entries.push(line.slice(5));
        }
        assert.equal(entries.length, branches.length);
        assert.equal(new Set(entries).size, entries.length, entries.join("\n"));
      }),
      { numRuns: 300 },
    );
  });
});
