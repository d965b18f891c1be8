import assert from "node:assert/strict";
import { test } from "node:test";
import { block, cutEnd, cutStart, fit, fixed, inline, neutral } from "../../src/ai/prompts/sections.ts";
import { TRAILER_MARKER } from "../../src/ai/trailer.ts";

const user = (...blocks: ReturnType<typeof block>[]) => [{ role: "user" as const, blocks }];
const length = (messages: { content: string }[]) => messages.reduce((n, m) => n + m.content.length, 0);

test("neutral: no marker, fences, control characters or lone surrogates survive", () => {
  assert.equal(neutral(`a ${TRAILER_MARKER} b`), "a [STATE] b");
  assert.ok(!neutral("<<<<<STATE>>>>>").includes(TRAILER_MARKER));
  assert.ok(!neutral(`<<<${TRAILER_MARKER.slice(3, -3)}${TRAILER_MARKER}>>>`).includes(TRAILER_MARKER));
  assert.equal(neutral("```json\n{}\n````"), "'''json\n{}\n'''");
  assert.equal(neutral("a\r\nb\rc\u0000d\u0007e\tf"), "a\nb\ncde\tf");
  assert.equal(neutral("x\ud83dy\udc00z 🐉"), "x\ufffdy\ufffdz 🐉");
});

test("inline: one line, capped", () => {
  assert.equal(inline("  a\n\n## Fake heading\nb ", 100), "a ## Fake heading b");
  assert.equal(inline("abcdef", 4), "abc…");
});

test("cuts never split a surrogate pair", () => {
  const dragons = "🐉".repeat(10);
  for (let max = 2; max < 20; max++) {
    for (const cut of [cutEnd(dragons, max), cutStart(dragons, max)]) {
      assert.ok(cut.length <= max, `${max}`);
      assert.ok(
        !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(cut),
        `${max}`,
      );
    }
  }
  assert.equal(cutStart("abcdef", 4), "…def");
  assert.equal(cutEnd("abc", 3), "abc");
});

test("fit: nothing changes within budget", () => {
  const plans = user(block("## A", ["one", "two"], 1), fixed(null, "rules"));
  assert.deepEqual(fit(plans, 1_000), [{ role: "user", content: "## A\none\ntwo\n\nrules" }]);
});

test("fit: blocks are trimmed in rank order, from their side, with a note", () => {
  const items = Array.from({ length: 10 }, (_, i) => `item ${i} ${"x".repeat(40)}`);
  const plans = user(
    block("## Late", items, 2, { omitted: (n) => `(${n} left out)` }),
    block("## Early", items, 1, { from: "start", omitted: (n) => `(${n} left out)` }),
    fixed(null, "rules"),
  );
  const full = length(fit(plans, 1_000_000));
  const [message] = fit(plans, full - 200);
  assert.ok(message!.content.length <= full - 200);
  const [late, early] = message!.content.split("\n\n");
  assert.equal(late, `## Late\n${items.join("\n")}`, "the later rank is untouched");
  assert.ok(early!.startsWith("## Early\n"));
  assert.ok(early!.endsWith("left out)"));
  assert.ok(early!.includes(items[9]!), "the oldest go first: the newest stay");
  assert.ok(!early!.includes(items[0]!));
  assert.ok(message!.content.endsWith("rules"));
});

test("fit: the boundary item is cut instead of dropped when enough of it fits", () => {
  const story = ["old ".repeat(100).trim(), "new ".repeat(100).trim()];
  const plans = user(block("## Story", story, 1, { join: "\n\n", from: "start" }));
  const [message] = fit(plans, 9 + 400 + 2 + 200);
  assert.ok(message!.content.length <= 611);
  assert.ok(message!.content.endsWith(story[1]!), "the newest entry whole");
  assert.match(message!.content, /^## Story\n…(old ?)+\n\nnew/, "the oldest keeps its end");
});

test("fit: an even step cuts every item to a common length before anything is dropped", () => {
  const entries = Array.from({ length: 4 }, (_, i) => `${i} ${"y".repeat(998)}`);
  const plans = user(block("## Old", entries, 5, { join: "\n\n", even: { rank: 1, floor: 300 } }));
  const [message] = fit(plans, 2_500);
  const kept = message!.content.split("\n\n");
  assert.equal(kept.length, 4, "all four stay");
  assert.ok(kept.every((k, i) => k.startsWith(i === 0 ? "## Old\n0 " : `${i} `) && k.endsWith("…")));
  assert.ok(message!.content.length <= 2_500);
  const [tight] = fit(plans, 800);
  assert.ok(tight!.content.length <= 800);
  assert.ok(tight!.content.split("\n\n").length < 4, "below the floor, entries are dropped");
});

test("fit: protected items are cut longest first and fixed blocks never", () => {
  const plans = user(
    block("## Actions", ["short action", "z".repeat(10_000)], "protected"),
    block("## Lore", ["lore ".repeat(50)], 1),
    fixed("## Format", '{"answer": true}'),
  );
  const [message] = fit(plans, 1_000);
  assert.ok(message!.content.length <= 1_000);
  assert.ok(message!.content.includes("short action"));
  assert.ok(!message!.content.includes("## Lore"), "trimmable blocks go before protected ones are cut");
  assert.ok(message!.content.endsWith('## Format\n{"answer": true}'));
});

test("fit: the budget counts every message", () => {
  const plans = [
    { role: "system" as const, blocks: [fixed(null, "s".repeat(500))] },
    { role: "user" as const, blocks: [block("## A", ["a".repeat(1_000)], 1)] },
  ];
  const messages = fit(plans, 900);
  assert.ok(length(messages) <= 900);
  assert.equal(messages[0]!.content.length, 500);
});
