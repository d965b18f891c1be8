import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { setTimeout as wait } from "node:timers/promises";
import { CUT_MARK, INTERRUPTED_MARK } from "../../src/ai/openai/narration.ts";
import { apiError, MockServer, streamed } from "./mock-server.ts";
import { chat, failure, narrationRequest, provider } from "./openai-fixtures.ts";

let mock: MockServer;
before(async () => {
  mock = await MockServer.start();
});
after(() => mock.close());
beforeEach(() => mock.reset());

const event = { key: "storm", title: "The Storm", beats: "Rain, then thunder.", activeTurns: 2 };

describe("openai provider: streamed narration", () => {
  test("chunks reach onChunk in order as they arrive; the request streams with usage asked for", async () => {
    mock.reply(
      streamed(["The river ", "runs fast", " under the mill."], {
        usage: { prompt_tokens: 120, completion_tokens: 9 },
      }),
    );
    const ai = provider(mock);
    const chunks: string[] = [];
    const answer = await ai.narrate(narrationRequest(), (c) => chunks.push(c));
    assert.deepEqual(chunks, ["The river", " runs fast", " under the mill."]);
    assert.deepEqual(answer, { text: "The river runs fast under the mill." });
    const body = chat(mock)[0]!.body;
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal(body.response_format, undefined);
    assert.deepEqual(ai.usage(), { calls: 1, promptTokens: 120, completionTokens: 9 });
  });

  test("every request is bounded: max_tokens, and the narration's sampling settings when given", async () => {
    mock.reply(streamed(["Calm."]), streamed(["Calm again."]));
    await provider(mock).narrate(narrationRequest({ seed: 7, game: "s-1" }));
    const plain = chat(mock)[0]!.body;
    assert.equal(plain.max_tokens, 1_200);
    assert.equal(plain.temperature, undefined, "the server's default unless configured");
    assert.equal(plain.seed, 7);
    assert.equal(plain.prompt_cache_key, "s-1");
    await provider(mock, { narrationMaxTokens: 300, temperature: 0.7, topP: 0.9 }).narrate(
      narrationRequest(),
    );
    const tuned = chat(mock)[1]!.body;
    assert.deepEqual([tuned.max_tokens, tuned.temperature, tuned.top_p], [300, 0.7, 0.9]);
    assert.equal(tuned.prompt_cache_key, undefined, "no game, no key");
  });

  test("issue 15 item 5: a story longer than narrationMaxChars is cut there, marked, and the limit named", async () => {
    mock.reply(streamed(Array.from({ length: 50 }, () => "word ".repeat(20))));
    const chunks: string[] = [];
    const answer = await provider(mock, { narrationMaxChars: 1_000 }).narrate(narrationRequest(), (c) =>
      chunks.push(c),
    );
    assert.ok(answer.text.endsWith(CUT_MARK));
    assert.ok(answer.text.length <= 1_000 + CUT_MARK.length);
    assert.match(answer.notice!, /narration length limit of 1,000 characters \(narrationMaxChars\)/);
    assert.equal(chunks.join(""), answer.text, "the player sees the mark too");
  });

  test("a model that stops at max_tokens (finish_reason length): kept, marked, the limit named", async () => {
    const reply = streamed(["The tide turns and"]);
    (reply.sse![reply.sse!.length - 1] as { choices: { finish_reason: string }[] })
      .choices[0]!.finish_reason = "length";
    mock.reply(reply);
    const answer = await provider(mock).narrate(narrationRequest());
    assert.equal(answer.text, `The tide turns and${CUT_MARK}`);
    assert.match(answer.notice!, /narration token limit of 1200 \(narrationMaxTokens\)/);
  });

  test("issue 19 item 9: reported prompt tokens far below the estimate are a truncation warning", async () => {
    const long = narrationRequest({ summary: "The mill turns. ".repeat(1_000) });
    mock.reply(streamed(["Calm."], { usage: { prompt_tokens: 300, completion_tokens: 2 } }));
    const cut = await provider(mock).narrate(long);
    assert.equal(cut.text, "Calm.");
    assert.match(cut.notice!, /counted 300 prompt tokens for a prompt of about \d+: .*--context-tokens/);
    mock.reply(streamed(["Calm."], { usage: { prompt_tokens: 4_000, completion_tokens: 2 } }));
    assert.equal((await provider(mock).narrate(long)).notice, undefined);
  });

  test("contextTokens shrinks the prompt to the window minus the answer", async () => {
    const long = narrationRequest({ summary: "The mill turns. ".repeat(300) });
    mock.reply(streamed(["A."]), streamed(["B."]));
    await provider(mock).narrate(long);
    await provider(mock, { contextTokens: 2_048, narrationMaxTokens: 600 }).narrate(long);
    const [wide, narrow] = chat(mock).map((r) => JSON.stringify(r.body.messages).length);
    assert.ok(narrow! < wide!, `${narrow} < ${wide}`);
    assert.ok(narrow! <= (2_048 - 600 - 100) * 3 + 500, `${narrow}`);
  });

  test("leading and trailing whitespace is trimmed, and the chunks add up to the text", async () => {
    mock.reply(streamed(["\n\n  ", "The door", " opens.  \n", "\n", "It creaks.\n\n"]));
    const chunks: string[] = [];
    const answer = await provider(mock).narrate(narrationRequest(), (c) => chunks.push(c));
    assert.equal(answer.text, "The door opens.  \n\nIt creaks.");
    assert.equal(chunks.join(""), answer.text);
  });

  test("a server that rejects stream_options: streamed without it from then on", async () => {
    mock.rejects.streamOptions = true;
    const ai = provider(mock);
    mock.reply(streamed(["One."]), streamed(["Two."]));
    assert.equal((await ai.narrate(narrationRequest())).text, "One.");
    assert.equal((await ai.narrate(narrationRequest())).text, "Two.");
    assert.deepEqual(
      chat(mock).map((r) => r.body.stream_options !== undefined),
      [true, false, false],
    );
    assert.equal(ai.usage().calls, 2);
    assert.ok(ai.usage().completionTokens > 0, "no usage from the server: estimated");
  });

  test("abort mid-stream: AiError aborted at once, and no chunk after the abort", async () => {
    mock.reply(streamed(["First.", " Second.", " Third.", " Fourth."], { eventDelayMs: 20 }));
    const controller = new AbortController();
    const chunks: string[] = [];
    const started = Date.now();
    const error = await failure(
      provider(mock).narrate(
        narrationRequest(),
        (c) => {
          chunks.push(c);
          controller.abort();
        },
        controller.signal,
      ),
    );
    assert.equal(error.kind, "aborted");
    assert.equal(error.message, "The narration request was cancelled.");
    assert.ok(Date.now() - started < 1_000);
    await wait(80);
    assert.deepEqual(chunks, ["First."]);
  });

  test("an already aborted signal makes no request", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(provider(mock).narrate(narrationRequest(), undefined, controller.signal));
    assert.equal(error.kind, "aborted");
    assert.equal(chat(mock).length, 0);
  });

  test("a failure before any text is retried; one after text was shown keeps the text, marked (issue 19 item 5)", async () => {
    const early = provider(mock);
    mock.reply(apiError(503, "loading"), streamed(["Fine."]));
    assert.equal((await early.narrate(narrationRequest())).text, "Fine.");
    mock.requests.length = 0;
    // The role chunk, one story chunk, then an error event in the stream.
    const story = streamed(["Half a story"]).sse!.slice(0, 2);
    mock.reply({ sse: [...story, { error: { message: "model crashed" } }], done: false });
    const chunks: string[] = [];
    const answer = await provider(mock).narrate(narrationRequest(), (c) => chunks.push(c));
    assert.equal(answer.text, `Half a story${INTERRUPTED_MARK}`);
    assert.match(answer.notice!, /broke after 12 characters \(the server sent an error: model crashed\)/);
    assert.deepEqual(chunks, ["Half a story", INTERRUPTED_MARK]);
    assert.equal(chat(mock).length, 1, "not retried: the player saw part of it");
  });

  test("an empty story is bad-output", async () => {
    mock.reply(streamed(["  ", "\n"]));
    const error = await failure(provider(mock).narrate(narrationRequest({ event })));
    assert.equal(error.kind, "bad-output");
  });

  test("an exception in onChunk reaches the caller as it is", async () => {
    mock.reply(streamed(["A.", " B."]));
    const error = await failure(
      provider(mock).narrate(narrationRequest(), () => {
        throw new Error("host bug");
      }),
    );
    assert.equal(error.message, "host bug");
  });
});
