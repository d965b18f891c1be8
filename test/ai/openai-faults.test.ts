/**
 * The fault suite (issue 19 "Tests", issue 15 item 5): a real game over a
 * local OpenAI-protocol server that misbehaves in one way per test. Each test
 * says what the player sees (the streamed chunks, or the one-line error) and
 * what the game state is after it: a turn that fails before any story was
 * shown leaves the session as it was; once the story was shown the turn
 * counts, whatever happens next.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { createOpenAiProvider, type OpenAiProviderOptions } from "../../src/ai/openai/index.ts";
import { CUT_MARK, INTERRUPTED_MARK } from "../../src/ai/openai/narration.ts";
import { createSession, type Session } from "../../src/engine/session.ts";
import { onlyTriggers, say, worldWith } from "../engine/helpers.ts";
import {
  apiError,
  jsonCompletion,
  type MockReply,
  MockServer,
  type RecordedRequest,
  streamed,
} from "./mock-server.ts";

let mock: MockServer;
before(async () => {
  mock = await MockServer.start();
});
after(() => mock.close());
beforeEach(() => mock.reset());

const world = worldWith(
  onlyTriggers({ rang: { conditions: [{ type: "story", query: "The bell rings." }], recurring: true } }),
);

type Kind = "intent" | "judge" | "summary" | "narration";

function kindOf(request: RecordedRequest): Kind {
  const name = request.body?.response_format?.json_schema?.name as string | undefined;
  if (name === "taleforge_intent") return "intent";
  if (name === "taleforge_judge") return "judge";
  if (name === "taleforge_summary") return "summary";
  return "narration";
}

type Faults = Partial<Record<Kind, MockReply[]>>;
let pending: Faults = {};

/** The faults of the test's turn (installed by game() after the opening): one reply each, by call kind. */
function server(faults: Faults) {
  pending = faults;
}

