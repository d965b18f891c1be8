import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, beforeEach, describe, test } from "node:test";
import { apiError, jsonCompletion, MockServer, streamed } from "./mock-server.ts";
import { chat, failure, intentRequest, narrationRequest, provider, Sleeps } from "./openai-fixtures.ts";

let mock: MockServer;
before(async () => {
  mock = await MockServer.start();
});
after(() => mock.close());
beforeEach(() => mock.reset());

const intent = jsonCompletion({ intent: "other", target: null, confidence: 0.5 });

/** A port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("openai provider: retries", () => {
  test("429 then success: the retry-after header is honoured", async () => {
    const sleeps = new Sleeps();
    mock.reply(apiError(429, "slow down", { headers: { "retry-after": "2" } }), intent);
    assert.equal((await provider(mock, {}, sleeps).classify(intentRequest)).intent, "other");
    assert.deepEqual(sleeps.waits, [2_000]);
    assert.equal(chat(mock).length, 2);
  });

  test("retry-after-ms wins over retry-after; a huge wait is capped", async () => {
    const sleeps = new Sleeps();
    mock.reply(
      apiError(429, "a", { headers: { "retry-after-ms": "250", "retry-after": "9" } }),
      apiError(429, "b", { headers: { "retry-after": "3600" } }),
      intent,
    );
    await provider(mock, {}, sleeps).classify(intentRequest);
    assert.deepEqual(sleeps.waits, [250, 30_000]);
  });

  test("5xx then success, with exponential backoff and jitter", async () => {
    const sleeps = new Sleeps();
    mock.reply(apiError(500, "oops"), apiError(502, "bad gateway"), intent);
    assert.equal((await provider(mock, {}, sleeps).classify(intentRequest)).intent, "other");
    // random() = 0.5: three quarters of 500 ms, then of 1000 ms.
    assert.deepEqual(sleeps.waits, [375, 750]);
  });

  test("5xx forever: AiError server after maxRetries", async () => {
    const sleeps = new Sleeps();
    mock.reply(...Array.from({ length: 3 }, () => apiError(503, "overloaded")));
    const error = await failure(provider(mock, { maxRetries: 2 }, sleeps).classify(intentRequest));
    assert.equal(error.kind, "server");
    assert.equal(
      error.message,
      `The server at ${mock.url} failed (503) on the intent request after 3 attempts: overloaded. Try again later, or look at the server's log.`,
    );
    assert.equal(chat(mock).length, 3);
    assert.equal(sleeps.waits.length, 2);
  });

  test("429 forever: rate-limited", async () => {
    mock.reply(...Array.from({ length: 4 }, () => apiError(429, "Rate limit reached")));
    const error = await failure(provider(mock).classify(intentRequest));
    assert.equal(error.kind, "rate-limited");
    assert.match(error.message, /kept answering 429 \(rate limited\) after 4 attempts: Rate limit reached\./);
  });

  test("out of quota (429 insufficient_quota) is not retried", async () => {
    mock.reply(apiError(429, "You exceeded your current quota", { code: "insufficient_quota" }));
    const error = await failure(provider(mock).classify(intentRequest));
    assert.equal(error.kind, "rate-limited");
    assert.match(error.message, /out of quota/);
    assert.equal(chat(mock).length, 1);
  });

  test("the SDK's own retries are off: maxRetries 0 means one request", async () => {
    mock.reply(apiError(500, "oops"));
    const error = await failure(provider(mock, { maxRetries: 0 }).classify(intentRequest));
    assert.equal(error.kind, "server");
    assert.equal(chat(mock).length, 1);
  });

  test("abort while waiting to retry: aborted, no more requests", async () => {
    const controller = new AbortController();
    const sleeps = new Sleeps();
    const sleep = async (ms: number, signal?: AbortSignal) => {
      controller.abort();
      await sleeps.sleep(ms, signal);
    };
    mock.reply(apiError(503, "busy"), intent);
    const error = await failure(
      provider(mock, { retry: { sleep } }).classify(intentRequest, controller.signal),
    );
    assert.equal(error.kind, "aborted");
    assert.equal(chat(mock).length, 1);
    assert.equal(mock.pending, 1, "the success reply was never asked for");
  });
});

describe("openai provider: timeouts", () => {
  test("a server slower than timeoutMs: AiError timeout, fast, after one more attempt", async () => {
    mock.reply({ ...intent, delayMs: 5_000 }, { ...intent, delayMs: 5_000 });
    const started = Date.now();
    const error = await failure(provider(mock, { timeoutMs: 50 }).classify(intentRequest));
    assert.equal(error.kind, "timeout");
    assert.equal(
      error.message,
      `The server at ${mock.url} did not answer the intent request within 50 ms after 2 attempts. Raise --timeout, or use a smaller or already loaded model.`,
    );
    assert.equal(chat(mock).length, 2, "a timeout is retried once, not maxRetries times");
    assert.ok(Date.now() - started < 1_500);
  });

  test("a timed-out request that answers on the retry succeeds", async () => {
    mock.reply({ ...intent, delayMs: 5_000 }, intent);
    assert.equal((await provider(mock, { timeoutMs: 300 }).classify(intentRequest)).intent, "other");
  });

  test("streamed narration: the timeout bounds silence between chunks, not the length", async () => {
    // Gaps of 100 ms against a 400 ms timeout: a wide margin on a busy machine, and 500 ms in all.
    mock.reply(streamed(["a", "b", "c", "d", "e"], { eventDelayMs: 100 }));
    const answer = await provider(mock, { timeoutMs: 400 }).narrate(narrationRequest());
    assert.equal(answer.text, "abcde", "took about 500 ms in all, longer than the timeout");
    mock.reply({ ...streamed(["x"]), hang: true }, { ...streamed(["x"]), hang: true });
    const error = await failure(provider(mock, { timeoutMs: 40 }).narrate(narrationRequest()));
    assert.equal(error.kind, "timeout");
  });
});

describe("openai provider: one-line errors", () => {
  test("bad key: auth, one line, the key not in the message, not retried", async () => {
    const key = "sk-secret-1234567890";
    mock.reply(apiError(401, `Incorrect API key provided: ${key}.`, { code: "invalid_api_key" }));
    const error = await failure(provider(mock, { apiKey: key }).classify(intentRequest));
    assert.equal(error.kind, "auth");
    assert.equal(
      error.message,
      `The server at ${mock.url} refused the API key (401). Set TALEFORGE_API_KEY or --api-key.`,
    );
    assert.ok(!error.message.includes(key));
    assert.equal(chat(mock).length, 1);
    assert.equal(chat(mock)[0]!.headers.authorization, `Bearer ${key}`);
  });

  test("no key for a server that wants one; a placeholder is sent to servers that need none", async () => {
    mock.reply(apiError(401, "missing key"));
    const error = await failure(provider(mock).classify(intentRequest));
    assert.equal(error.kind, "auth");
    assert.match(error.message, /wants an API key \(401\) and none was given/);
    assert.equal(chat(mock)[0]!.headers.authorization, "Bearer not-needed");
  });

  test("403 names the model; server text is redacted of the key", async () => {
    const key = "sk-another-secret";
    mock.reply(apiError(403, `Project key ${key} may not use this model`));
    const error = await failure(provider(mock, { apiKey: key }).classify(intentRequest));
    assert.equal(error.kind, "auth");
    assert.ok(!error.message.includes(key));
    assert.match(error.message, /\[key\]/);
    assert.match(error.message, /may use the model "test-model"/);
  });

  test("unknown model: 404 names the model and suggests --model", async () => {
    mock.reply(
      apiError(404, "The model `nope` does not exist or you do not have access to it.", {
        code: "model_not_found",
      }),
    );
    const error = await failure(provider(mock, { model: "nope" }).classify(intentRequest));
    assert.equal(error.kind, "unknown-model");
    assert.equal(
      error.message,
      `The server at ${mock.url} does not know the model "nope" (404). Check --model.`,
    );
  });

  test("unknown model on Ollama: suggests ollama pull", async () => {
    mock.reply(apiError(404, 'model "llama9" not found, try pulling it first'));
    const error = await failure(provider(mock, { model: "llama9" }).narrate(narrationRequest()));
    assert.equal(error.kind, "unknown-model");
    assert.match(error.message, /Check --model, or run `ollama pull llama9`\.$/);
  });

  test("a 404 without a model: the base URL is wrong", async () => {
    mock.reply({ status: 404, body: "404 page not found" });
    const error = await failure(provider(mock).classify(intentRequest));
    assert.equal(error.kind, "config");
    assert.match(
      error.message,
      /has no chat completions endpoint \(404\).*Check --base-url; it usually ends in \/v1\.$/,
    );
  });

  test("unreachable: a closed port, not retried, names the base URL", async () => {
    const port = await closedPort();
    const sleeps = new Sleeps();
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    const ai = provider(mock, { baseUrl }, sleeps);
    const error = await failure(ai.classify(intentRequest));
    assert.equal(error.kind, "unreachable");
    assert.equal(
      error.message,
      `Could not reach the server at ${baseUrl} (connection refused). Check that it is running and that --base-url is right.`,
    );
    assert.deepEqual(sleeps.waits, []);
  });

  test("a 200 that is not a chat completion: server, pointing at the base URL", async () => {
    mock.reply({ json: { hello: "world" } });
    const error = await failure(provider(mock).classify(intentRequest));
    assert.equal(error.kind, "server");
    assert.match(error.message, /did not answer like an OpenAI-compatible API \(the answer has no choices\)/);
  });

  test("every message is one line", async () => {
    mock.reply(apiError(400, "line one\nline two\n\tline three"));
    const error = await failure(provider(mock).classify(intentRequest));
    assert.doesNotMatch(error.message, /\n/);
    assert.match(error.message, /line one line two line three/);
  });
});
