import assert from "node:assert/strict";
import { test } from "node:test";
import { LORE_EMBED_MAX, LORE_QUERY_MAX, loreQuery, selectLore } from "../../src/ai/lore.ts";
import { TRAILER_MARKER } from "../../src/ai/trailer.ts";
import type { World } from "../../src/world/schema/index.ts";
import { harbor } from "../helpers/author.ts";
import { exampleEventTurn, exampleTurn } from "./prompts-fixtures.ts";

function withLore(entries: Record<string, string>): World {
  const world = harbor();
  world.worldLore = Object.fromEntries(Object.entries(entries).map(([key, text]) => [key, { text }]));
  return world;
}

/** A toy embedding: one dimension per listed word, counting occurrences. Records every call. */
function toyEmbed(words: string[]) {
  const calls: string[][] = [];
  const embed = async (texts: string[]) => {
    calls.push(texts);
    return texts.map((t) => words.map((w) => t.toLowerCase().split(w).length - 1));
  };
  return { embed, calls };
}

test("loreQuery: the actions, the place, the NPCs present, the event and the previous turn", () => {
  const world = harbor();
  const request = exampleEventTurn(world);
  const query = loreQuery(request);
  assert.ok(query.startsWith(request.actions[0]!.text));
  assert.ok(query.includes("Lamp Room, Old Lighthouse, Gull Coast"));
  assert.ok(query.includes("Storm Night"));
  assert.ok(query.includes(request.scene.recentStory.at(-1)!));
  assert.ok(!query.includes(request.scene.recentStory[0]!), "only the previous turn");
  const turn = loreQuery(exampleTurn(world));
  assert.ok(turn.includes("Mara Venn"), "NPCs present");
  const long = loreQuery({ ...request, actions: [{ player: "A", text: "x".repeat(100_000) }] });
  assert.equal(long.length, LORE_QUERY_MAX);
});

test("lexical: the relevant entry ranks first; at most `limit`, default 3", async () => {
  const world = harbor();
  const picked = await selectLore(world, "I climb to the lamp of the Old Lighthouse and trim the wick.");
  assert.equal(picked[0]?.key, "The Dark Lamp");
  assert.equal(picked.length, 1, "the others share no content word");
  const broad =
    "In the fog I climb to the Old Lighthouse while the temple bell rings and the saint's sisters pray.";
  assert.equal((await selectLore(world, broad)).length, 3);
  assert.deepEqual(picked[0], { key: "The Dark Lamp", text: world.worldLore["The Dark Lamp"]!.text });
  assert.equal((await selectLore(world, "the lighthouse lamp", { limit: 1 })).length, 1);
  assert.deepEqual(await selectLore(world, "the lighthouse lamp", { limit: 0 }), []);
  const debts = await selectLore(world, "Who holds my debt? The moneylender wants ink.");
  assert.equal(debts[0]?.key, "Brinewick Debts");
});

test("lexical: the entry's key counts; entries scoring 0 are not returned", async () => {
  const world = withLore({ Saints: "Bells and prayers.", Fish: "Herring and cod." });
  assert.deepEqual(
    (await selectLore(world, "Tell me about the saints")).map((l) => l.key),
    ["Saints"],
  );
  assert.deepEqual(await selectLore(world, "zzz qqq xyzzy"), []);
  assert.deepEqual(await selectLore(world, ""), []);
  assert.deepEqual(await selectLore(world, "   "), []);
});

test("ties keep map order", async () => {
  const world = withLore({ C: "the tide bell", A: "the tide bell", B: "the tide bell", D: "nothing here" });
  assert.deepEqual(
    (await selectLore(world, "tide bell")).map((l) => l.key),
    ["C", "A", "B"],
  );
  const { embed } = toyEmbed(["tide", "bell"]);
  assert.deepEqual(
    (await selectLore(world, "tide bell", { embed })).map((l) => l.key),
    ["C", "A", "B"],
  );
});

test("empty lore: nothing returned and nothing embedded", async () => {
  const world = withLore({});
  const { embed, calls } = toyEmbed(["tide"]);
  assert.deepEqual(await selectLore(world, "tide", { embed }), []);
  assert.equal(calls.length, 0);
  const blank = withLore({ Empty: "   " });
  assert.deepEqual(await selectLore(blank, "tide", { embed }), []);
  assert.equal(calls.length, 0);
});

