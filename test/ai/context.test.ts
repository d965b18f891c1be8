/**
 * Issue 39: the model's context on real worlds. A game is played with the
 * real OpenAI-compatible provider against a local OpenAI-protocol server on
 * 127.0.0.1 that records every request (bench/context-game.ts), on the
 * example world, on the generated at-cap world and, when present, on the
 * largest public world in ../shared/worlds (read in place, never copied).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { playRecorded, type RecordedCall, RecordingServer, requestText } from "../../bench/context-game.ts";
import { generateWorld } from "../../bench/generate-world.ts";
import { createOpenAiProvider } from "../../src/ai/openai/index.ts";
import { createSession } from "../../src/engine/session.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import { harbor } from "../helpers/author.ts";
import { apiError, MockServer, streamed } from "./mock-server.ts";

const REAL = new URL(
  "../../../shared/worlds/fumbleforce__hedoria-world__hedoria.merged-from-world-tabs.json",
  import.meta.url,
);
const TURNS = 30;

let server: RecordingServer;
before(async () => {
  server = await RecordingServer.start();
});
after(() => server.close());

function worlds(): [string, () => unknown][] {
  return [
    ["example world", () => harbor()],
    ["at-cap world", () => generateWorld(1)],
    ["largest public world", () => JSON.parse(readFileSync(REAL, "utf8"))],
  ];
}

const of = (kind: RecordedCall["kind"]) => server.calls.filter((c) => c.kind === kind);
const text = (call: RecordedCall) => call.messages.map((m) => m.content).join("\n");

for (const [name, load] of worlds()) {
  describe(`the narrator's context: ${name}`, () => {
    test("the opening carries the story start; every narration carries the story, the actions, the characters and the world's voice, under a byte-stable system message", async (t) => {
      if (name === "largest public world" && !existsSync(REAL)) {
        t.skip("../shared/worlds is not here");
        return;
      }
      const world = load() as { storyStarts: Record<string, { storyStart: string }> };
      server.calls.length = 0;
      const startKey = Object.keys(world.storyStarts)[0]!;
      const [player] = await playRecorded(world, server, { turns: TURNS, storyStart: startKey });
      const [opening] = of("opening");
      assert.ok(opening, "an opening request");
      const start = world.storyStarts[startKey]!.storyStart.trim();
      assert.ok(text(opening).includes(start.slice(0, 200)), "the opening carries the story start");
      assert.match(opening.messages.at(-1)!.content, /## Story start \(the author's opening/);

      const turns = of("narration");
      assert.equal(turns.length, TURNS);
      const system = turns[0]!.messages[0]!;
      assert.equal(system.role, "system");
      assert.match(system.content, /^- Write in the (first|second|third) person/m);
      for (const [i, call] of turns.entries()) {
        assert.equal(
          call.messages[0]!.content,
          system.content,
          `turn ${i + 1}: the system message is byte-identical`,
        );
        const all = text(call);
        assert.ok(
          all.includes("## The party (character sheets)") && all.includes(`### ${player}`),
          "the sheets",
        );
        assert.ok(all.includes("## Scene") && all.includes("Location: "), "the scene");
        assert.ok(all.includes(`## Actions this turn\n- ${player}: `), "this turn's action");
        // The previous story, as the assistant's message, right before this turn.
        const assistants = call.messages.filter((m) => m.role === "assistant");
        assert.ok(assistants.length >= 1, `turn ${i + 1}: the previous story`);
        if (i > 0) {
          const previousStory = turns[i - 1]!; // its answer is the story the server streamed next
          assert.ok(previousStory, "a previous request");
          const users = call.messages.filter((m) => m.role === "user");
          assert.ok(
            users.some((m) => m.content.includes(`what the players did\n- ${player}: `)),
            `turn ${i + 1}: an earlier turn's actions as a user message`,
          );
        }
        // Roles alternate after the system message: user, assistant, user, ..., user.
        for (const [k, m] of call.messages.slice(1).entries())
          assert.equal(m.role, k % 2 === 0 ? "user" : "assistant");
        assert.equal(call.messages.at(-1)!.role, "user");
      }
      // Cacheable: a request starts with the whole previous one but its last message (this turn's part),
      // except after a new summary or when the provider settles the traits, lore or guidance again.
      const kept = turns
        .slice(1)
        .filter((call, i) =>
          requestText(call).startsWith(
            requestText({ ...turns[i]!, messages: turns[i]!.messages.slice(0, -1) }),
          ),
        );
      assert.ok(
        kept.length >= 0.7 * (turns.length - 1),
        `${kept.length} of ${turns.length - 1} turns keep the previous prefix`,
      );
    });
  });
}

describe("party-aware calls", () => {
  test("two players' actions reach the intent call and the narrator is told who plays and who passed", async () => {
    const world = harbor();
    server.calls.length = 0;
    const names = ["Ana", "Bo"];
    await playRecorded(world, server, {
      turns: 2,
      players: names.map((name) => ({ name })),
      actions: (turn, who) =>
        turn === 1
          ? [
              { player: who[0]!, text: "I ask the harbourmaster about the lighthouse." },
              { player: who[1]!, text: "I study the tide tables on the wall." },
            ]
          : [{ player: who[0]!, text: "I wait by the door." }],
    });
    const intent = of("intent")[0]!;
    const last = intent.messages.at(-1)!.content;
    assert.ok(
      last.includes(`- ${names[0]}: I ask the harbourmaster`) && last.includes(`- ${names[1]}: I study`),
    );
    assert.match(intent.messages[0]!.content, /"leader"/);
    const [first, second] = of("narration");
    assert.match(text(first!), new RegExp(`The players: ${names[0]}, ${names[1]}\\. Address each`));
    assert.match(text(second!), new RegExp(`Passed this turn \\(no action\\): ${names[1]}\\.`));
  });
});

describe("standing guidance", () => {
  test("instructions from recurring triggers are standing guidance whatever made them: a script's pushed effect, a trigger a script added; others are one-time", async () => {
    const world = harbor() as unknown as { triggers: Record<string, unknown> };
    const tick = (operator: string, value: number) => ({ type: "game-tick", operator, value });
    world.triggers.pushes_guidance = {
      name: "pushes_guidance",
      conditions: [tick("greaterThan", 0)],
      effects: [],
      recurring: true,
      script: 'effects.push({ type: "story", instruction: "Gulls circle the party wherever it goes." });',
    };
    world.triggers.adds_trigger = {
      name: "adds_trigger",
      conditions: [tick("equals", 1)],
      effects: [{ type: "story", instruction: "A stranger watches from the quay." }],
      script:
        'triggers.bell_rule = { name: "bell_rule", conditions: [{ type: "game-tick", operator: "greaterThan", value: 1 }], ' +
        'effects: [{ type: "story", instruction: "The temple bell tolls the hour." }], recurring: true };',
    };
    const sandbox = createSandbox();
    const ai = createOpenAiProvider(world as never, {
      baseUrl: server.url,
      model: "recorder",
      timeoutMs: 10_000,
      maxRetries: 0,
    });
    try {
      server.calls.length = 0;
      const session = await createSession(world, {
        ai,
        scripts: sandbox,
        players: [{ name: "Ana" }],
        validate: false,
      });
      for (let turn = 1; turn <= 3; turn++)
        await session.turn({ actions: [{ player: "Ana", text: "I look around." }] });
    } finally {
      await ai.close();
      await sandbox.close();
    }
    const turns = of("narration");
    assert.equal(turns.length, 3);
    const section = (call: RecordedCall, heading: string) => {
      // Standing guidance settled when the turns shown began is in the stable part (before them), the rest in this turn's.
      const now = call.messages.map((m) => m.content).join("\n\n");
      const at = now.indexOf(heading);
      if (at < 0) return "";
      const end = now.indexOf("\n\n## ", at + 1);
      return now.slice(at, end < 0 ? undefined : end);
    };
    const standing = (call: RecordedCall) =>
      `${section(call, "## Standing guidance")}\n${section(call, "## More standing guidance")}`;
    const oneTime = (call: RecordedCall) => section(call, "## One-time instructions");
    // Turn 2 gets what turn 1's triggers sent: the script's recurring push, and the one-time story.
    assert.match(standing(turns[1]!), /Gulls circle the party/);
    assert.doesNotMatch(standing(turns[1]!), /stranger/);
    assert.match(oneTime(turns[1]!), /A stranger watches from the quay\./);
    assert.doesNotMatch(oneTime(turns[1]!), /Gulls/);
    // Turn 3: the trigger the script added is recurring too; nothing is one-time any more.
    assert.match(standing(turns[2]!), /Gulls circle the party[\s\S]*The temple bell tolls the hour\./);
    assert.equal(oneTime(turns[2]!), "");
  });
});

describe("reasoning models", () => {
  test("a server that refuses max_tokens gets max_completion_tokens, learnt once and kept for the endpoint", async () => {
    const mock = await MockServer.start();
    try {
      const seen: string[] = [];
      mock.handler = (request) => {
        seen.push(
          "max_tokens" in request.body
            ? "max_tokens"
            : "max_completion_tokens" in request.body
              ? "mct"
              : "none",
        );
        if ("max_tokens" in request.body)
          return apiError(
            400,
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          );
        return streamed(["Dawn over the harbour."]);
      };
      const world = harbor();
      const make = () =>
        createOpenAiProvider(world, { baseUrl: mock.url, model: "o-reasoner", timeoutMs: 5_000 });
      const ai = make();
      await createSession(world, { ai, validate: false });
      assert.deepEqual(seen.slice(0, 2), ["max_tokens", "mct"]);
      const count = seen.length;
      await ai.close();
      // A new provider for the same endpoint starts with what was learnt: no refused request again.
      const again = make();
      await createSession(world, { ai: again, validate: false });
      assert.ok(
        seen.slice(count).every((p) => p === "mct"),
        seen.slice(count).join(","),
      );
      await again.close();
    } finally {
      await mock.close();
    }
  });
});
