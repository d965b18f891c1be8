/**
 * Snapshot tests of the prompt builders on the example world, plus what the
 * snapshots must show (the world's own text really flows in) and the rules
 * every prompt keeps (budgets, trailer only when needed, answer formats).
 *
 * Snapshots live in test/ai/snapshots/*.txt, one file per prompt, messages
 * separated by "===== <role> =====" lines, and are compared exactly. After an
 * intended change to a builder, rewrite them with:
 *
 *   UPDATE_SNAPSHOTS=1 npm test -- test/ai/prompts.test.ts
 *
 * and read the diff before keeping it.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { IntentAnswerSchema, JudgeAnswerSchema } from "../../src/ai/answers.ts";
import { loreQuery, selectLore } from "../../src/ai/lore.ts";
import { CACHE_CHARS_PER_TOKEN, CACHE_MIN_TOKENS } from "../../src/ai/prompts/budgets.ts";
import {
  type ChatMessage,
  intentPrompt,
  judgePrompt,
  narrationPrompt,
  PROMPT_BUDGETS,
  summaryPrompt,
} from "../../src/ai/prompts/index.ts";
import { INTENT_DEFINITIONS, INTENT_SYSTEM } from "../../src/ai/prompts/intent.ts";
import { JUDGE_SYSTEM } from "../../src/ai/prompts/judge.ts";
import { TRAILER_MARKER } from "../../src/ai/trailer.ts";
import { INTENTS, type NarrationRequest } from "../../src/engine/ports.ts";
import type { World } from "../../src/world/schema/index.ts";
import { harbor } from "../helpers/author.ts";
import {
  all,
  atCapIntent,
  atCapJudge,
  atCapOpening,
  atCapTurn,
  atCapWorld,
  exampleEventTurn,
  exampleIntent,
  exampleJudge,
  exampleOpening,
  exampleSummary,
  exampleTurn,
  size,
} from "./prompts-fixtures.ts";

const SNAPSHOTS = new URL("./snapshots/", import.meta.url);
const UPDATE = process.env.UPDATE_SNAPSHOTS === "1";

function render(messages: ChatMessage[]): string {
  return `${messages.map((m) => `===== ${m.role} =====\n${m.content}`).join("\n\n")}\n`;
}

function matchSnapshot(name: string, messages: ChatMessage[]): void {
  const file = new URL(`${name}.txt`, SNAPSHOTS);
  const actual = render(messages);
  if (UPDATE || !existsSync(file)) {
    mkdirSync(SNAPSHOTS, { recursive: true });
    writeFileSync(file, actual);
    if (!UPDATE) assert.fail(`snapshot ${name}.txt was missing and has been written: check it and run again`);
    return;
  }
  assert.equal(
    actual,
    readFileSync(file, "utf8"),
    `snapshot ${name}.txt differs (UPDATE_SNAPSHOTS=1 rewrites it)`,
  );
}

async function narrationFor(world: World, request: NarrationRequest, gameMode: string | null) {
  const lore = await selectLore(world, loreQuery(request));
  return narrationPrompt(world, request, { gameMode, lore });
}

const world = harbor();

// ---------------------------------------------------------------------------
// Snapshots
// ---------------------------------------------------------------------------

test("snapshot: intent prompt (example world)", () => {
  matchSnapshot("intent", intentPrompt(world, exampleIntent(world)));
});

test("snapshot: narration prompt, turn (example world)", async () => {
  matchSnapshot("narration-turn", await narrationFor(world, exampleTurn(world), "Harbour Tale"));
});

test("snapshot: narration prompt with an active event and a summary to make (example world)", async () => {
  matchSnapshot(
    "narration-event-summary",
    await narrationFor(world, exampleEventTurn(world), "Wrecker's Luck"),
  );
});

test("snapshot: opening prompt (example world)", async () => {
  matchSnapshot("opening", await narrationFor(world, exampleOpening(world), "Harbour Tale"));
});

test("snapshot: judge prompt (example world)", () => {
  matchSnapshot("judge", judgePrompt(world, exampleJudge(world)));
});

test("snapshot: summary prompt (example world)", () => {
  matchSnapshot("summary", summaryPrompt(world, exampleSummary(world)));
});

// ---------------------------------------------------------------------------
// The world's own text flows into the prompts
// ---------------------------------------------------------------------------

test("narration: the system message is the generateStory task, keys in order, then the engine's rules", async () => {
  const [system] = await narrationFor(world, exampleTurn(world), null);
  const entries = Object.entries(world.aiInstructions.generateStory!);
  const positions = entries.map(([key, text]) => system!.content.indexOf(`${key}: ${text}`));
  assert.ok(
    positions.every((p) => p > 0),
    "every generateStory entry is there as Key: text",
  );
  assert.deepEqual(
    positions,
    [...positions].sort((a, b) => a - b),
    "in key order",
  );
  assert.ok(system!.content.indexOf("## Rules of the game") > positions.at(-1)!);
  assert.ok(
    !system!.content.includes(world.aiInstructions.generateInitialStart!.Opening!),
    "no opening task",
  );
  assert.ok(!system!.content.includes(world.aiInstructions.generateNPCDetails!.Manner!), "no other task");
});

test("narration: style and game mode instructions go in the user message; an unknown or null mode adds none", async () => {
  const [system, user] = await narrationFor(world, exampleTurn(world), "Wrecker's Luck");
  assert.ok(user!.content.includes(world.narratorStyle!));
  assert.ok(user!.content.includes(world.gameModes["Wrecker's Luck"]!.instructions));
  assert.ok(!system!.content.includes(world.narratorStyle!));
  for (const mode of [null, "No Such Mode", "constructor"]) {
    const text = all(await narrationFor(world, exampleTurn(world), mode));
    assert.ok(!text.includes("## Game mode"), `mode ${mode}`);
  }
});

test("narration: lore is picked by similarity to the turn", async () => {
  const request = exampleEventTurn(world);
  const lore = await selectLore(world, loreQuery(request));
  assert.equal(lore[0]?.key, "The Dark Lamp", "the lighthouse turn's best entry is the lighthouse's");
  const text = all(narrationPrompt(world, request, { gameMode: null, lore }));
  assert.ok(text.includes(`The Dark Lamp: ${world.worldLore["The Dark Lamp"]!.text}`));
  assert.ok(text.indexOf("The Dark Lamp:") < text.indexOf(`${lore[1]!.key}:`), "best first");
});

test("narration: the scene carries public NPC info, never hiddenInfo", async () => {
  const text = all(await narrationFor(world, exampleTurn(world), null));
  const mara = world.npcs["Mara Venn"]!;
  assert.ok(text.includes(`Mara Venn: ${mara.basicInfo}`));
  assert.ok(!text.includes(mara.hiddenInfo!));
});

test("narration: the party's traits bring their narrative guidance", async () => {
  const text = all(await narrationFor(world, exampleTurn(world), null));
  assert.ok(text.includes(`Blessed (Isobel Carrow): ${world.traits.Blessed!.traitNarrativeEffects}`));
});

test("narration: no story entry is printed twice, and the summary's work is not asked of the narrator", async () => {
  const request = exampleEventTurn(world);
  const text = all(await narrationFor(world, request, null));
  for (const line of request.scene.recentStory) {
    assert.equal(text.split(line).length - 1, 1, `printed once: ${line.slice(0, 30)}`);
  }
  assert.doesNotMatch(text, /fold into the summary|running summary/i);
});

test("opening: system is generateStory then generateInitialStart; the story start is retold; no trailer", async () => {
  const messages = await narrationFor(world, exampleOpening(world), "Harbour Tale");
  const [system, user] = messages;
  const story = system!.content.indexOf(world.aiInstructions.generateStory!.Voice!);
  const opening = system!.content.indexOf(world.aiInstructions.generateInitialStart!.Opening!);
  assert.ok(story > 0 && opening > story);
  assert.ok(user!.content.includes(world.storyStarts["Dawn at the Docks"]!.storyStart));
  assert.ok(user!.content.includes(world.gameModes["Harbour Tale"]!.instructions));
  assert.ok(!all(messages).includes(TRAILER_MARKER));
});

// ---------------------------------------------------------------------------
// Order (issue 19 item 7) and the answer formats
// ---------------------------------------------------------------------------

test("narration: ordered from stable to volatile, so consecutive turns share a long prefix", async () => {
  const request = exampleEventTurn(world);
  const text = all(await narrationFor(world, request, "Wrecker's Luck"));
  const order = [
    "## World background",
    "## Narrator style",
    "## Game mode",
    "## The party (character sheets)",
    "## Story so far (summary)",
    request.scene.recentStory[0]!.slice(0, 60),
    request.scene.recentStory.at(-1)!.slice(0, 60),
    // The scene changes whenever the party moves: after the earlier turns (issue 39).
    "## Scene",
    "## The party now",
    "## Journal",
    "## Lore that may matter now",
    "## Narrative event",
    "## Actions this turn",
    "## Your task",
  ].map((heading) => [heading, text.indexOf(heading)] as const);
  for (const [heading, at] of order) assert.ok(at >= 0, `${heading} present`);
  for (let i = 1; i < order.length; i++)
    assert.ok(order[i - 1]![1] < order[i]![1], `${order[i - 1]![0]} before ${order[i]![0]}`);
  assert.ok(!text.includes(TRAILER_MARKER), "no trailer: the narration is story only");
});

test("issue 39: the intent and judge system messages pass the prompt-cache minimum on their own, and their examples parse", async () => {
  const min = CACHE_MIN_TOKENS * CACHE_CHARS_PER_TOKEN;
  for (const [name, system] of [
    ["intent", INTENT_SYSTEM],
    ["judge", JUDGE_SYSTEM],
  ] as const)
    assert.ok(system.length >= min, `${name} system message: ${system.length} characters, under ${min}`);
  // The narration's stable part (the system message and the first user message) passes it too.
  const [system, first] = await narrationFor(world, exampleTurn(world), "Harbour Tale");
  assert.ok(system!.content.length + first!.content.length >= min);

  // Every worked case answers with a known intent, in the schema's shape.
  const cases = INTENT_SYSTEM.split("\n").filter((l) => l.startsWith("- ") && l.includes(" -> {"));
  assert.ok(cases.length >= 5, `${cases.length} intent examples`);
  for (const line of cases) {
    const answer = IntentAnswerSchema.parse(JSON.parse(line.slice(line.indexOf(" -> ") + 4)));
    assert.ok(INTENTS.includes(answer.intent), line);
  }
  const answers = JUDGE_SYSTEM.split("\n").filter((l) => l.startsWith("Answer: {"));
  assert.equal(answers.length, 2, "two worked judge examples");
  for (const line of answers) JudgeAnswerSchema.parse(JSON.parse(line.slice("Answer: ".length)));
});

test("intent: every intent has a one-line definition, in INTENTS order", () => {
  const [system] = intentPrompt(world, exampleIntent(world));
  assert.deepEqual(Object.keys(INTENT_DEFINITIONS), [...INTENTS]);
  const lines = system!.content.split("\n").filter((l) => /^- [a-zA-Z]+: /.test(l));
  assert.deepEqual(
    lines.slice(0, INTENTS.length).map((l) => l.slice(2, l.indexOf(":"))),
    [...INTENTS],
  );
});

test("intent: the example answer parses with IntentAnswerSchema; the spec 3 rules are there", () => {
  const [system] = intentPrompt(world, exampleIntent(world));
  const example = system!.content.split("\n").find((l) => l.startsWith("For example: "))!;
  assert.ok(IntentAnswerSchema.safeParse(JSON.parse(example.slice("For example: ".length))).success);
  for (const rule of ["real movement verb", "explicit nearby destination", "high confidence", "confirm"]) {
    assert.ok(system!.content.includes(rule), rule);
  }
});

test("intent: places are grouped by kind, the party's region's locations first", () => {
  const [, user] = intentPrompt(world, exampleIntent(world));
  const text = user!.content;
  assert.ok(text.indexOf("## Areas of Brinewick Docks") < text.indexOf("## Locations"));
  assert.ok(text.indexOf("## Locations") < text.indexOf("## Regions"));
  assert.ok(text.indexOf("- Counting House (region: Brinewick)") < text.indexOf("- Old Lighthouse"));
  assert.ok(text.trimEnd().endsWith(exampleIntent(world).text), "the action comes last");
});

test("judge: questions are numbered from 1 with their kind; the example answer parses with JudgeAnswerSchema", () => {
  const [system, user] = judgePrompt(world, exampleJudge(world));
  const example = system!.content.split("\n").find((l) => l.startsWith('{"verdicts"'))!;
  assert.ok(JudgeAnswerSchema.safeParse(JSON.parse(example)).success);
  assert.ok(user!.content.includes("1. [action] Does the player read the keeper's logbook?"));
  assert.ok(user!.content.includes("3. [story] Corvin Slade threatens the player or their friends"));
});

test("judge: the story text is sent only for story questions, the actions only for action questions", () => {
  const request = exampleJudge(world);
  const actionOnly = all(
    judgePrompt(world, { ...request, questions: request.questions.filter((q) => q.kind === "action") }),
  );
  // Issue 39: an action question sees the newest story entry ("read it"), never the rest of the story.
  assert.ok(actionOnly.includes("## NEWEST story entry") && actionOnly.includes("## Actions"));
  assert.ok(!actionOnly.includes("## Earlier story entries") && !actionOnly.includes("## Story so far"));
  const storyOnly = all(
    judgePrompt(world, { ...request, questions: request.questions.filter((q) => q.kind === "story") }),
  );
  assert.ok(storyOnly.includes("## NEWEST story entry") && !storyOnly.includes("## Actions"));
});

// ---------------------------------------------------------------------------
// Budgets
// ---------------------------------------------------------------------------

test("budgets: the example world's prompts are never trimmed", async () => {
  const prompts: [string, ChatMessage[], number][] = [
    ["intent", intentPrompt(world, exampleIntent(world)), PROMPT_BUDGETS.intent],
    ["turn", await narrationFor(world, exampleTurn(world), "Harbour Tale"), PROMPT_BUDGETS.narration],
    ["event", await narrationFor(world, exampleEventTurn(world), "Wrecker's Luck"), PROMPT_BUDGETS.narration],
    ["opening", await narrationFor(world, exampleOpening(world), "Harbour Tale"), PROMPT_BUDGETS.opening],
    ["judge", judgePrompt(world, exampleJudge(world)), PROMPT_BUDGETS.judge],
  ];
  for (const [name, messages, budget] of prompts) {
    assert.ok(size(messages) < budget, `${name}: ${size(messages)} of ${budget}`);
    assert.ok(!all(messages).includes("…"), `${name}: nothing cut`);
    assert.ok(!/left out|more not listed|\(and \d+ more\)/.test(all(messages)), `${name}: nothing left out`);
  }
});

test("budgets: the at-cap world's prompts stay within budget and keep what matters", async () => {
  const cap = atCapWorld();
  const intent = intentPrompt(cap, atCapIntent(cap));
  assert.ok(size(intent) <= PROMPT_BUDGETS.intent);
  assert.ok(all(intent).includes(atCapIntent(cap).text));
  assert.ok(all(intent).includes("## Areas of"), "areas survive");
  assert.match(all(intent), /\(and \d+ more\)/, "the places list is trimmed, with a note");

  const turn = atCapTurn(cap);
  const narration = await narrationFor(cap, turn, "Story");
  const text = all(narration);
  assert.ok(size(narration) <= PROMPT_BUDGETS.narration, `${size(narration)}`);
  for (const action of turn.actions) assert.ok(text.includes(action.text));
  for (const instruction of turn.instructions) assert.ok(text.includes(instruction));
  assert.ok(text.includes(turn.event!.beats));
  assert.ok(text.includes(turn.scene.recentStory.at(-1)!), "the previous turn survives whole");
  assert.ok(text.includes(turn.summary), "the summary survives whole");
  assert.equal(text.split(TRAILER_MARKER).length - 1, 0);

  const opening = await narrationFor(cap, atCapOpening(cap), "Story");
  assert.ok(size(opening) <= PROMPT_BUDGETS.opening);
  const judge = judgePrompt(cap, atCapJudge(cap));
  assert.ok(size(judge) <= PROMPT_BUDGETS.judge);
  atCapJudge(cap).questions.forEach((q, i) => {
    assert.ok(all(judge).includes(`${i + 1}. [${q.kind}] ${q.query}`));
  });
});

// ---------------------------------------------------------------------------
// Purity
// ---------------------------------------------------------------------------

test("builders are pure: same input, same output; the request and world are not changed", async () => {
  const request = exampleEventTurn(world);
  const before = JSON.stringify(request);
  const worldBefore = JSON.stringify(world);
  const lore = await selectLore(world, loreQuery(request));
  const first = narrationPrompt(world, request, { gameMode: "Harbour Tale", lore });
  const second = narrationPrompt(world, request, { gameMode: "Harbour Tale", lore });
  assert.deepEqual(first, second);
  assert.equal(JSON.stringify(request), before);
  intentPrompt(world, exampleIntent(world));
  judgePrompt(world, exampleJudge(world));
  assert.equal(JSON.stringify(world), worldBefore);
});

// ---------------------------------------------------------------------------
// docs/prompts.md stays true to the code
// ---------------------------------------------------------------------------

test("docs/prompts.md: budgets, example sizes and the example match the code", async () => {
  const doc = readFileSync(new URL("../../docs/prompts.md", import.meta.url), "utf8");
  const n = (value: number) => value.toLocaleString("en-US");
  const rows: [string, number, number][] = [
    ["intent", PROMPT_BUDGETS.intent, size(intentPrompt(world, exampleIntent(world)))],
    [
      "narration (turn)",
      PROMPT_BUDGETS.narration,
      size(await narrationFor(world, exampleTurn(world), "Harbour Tale")),
    ],
    [
      "opening",
      PROMPT_BUDGETS.opening,
      size(await narrationFor(world, exampleOpening(world), "Harbour Tale")),
    ],
    ["judge", PROMPT_BUDGETS.judge, size(judgePrompt(world, exampleJudge(world)))],
    ["summary", PROMPT_BUDGETS.summary, size(summaryPrompt(world, exampleSummary(world)))],
  ];
  for (const [kind, budget, measured] of rows) {
    assert.ok(doc.includes(`| ${kind} | ${n(budget)} `), `${kind} budget ${budget}`);
    const row = doc.split("\n").find((l) => l.startsWith(`| ${kind} |`))!;
    assert.ok(row.includes(`| ${n(measured)} `), `${kind} example size ${measured}: ${row}`);
  }
  const event = size(await narrationFor(world, exampleEventTurn(world), "Wrecker's Luck"));
  assert.ok(
    doc.includes(`${n(event)} (~${n(Math.round(event / 40) * 10)}) with an event and a summary`),
    `${event}`,
  );

  const snapshot = readFileSync(new URL("narration-event-summary.txt", SNAPSHOTS), "utf8");
  const blocks = [...doc.matchAll(/```text\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const example = blocks.find((b) => b.startsWith("===== system"))!;
  for (const line of example.split("\n")) {
    if (line.trim() === "" || line.includes("…")) continue;
    assert.ok(snapshot.includes(line), `example line not in the snapshot: ${line}`);
  }
});

test("issue 19 item 3: resources, death and the game mode's difficulty reach the narrator; state changes in prose are forbidden", async () => {
  const copy = structuredClone(world);
  copy.gameModes!["Wrecker's Luck"]!.difficulty = "Hard";
  const [system, user] = await narrationFor(copy, exampleEventTurn(copy), "Wrecker's Luck");
  assert.match(system!.content, /The game keeps the numbers/);
  for (const resource of Object.values(copy.resourceSettings)) {
    if (resource.usageInstructions) assert.ok(user!.content.includes(resource.usageInstructions.trim()));
  }
  assert.ok(user!.content.includes(copy.death.instructions.trim()));
  assert.ok(user!.content.includes("Difficulty: Hard"));
  // A task that asks a model to change state is not sent.
  copy.aiInstructions.generateResourceUpdates = { custom: "Deal 10 damage on every hit." };
  const [again] = await narrationFor(copy, exampleTurn(copy), null);
  assert.doesNotMatch(again!.content, /Deal 10 damage/);
});