test("embed: ranks by cosine, not by shared words", async () => {
  // Lexically the query shares "lighthouse" with Beacon; the vectors say Storm is closer.
  const world = withLore({ Beacon: "The lighthouse stands.", Storm: "Gale and thunder, gale and rain." });
  const embed = async (texts: string[]) =>
    texts.map((t) => (t.includes("Gale") || t.includes("weather") ? [1, 0] : [0, 1]));
  assert.equal((await selectLore(world, "What weather at the lighthouse?"))[0]?.key, "Beacon");
  const picked = await selectLore(world, "What weather at the lighthouse?", { embed });
  assert.deepEqual(
    picked.map((l) => l.key),
    ["Storm"],
    "cosine 0 is not returned",
  );
});

test("embed: the world's entry vectors are computed once per world and embed function", async () => {
  const world = harbor();
  const { embed, calls } = toyEmbed(["lighthouse", "lamp", "fog", "debt", "saint", "bell"]);
  const first = await selectLore(world, "the lighthouse lamp in the fog", { embed });
  assert.equal(first[0]?.key, "The Dark Lamp");
  assert.equal(calls.length, 2, "entries, then the query");
  assert.equal(calls[0]!.length, Object.keys(world.worldLore).length);
  assert.ok(calls[0]![0]!.startsWith("The Tide Saint: "), "each entry is embedded with its key");
  await selectLore(world, "a debt to the moneylender", { embed });
  await selectLore(world, "the saint's bell", { embed });
  assert.equal(calls.length, 4, "later turns embed only the query");
  assert.ok(calls.slice(1).every((c) => c.length === 1));

  const other = toyEmbed(["lighthouse"]);
  await selectLore(world, "lighthouse", { embed: other.embed });
  assert.equal(other.calls.length, 2, "another embed function has its own vectors");
  await selectLore(harbor(), "lighthouse", { embed });
  assert.equal(calls.length, 6, "another world has its own vectors");
});

test("embed: concurrent turns share one embedding of the entries", async () => {
  const world = harbor();
  const { embed, calls } = toyEmbed(["lighthouse", "fog"]);
  await Promise.all([1, 2, 3].map(() => selectLore(world, "lighthouse fog", { embed })));
  assert.equal(calls.filter((c) => c.length > 1).length, 1);
});

test("embed: unusable vectors fall back to the lexical ranking; a failing embed rejects and is retried", async () => {
  const world = harbor();
  const query = "I climb to the lamp of the Old Lighthouse.";
  const lexical = await selectLore(world, query);
  const wrongCount = async (texts: string[]) => texts.slice(1).map(() => [1, 0]);
  assert.deepEqual(await selectLore(world, query, { embed: wrongCount }), lexical);
  const ragged = async (texts: string[]) => texts.map((_, i) => (i === 0 ? [1] : [1, 0]));
  assert.deepEqual(await selectLore(world, query, { embed: ragged }), lexical);
  const notNumbers = async (texts: string[]) => texts.map(() => [Number.NaN, 1]);
  assert.deepEqual(await selectLore(world, query, { embed: notNumbers }), lexical);

  let fail = true;
  let calls = 0;
  const flaky = async (texts: string[]) => {
    calls++;
    if (fail) throw new Error("server down");
    return texts.map(() => [1, 1]);
  };
  await assert.rejects(selectLore(world, query, { embed: flaky }), /server down/);
  fail = false;
  assert.equal((await selectLore(world, query, { embed: flaky })).length, 3, "retried, not cached");
  assert.equal(calls, 3);
});

test("hostile lore: thousands of huge entries, unicode, the trailer marker", async () => {
  const nasty = `${TRAILER_MARKER} 🐉 Ünïcödé lighthouse \ud83d {"event": "completed"} \`\`\``;
  const entries: Record<string, string> = {};
  for (let i = 0; i < 5_000; i++)
    entries[`Entry ${i} ${nasty}`] = `${nasty} ${"word ".repeat(i % 50)}`.repeat(i === 7 ? 5_000 : 1);
  Object.defineProperty(entries, "__proto__", { value: "lighthouse lamp", enumerable: true });
  const world = withLore(entries);
  const picked = await selectLore(world, `lighthouse ${nasty}`);
  assert.equal(picked.length, 3);
  assert.deepEqual(await selectLore(world, `lighthouse ${nasty}`), picked, "deterministic");
  const { embed, calls } = toyEmbed(["lighthouse", "🐉"]);
  const viaEmbed = await selectLore(world, "lighthouse", { embed });
  assert.equal(viaEmbed.length, 3);
  assert.ok(
    calls[0]!.every((t) => t.length <= LORE_EMBED_MAX),
    "entry texts are cut before embedding",
  );
});
