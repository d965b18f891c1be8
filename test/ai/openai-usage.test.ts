import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { createOpenAiProvider } from "../../src/ai/openai/index.ts";
import { estimateTokens, usageSince } from "../../src/ai/provider.ts";
import { apiError, completion, embeddings, jsonCompletion, MockServer, streamed } from "./mock-server.ts";
import {
  chat,
  failure,
  intentRequest,
  judgeRequest,
  narrationRequest,
  provider,
  world,
} from "./openai-fixtures.ts";

let mock: MockServer;
before(async () => {
  mock = await MockServer.start();
});
after(() => mock.close());
beforeEach(() => mock.reset());

const intent = (usage?: { prompt_tokens: number; completion_tokens: number }) =>
  jsonCompletion({ intent: "other", target: null, confidence: 0.5 }, usage);

describe("openai provider: usage", () => {
  test("calls and tokens add up from the responses; a host takes per-turn figures by difference", async () => {
    const ai = provider(mock);
    assert.deepEqual(ai.usage(), { calls: 0, promptTokens: 0, completionTokens: 0 });
    mock.reply(
      intent({ prompt_tokens: 10, completion_tokens: 5 }),
      streamed(["Story."], { usage: { prompt_tokens: 100, completion_tokens: 50 } }),
    );
    await ai.classify(intentRequest);
    const before = ai.usage();
    await ai.narrate(narrationRequest());
    mock.reply(jsonCompletion({ verdicts: [] }, { prompt_tokens: 20, completion_tokens: 3 }));
    await ai.judge(judgeRequest);
    assert.deepEqual(ai.usage(), { calls: 3, promptTokens: 130, completionTokens: 58 });
    assert.deepEqual(usageSince(before, ai.usage()), { calls: 2, promptTokens: 120, completionTokens: 53 });
  });

  test("a repair request is a call; failed attempts (429, 5xx) are not", async () => {
    const ai = provider(mock);
    mock.reply(
      apiError(503, "busy"),
      completion("not json", { prompt_tokens: 10, completion_tokens: 2 }),
      intent({ prompt_tokens: 15, completion_tokens: 5 }),
    );
    await ai.classify(intentRequest);
    assert.deepEqual(ai.usage(), { calls: 2, promptTokens: 25, completionTokens: 7 });
  });

  test("a server that reports no usage: tokens estimated from the text", async () => {
    const ai = provider(mock);
    mock.reply(completion('{"intent":"other","target":null,"confidence":0.5}'));
    await ai.classify(intentRequest);
    const sent = chat(mock)[0]!.body.messages as { content: string }[];
    assert.deepEqual(ai.usage(), {
      calls: 1,
      promptTokens: estimateTokens(sent.map((m) => m.content).join("\n")),
      completionTokens: estimateTokens('{"intent":"other","target":null,"confidence":0.5}'),
    });
  });
});

describe("openai provider: embeddings", () => {
  test("no embedding model: the provider has no embed", () => {
    assert.equal(provider(mock).embed, undefined);
  });

  test("vectors come back in the texts' order, whatever order the server answers in", async () => {
    const ai = provider(mock, { embeddingModel: "embed-model" });
    mock.reply(
      embeddings(
        [
          [1, 0],
          [0, 1],
          [0.5, 0.5],
        ],
        [2, 0, 1],
        { prompt_tokens: 9 },
      ),
    );
    assert.deepEqual(await ai.embed!(["a", "b", "c"]), [
      [1, 0],
      [0, 1],
      [0.5, 0.5],
    ]);
    const [sent] = mock.to("/v1/embeddings");
    assert.deepEqual(sent!.body, { model: "embed-model", input: ["a", "b", "c"], encoding_format: "float" });
    assert.deepEqual(ai.usage(), { calls: 1, promptTokens: 9, completionTokens: 0 });
  });

  test("many texts go in batches, order kept", async () => {
    const ai = provider(mock, { embeddingModel: "embed-model" });
    const texts = Array.from({ length: 70 }, (_, i) => `t${i}`);
    mock.handler = (request) => embeddings((request.body.input as string[]).map((t) => [Number(t.slice(1))]));
    const vectors = await ai.embed!(texts);
    assert.deepEqual(
      vectors,
      texts.map((_, i) => [i]),
    );
    assert.deepEqual(
      mock.to("/v1/embeddings").map((r) => r.body.input.length),
      [64, 6],
    );
  });

  test("an unknown embedding model names it and --embedding-model", async () => {
    const ai = provider(mock, { embeddingModel: "nomic" });
    mock.reply(apiError(404, 'model "nomic" not found, try pulling it first'));
    const error = await failure(ai.embed!(["x"]));
    assert.equal(error.kind, "unknown-model");
    assert.match(
      error.message,
      /does not know the embedding model "nomic" \(404\)\. Check --embedding-model, or run `ollama pull nomic`\./,
    );
  });

  test("a wrong number of vectors is the server's fault, not the engine's", async () => {
    const ai = provider(mock, { embeddingModel: "embed-model", maxRetries: 0 });
    mock.reply(embeddings([[1]]));
    const error = await failure(ai.embed!(["a", "b"]));
    assert.equal(error.kind, "server");
    assert.match(error.message, /1 vectors for 2 texts/);
  });
});