/** A well-behaved model, except for the faults in `faults`. */
function model(faults: Faults) {
  mock.handler = (request) => {
    const kind = kindOf(request);
    const fault = faults[kind]?.shift();
    if (fault) return fault;
    if (kind === "intent") return jsonCompletion({ intent: "other", target: null, confidence: 0.9 });
    if (kind === "judge") {
      const count = (JSON.stringify(request.body.messages).match(/\d+\. \[/g) ?? []).length;
      const verdicts = Array.from({ length: count }, (_, i) => ({
        question: i + 1,
        evidence: "The bell rings out",
        passed: true,
        players: [],
      }));
      return jsonCompletion({ verdicts });
    }
    if (kind === "summary") return jsonCompletion({ summary: "So far." });
    return streamed(["The bell ", "rings out."]);
  };
}

async function game(options: Partial<OpenAiProviderOptions> = {}): Promise<Session> {
  const ai = createOpenAiProvider(world, {
    baseUrl: mock.url,
    model: "test-model",
    timeoutMs: 2_000,
    retry: { sleep: async () => {}, random: () => 0.5 },
    ...options,
  });
  const faults: Faults = {};
  model(faults);
  const session = await createSession(world, { ai });
  Object.assign(faults, pending);
  pending = {};
  mock.requests.length = 0;
  return session;
}

/** Plays a turn; returns what the player saw and the error, if the turn failed. */
async function play(session: Session) {
  const chunks: string[] = [];
  try {
    const result = await session.turn(say("ring the bell"), { onChunk: (c) => chunks.push(c) });
    return { shown: chunks.join(""), result, error: null };
  } catch (error) {
    return { shown: chunks.join(""), result: null, error: error as Error & { code?: string } };
  }
}

function unfinished(deltas: string[]): MockReply {
  // The stop chunk carries the finish_reason: leave it out, and [DONE] too.
  const reply = streamed(deltas);
  return { sse: reply.sse!.slice(0, -1), done: false };
}

describe("fault suite: before the story, a failed turn changes nothing", () => {
  test("malformed structured answers (twice): the turn fails, one line, state unchanged", async () => {
    server({
      intent: [{ json: { choices: [{ message: { content: "not json" } }] } }, jsonCompletion({ x: 1 })],
    });
    const session = await game();
    const saved = session.save();
    const { shown, error } = await play(session);
    assert.equal(shown, "");
    assert.equal(error?.code, "ai/failed");
    assert.match(error!.message, /gave no usable intent answer, even after a repair request/);
    assert.equal(session.save(), saved);
  });

  test("an empty stream (finish_reason stop, no text): the turn fails, state unchanged", async () => {
    server({ narration: [streamed([])] });
    const session = await game();
    const saved = session.save();
    const { shown, error } = await play(session);
    assert.equal(shown, "");
    assert.match(error!.message, /wrote no story/);
    assert.equal(session.save(), saved);
  });

  test("500 on every narration attempt: the server's failure named, state unchanged", async () => {
    const five = () => apiError(500, "out of memory");
    server({ narration: [five(), five(), five(), five()] });
    const session = await game();
    const saved = session.save();
    const { shown, error } = await play(session);
    assert.equal(shown, "");
    assert.match(error!.message, /failed \(500\) on the narration request after 4 attempts: out of memory/);
    assert.equal(session.save(), saved);
  });

  test("429 once with retry-after: retried, the turn plays", async () => {
    server({ narration: [apiError(429, "slow down", { headers: { "retry-after": "1" } })] });
    const session = await game();
    const { shown, result } = await play(session);
    assert.equal(shown, "The bell rings out.");
    assert.equal(result!.story, "The bell rings out.");
    assert.equal(session.state.tick, 1);
  });

  test("a hanging server: a timeout naming the limit, state unchanged", async () => {
    server({ narration: [{ hang: true }, { hang: true }] });
    const session = await game({ timeoutMs: 150 });
    const saved = session.save();
    const { shown, error } = await play(session);
    assert.equal(shown, "");
    assert.match(error!.message, /did not answer the narration request within 150 ms after 2 attempts/);
    assert.equal(session.save(), saved);
  });

  test("a stream that ends without a finish_reason before any text is a failed call, retried", async () => {
    server({ narration: [unfinished([]), unfinished([])] });
    const session = await game({ maxRetries: 1 });
    const saved = session.save();
    const { error } = await play(session);
    assert.match(
      error!.message,
      /closed the narration stream after 0 characters without a finish_reason after 2 attempts/,
    );
    assert.equal(session.save(), saved);
  });

  test("a refused narration: kind refused, not a story; state unchanged", async () => {
    const refusal = streamed([]);
    (refusal.sse![1] as { choices: { delta: object }[] }).choices[0]!.delta = {
      refusal: "I can't help with that.",
    };
    server({ narration: [refusal] });
    const session = await game();
    const saved = session.save();
    const { shown, error } = await play(session);
    assert.equal(shown, "");
    assert.match(error!.message, /refused to narrate: "I can't help with that\." A refusal is not a story/);
    assert.equal(session.save(), saved);
  });

  test("a refused intent: not an answer, not a repair", async () => {
    server({
      intent: [
        { json: { choices: [{ message: { content: null, refusal: "No." }, finish_reason: "stop" }] } },
      ],
    });
    const session = await game();
    const { error } = await play(session);
    assert.match(error!.message, /refused the intent request: "No\."/);
    assert.equal(mock.requests.filter((r) => kindOf(r) === "intent").length, 1);
  });

  test("finish_reason length on a structured answer: asked again once with a higher limit, not a repair", async () => {
    server({
      intent: [{ json: { choices: [{ message: { content: '{"intent": "oth' }, finish_reason: "length" }] } }],
    });
    const session = await game({ structuredMaxTokens: 100 });
    const { result } = await play(session);
    assert.equal(result!.intent?.intent, "other");
    const asked = mock.requests.filter((r) => kindOf(r) === "intent").map((r) => r.body.max_tokens);
    assert.deepEqual(asked, [100, 400]);
  });
});

describe("fault suite: after the story was shown, the turn counts", () => {
  test("a stream that drops mid-story: the text is kept, marked (interrupted), the break explained", async () => {
    // Gaps between events, so the text is read before the connection goes.
    const story = streamed(["The bell ", "rings out", " over the"], { eventDelayMs: 30 });
    server({ narration: [{ ...story, dropAfter: 3 }] });
    const session = await game();
    const { shown, result, error } = await play(session);
    assert.equal(error, null);
    assert.ok(shown.startsWith("The bell") && shown.endsWith(INTERRUPTED_MARK), shown);
    const kept = shown.slice(0, -INTERRUPTED_MARK.length);
    assert.equal(result!.story, shown);
    const said = new RegExp(`interrupted.*(broke|closed the stream) after ${kept.length} characters`);
    assert.ok(
      result!.logs.some((l) => l.type === "notice" && said.test(l.message)),
      JSON.stringify(result!.logs),
    );
    assert.doesNotMatch(JSON.stringify(result!.logs), /check --base-url/);
    assert.equal(session.state.tick, 1);
    assert.equal(session.state.history.story.at(-1)!.text, shown);
  });

  test("a stream that ends without a finish_reason after text: kept and marked", async () => {
    server({ narration: [unfinished(["The bell rings"])] });
    const session = await game();
    const { shown, result } = await play(session);
    assert.equal(shown, `The bell rings${INTERRUPTED_MARK}`);
    assert.ok(
      result!.logs.some((l) =>
        /closed the stream after 14 characters without a finish_reason/.test(l.message),
      ),
    );
  });

  test("an endless stream: cut at the streaming-time limit, the limit named", async () => {
    // Finite (5,000 events, at least 10 s), so that a regression fails the test instead of hanging the suite.
    const endless = streamed(
      Array.from({ length: 5_000 }, () => "on and on "),
      { eventDelayMs: 2 },
    );
    server({ narration: [endless] });
    const session = await game({ narrationMaxStreamMs: 300 });
    const { shown, result } = await play(session);
    assert.ok(shown.endsWith(CUT_MARK));
    assert.ok(
      result!.logs.some((l) =>
        /narration streaming limit of 300 ms \(narrationMaxStreamMs\)/.test(l.message),
      ),
    );
    assert.equal(session.state.tick, 1);
  });

  test("a 10 MB story is never taken: cut at narrationMaxChars", async () => {
    const huge = streamed(Array.from({ length: 200 }, () => "x".repeat(50_000)));
    server({ narration: [huge] });
    const session = await game({ narrationMaxChars: 5_000 });
    const { result } = await play(session);
    assert.ok(result!.story.length <= 5_000 + CUT_MARK.length);
    assert.ok(session.save().length < 50_000);
  });

  test("finish_reason length on the narration: kept, marked (cut off), the token limit named", async () => {
    const cut = streamed(["The bell rings and"]);
    (cut.sse!.at(-1) as { choices: { finish_reason: string }[] }).choices[0]!.finish_reason = "length";
    server({ narration: [cut] });
    const session = await game({ narrationMaxTokens: 64 });
    const { shown, result } = await play(session);
    assert.equal(shown, `The bell rings and${CUT_MARK}`);
    assert.ok(result!.logs.some((l) => /narration token limit of 64 \(narrationMaxTokens\)/.test(l.message)));
  });

  test("the state-phase judge fails after the story: not passed, a notice, the trigger stays armed", async () => {
    const five = () => apiError(500, "judge down");
    // The planning phase has no candidates; the state phase's judge fails on every attempt.
    server({ judge: [five(), five(), five(), five()] });
    const session = await game();
    const { shown, result, error } = await play(session);
    assert.equal(error, null);
    assert.equal(shown, "The bell rings out.");
    assert.deepEqual(result!.fired, []);
    assert.ok(result!.logs.some((l) => /judge failed in the state phase.*not passed/.test(l.message)));
    const next = await play(session);
    assert.deepEqual(next.result!.fired, ["rang"], "armed, and fires when the judge answers");
  });

  test("a failed turn replayed reuses the intent and judge answers it paid for", async () => {
    const five = () => apiError(500, "down");
    server({ narration: [five(), five(), five(), five()] });
    const session = await game();
    assert.notEqual((await play(session)).error, null);
    const paid = mock.requests.filter((r) => kindOf(r) !== "narration").length;
    const again = await play(session);
    assert.equal(again.error, null);
    assert.equal(
      mock.requests.filter((r) => kindOf(r) !== "narration").length - paid,
      1,
      "only the state-phase judge (after the new story) is asked; intent and planning are reused",
    );
  });
});
