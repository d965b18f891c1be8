import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createOpenAiProvider } from "../../src/ai/openai/index.ts";
import { usageSince } from "../../src/ai/provider.ts";
import { createSession } from "../../src/engine/session.ts";
import { onlyTriggers, say, worldWith } from "../engine/helpers.ts";
import { jsonCompletion, MockServer, type RecordedRequest, streamed } from "./mock-server.ts";
import { chat } from "./openai-fixtures.ts";

let mock: MockServer;
before(async () => {
  mock = await MockServer.start();
});
after(() => mock.close());

/** A tiny "model": answers each kind of request the way a good one would. */
function model(request: RecordedRequest) {
  const format = request.body.response_format?.json_schema?.name;
  const usage = { prompt_tokens: 50, completion_tokens: 10 };
  if (format === "taleforge_intent")
    return jsonCompletion({ intent: "other", target: null, confidence: 0.9 }, usage);
  if (format === "taleforge_judge") {
    // Nothing has happened at the opening; once the player rings the bell, everything asked about has.
    const passed = /ring the bell|rings out/.test(JSON.stringify(request.body.messages));
    return jsonCompletion(
      { verdicts: [1, 2, 3, 4].map((question) => ({ question, evidence: "the text", passed, players: [] })) },
      usage,
    );
  }
  const story = /ring/i.test(JSON.stringify(request.body.messages))
    ? "The bell rings out over the vale."
    : "Dawn light spills over the millyard.";
  return streamed([story.slice(0, 10), story.slice(10)], {
    usage: { prompt_tokens: 200, completion_tokens: 20 },
    eventDelayMs: 1,
  });
}

describe("openai provider through the engine", () => {
  test("a full turn against the mock server: intent, judged triggers, streamed narration", async () => {
    mock.reset();
    mock.handler = model;
    const world = worldWith(
      onlyTriggers({
        rang: { conditions: [{ type: "story", query: "The bell rings." }] },
        asked: { conditions: [{ type: "action", query: "The player rings the bell." }] },
      }),
    );
    const ai = createOpenAiProvider(world, { baseUrl: mock.url, model: "test-model", timeoutMs: 5_000 });
    const session = await createSession(world, { ai });
    assert.equal(session.opening!.story, "Dawn light spills over the millyard.");
    assert.deepEqual(session.opening!.fired, []);
    const before = ai.usage();
    mock.requests.length = 0;

    const chunks: string[] = [];
    const result = await session.turn(say("ring the bell"), { onChunk: (c) => chunks.push(c) });
    assert.equal(result.story, "The bell rings out over the vale.");
    assert.equal(chunks.join(""), result.story, "streamed to the host");
    assert.ok(chunks.length >= 2);
    assert.equal(result.intent?.intent, "other");
    assert.deepEqual([...result.fired].sort(), ["asked", "rang"]);
    assert.deepEqual(result.trace.aiCalls, { classify: 1, narrate: 1, judge: 2, embed: 0, total: 4 });

    const sent = chat(mock);
    const kinds = sent.map(
      (r) => r.body.response_format?.json_schema?.name ?? (r.body.stream ? "stream" : "?"),
    );
    // The intent and the planning judge go out together (issue 19 item 8), in either order.
    assert.deepEqual([...kinds.slice(0, 2)].sort(), ["taleforge_intent", "taleforge_judge"]);
    assert.deepEqual(kinds.slice(2), ["stream", "taleforge_judge"]);
    // Reproducible and cache-friendly (items 6, 7): temperature 0 and a seed for structured calls,
    // one prompt_cache_key for the whole game, max_tokens on every call.
    const key = sent[0]!.body.prompt_cache_key;
    assert.match(key, /^s-/);
    for (const request of sent) {
      assert.equal(request.body.prompt_cache_key, key);
      assert.ok(Number.isInteger(request.body.max_tokens) && request.body.max_tokens > 0);
      assert.ok(Number.isInteger(request.body.seed));
      if (!request.body.stream) assert.equal(request.body.temperature, 0);
    }
    assert.equal(new Set(sent.map((r) => r.body.seed)).size, sent.length, "a seed per call");
    assert.deepEqual(usageSince(before, ai.usage()), { calls: 4, promptTokens: 350, completionTokens: 50 });
    await ai.close();
  });
});