describe("openai provider: lore in the narration prompt", () => {
  const sentText = () => JSON.stringify(chat(mock)[0]!.body.messages);

  test("without embeddings: lexical selection", async () => {
    mock.reply(streamed(["The river."]));
    await provider(mock).narrate(narrationRequest());
    assert.match(sentText(), /Wend river/);
    assert.equal(mock.to("/v1/embeddings").length, 0);
  });

  test("with embeddings: entries embedded once for the provider's life, the query every narration", async () => {
    const ai = provider(mock, { embeddingModel: "embed-model" });
    mock.handler = (request) =>
      request.path === "/v1/embeddings"
        ? embeddings((request.body.input as string[]).map(() => [1, 0]))
        : streamed(["The river."]);
    await ai.narrate(narrationRequest());
    assert.match(sentText(), /Wend river/);
    await ai.narrate(narrationRequest());
    assert.deepEqual(
      mock.to("/v1/embeddings").map((r) => r.body.input.length),
      [1, 1, 1],
      "the lore entries, then one query per narration",
    );
  });

  test("embeddings that fail: narration goes on with lexical lore, and embeddings are not asked again", async () => {
    const ai = provider(mock, { embeddingModel: "embed-model" });
    mock.handler = (request) =>
      request.path === "/v1/embeddings"
        ? apiError(400, "embeddings not supported")
        : streamed(["The river."]);
    assert.equal((await ai.narrate(narrationRequest())).text, "The river.");
    assert.match(sentText(), /Wend river/);
    await ai.narrate(narrationRequest());
    assert.equal(mock.to("/v1/embeddings").length, 1);
  });
});

describe("openai provider: options and close", () => {
  test("name and model", () => {
    const ai = provider(mock, { model: "llama3.1" });
    assert.equal(ai.name, "openai");
    assert.equal(ai.model, "llama3.1");
  });

  test("bad options are AiError config", () => {
    const make = (options: Record<string, unknown>) => () =>
      createOpenAiProvider(world, { baseUrl: mock.url, model: "m", ...options } as never);
    assert.throws(make({ baseUrl: "localhost:11434" }), {
      name: "AiError",
      kind: "config",
      message: /is not an http\(s\) URL/,
    });
    assert.throws(make({ model: " " }), { kind: "config", message: /needs a model/ });
    assert.throws(make({ timeoutMs: 0 }), { kind: "config" });
    assert.throws(make({ maxRetries: -1 }), { kind: "config" });
  });

  test("close() cancels a running call and refuses later ones", async () => {
    const ai = provider(mock);
    mock.reply({ hang: true });
    const running = failure(ai.classify(intentRequest));
    // The call is running once the server holds its request (the path under test), not after a guessed sleep.
    while (mock.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await ai.close();
    assert.equal((await running).kind, "aborted");
    assert.equal((await failure(ai.classify(intentRequest))).kind, "aborted");
  });
});
