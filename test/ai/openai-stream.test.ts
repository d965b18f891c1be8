import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { setTimeout as wait } from "node:timers/promises";
import { TRAILER_MARKER } from "../../src/ai/trailer.ts";
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

  test("the trailer is split off even when the marker is split across chunks; verdict and summary parsed", async () => {
    const [a, b] = [TRAILER_MARKER.slice(0, 4), TRAILER_MARKER.slice(4)];
    mock.reply(
      streamed([
        "Thunder rolls.",
        `\n${a}`,
        `${b}\n{"event": "comp`,
        'leted", "summary": "The storm broke over the mill."}',
      ]),
    );
    const chunks: string[] = [];
    const answer = await provider(mock).narrate(
      narrationRequest({ event, summarise: [{ tick: 0, text: "Dawn." }] }),
      (c) => chunks.push(c),
    );
    assert.deepEqual(answer, {
      text: "Thunder rolls.",
      eventVerdict: "completed",
      summary: "The storm broke over the mill.",
    });
    assert.equal(chunks.join(""), "Thunder rolls.", "the player never sees the trailer or the marker");
  });

  test("a verdict or summary the request did not ask for is dropped", async () => {
    mock.reply(streamed([`Quiet.\n${TRAILER_MARKER}\n{"event":"stopped","summary":"x"}`]));
    const chunks: string[] = [];
    assert.deepEqual(await provider(mock).narrate(narrationRequest(), (c) => chunks.push(c)), {
      text: "Quiet.",
    });
    assert.deepEqual(chunks, ["Quiet."]);
  });

  test("a missing or broken trailer leaves the verdict out", async () => {
    mock.reply(streamed(["Rain.", `\n${TRAILER_MARKER}\n{not json`]));
    assert.deepEqual(await provider(mock).narrate(narrationRequest({ event })), { text: "Rain." });
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

  test("a failure before any text is retried; one after text was shown is final", async () => {
    const early = provider(mock);
    mock.reply(apiError(503, "loading"), streamed(["Fine."]));
    assert.equal((await early.narrate(narrationRequest())).text, "Fine.");
    mock.requests.length = 0;
    // The role chunk, one story chunk, then an error event in the stream.
    const story = streamed(["Half a story"]).sse!.slice(0, 2);
    mock.reply({ sse: [...story, { error: { message: "model crashed" } }], done: false });
    const chunks: string[] = [];
    const error = await failure(provider(mock).narrate(narrationRequest(), (c) => chunks.push(c)));
    assert.equal(error.kind, "server");
    assert.match(error.message, /model crashed/);
    assert.deepEqual(chunks, ["Half a story"]);
    assert.equal(chat(mock).length, 1, "not retried: the player saw part of it");
  });

  test("an empty story is bad-output", async () => {
    mock.reply(streamed(["  ", `\n${TRAILER_MARKER}\n{"event":"neither"}`]));
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
