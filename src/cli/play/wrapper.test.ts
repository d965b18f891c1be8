import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { painter } from "../../author/paint.ts";
import { streamWrapper } from "./wrapper.ts";

function wrapped(chunks: string[], width: number): string {
  let out = "";
  const wrapper = streamWrapper(width, (text) => {
    out += text;
  });
  for (const chunk of chunks) wrapper.push(chunk);
  wrapper.end();
  return out;
}

test("breaks lines before a word that would pass the width, wherever the chunks were cut", () => {
  const text = "You walk to the Gutted Eel. Mara Venn is here.";
  const expected = "You walk to the\nGutted Eel. Mara\nVenn is here.";
  assert.equal(wrapped([text], 16), expected);
  assert.equal(wrapped(["You wa", "lk to the Gu", "tted Eel. Mara V", "enn is here."], 16), expected);
  assert.equal(wrapped([...text], 16), expected);
});

test("keeps newlines and paragraph breaks; a word longer than a line is written whole", () => {
  assert.equal(wrapped(["One two.\n\nThree four."], 8), "One two.\n\nThree\nfour.");
  assert.equal(wrapped(["a supercalifragilistic word"], 10), "a\nsupercalifragilistic\nword");
});

test("property: the words are the text's words, in order, and no line passes the width unless one word does", () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.constantFrom(" ", "\n", "  "), fc.stringMatching(/^[a-z.,']{1,12}$/)), {
        maxLength: 60,
      }),
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 1, max: 7 }),
      (parts, width, cut) => {
        const text = parts.join("");
        const chunks = text.match(new RegExp(`[\\s\\S]{1,${cut}}`, "g")) ?? [];
        const out = wrapped(chunks, width);
        assert.deepEqual(out.split(/\s+/).filter(Boolean), text.split(/\s+/).filter(Boolean));
        for (const line of out.split("\n"))
          assert.ok(line.length <= width || !line.trim().includes(" "), JSON.stringify({ line, width }));
      },
    ),
  );
});

test("issue 14 item 7: list items and indented lines go on under their text (a hanging indent)", () => {
  assert.equal(
    wrapped(["  1. Isobel Carrow - A net-mender's daughter with quick hands\n  2. Make your own"], 30),
    "  1. Isobel Carrow - A\n     net-mender's daughter\n     with quick hands\n  2. Make your own",
  );
  assert.equal(
    wrapped(["  [x] Find Mara Venn at the Gutted Eel."], 20),
    "  [x] Find Mara Venn\n      at the Gutted\n      Eel.",
  );
  assert.equal(wrapped(["  Goal: learn what became of him."], 16), "  Goal: learn\n  what became of\n  him.");
});

test("colour codes take no columns: coloured lines wrap where the same plain lines do, at 80 and 60 columns", () => {
  const paint = painter(true);
  const plainLines = [
    "  Done: Return to the Old Lighthouse and light the lamp before the storm breaks tonight over the Gull Coast.",
    "Next: Brinewick has other debts: visit Saltlight Temple, or the Widows' Cairn on Fenmoor Downs.",
    "Tip: Resolve is your nerve. Fires, kindness and small victories restore it; storms and the drowned wear it away.",
    "Isobel Carrow: resolve +2 (10/10)",
  ];
  const styles = ["green", "cyan", "gray", "green"] as const;
  // Every word coloured on its own, as the worst case: many codes, each of them zero columns wide.
  const coloured = plainLines.map((line, i) =>
    line
      .split(" ")
      .map((word) => (word === "" ? word : paint(styles[i]!, word)))
      .join(" "),
  );
  assert.notEqual(coloured.join("\n"), plainLines.join("\n"), "the painter colours");
  const strip = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, "");
  for (const width of [80, 60]) {
    const plain = wrapped([plainLines.join("\n")], width);
    const text = coloured.join("\n");
    // Whole, and cut in chunks of 7 (codes split across chunks).
    for (const chunks of [[text], text.match(/[\s\S]{1,7}/g)!]) {
      const out = wrapped(chunks, width);
      assert.equal(strip(out), plain, `width ${width}`);
      for (const line of strip(out).split("\n")) assert.ok(line.length <= width, `${width}: ${line}`);
    }
    // The old measure (codes counted) broke the tip's first line early at this width.
    assert.ok(
      plain.split("\n").some((line) => line.length > width - 10),
      `width ${width}: lines fill up`,
    );
  }
});

test("/trace at 80 columns: a wrapped line goes on under its text, past the tree's marker and key", () => {
  const trace = [
    '  · docks_gossip  failed at condition 0: party-location equals "Brinewick Docks", actual "The Gutted Eel"',
    '  quest     "The Keeper\'s Debt": hidden → available (quest-init by keeper_rumour)',
    '      ✗ [1] action-text regex "[Mm]ara|[Vv]enn", actual ["walk to the Gutted Eel"]',
    "  - The Tongueless Bell_objective  not tried: it moves a quest on that the party has not accepted",
  ].join("\n");
  assert.equal(
    wrapped([trace], 80),
    [
      '  · docks_gossip  failed at condition 0: party-location equals "Brinewick',
      '                  Docks", actual "The Gutted Eel"',
      '  quest     "The Keeper\'s Debt": hidden → available (quest-init by',
      "            keeper_rumour)",
      '      ✗ [1] action-text regex "[Mm]ara|[Vv]enn", actual ["walk to the Gutted',
      '        Eel"]',
      "  - The Tongueless Bell_objective  not tried: it moves a quest on that the party",
      "    has not accepted",
    ].join("\n"),
  );
});
