/**
 * Issue 15 item 14: a server that answers valid JSON with a content type other
 * than application/json (text/plain, none) is read as JSON; a body that is not
 * JSON is reported by its content type, not as "the answer has no choices".
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { embeddings, jsonCompletion, type MockReply, MockServer } from "./mock-server.ts";
import { failure, intentRequest, provider } from "./openai-fixtures.ts";

let mock: MockServer;
before(async () => {
  mock = await MockServer.start();
});
after(() => mock.close());
beforeEach(() => mock.reset());

/** `reply` sent with another content type ("" sends an empty one). */
function as(contentType: string, reply: MockReply): MockReply {
  return { ...reply, headers: { "content-type": contentType } };
}

const intent = jsonCompletion({ intent: "other", target: "Mira", confidence: 0.75 });

describe("openai provider: answers whatever their content type", () => {
  for (const type of ["text/plain", "text/plain; charset=utf-8", "", "application/octet-stream"]) {
    test(`a chat completion answered as ${JSON.stringify(type)} is read as JSON`, async () => {
      mock.reply(as(type, intent));
      const answer = await provider(mock).classify(intentRequest);
      assert.equal(answer.intent, "other");
      assert.equal(answer.confidence, 0.75);
      assert.equal(answer.target, "Mira");
    });
  }

  test("an embeddings answer as text/plain is read as JSON", async () => {
    mock.reply(
      as(
        "text/plain",
        embeddings([
          [1, 0],
          [0, 1],
        ]),
      ),
    );
    const ai = provider(mock, { embeddingModel: "embed-model" });
    assert.deepEqual(await ai.embed!(["a", "b"]), [
      [1, 0],
      [0, 1],
    ]);
  });

  test("a body that is not JSON names the content type, not missing choices", async () => {
    mock.reply(as("text/html", { body: "<html><body>Login required</body></html>" }));
    const error = await failure(provider(mock).classify(intentRequest));
    assert.equal(error.kind, "server");
    assert.match(error.message, /answered with content type text\/html, not application\/json/);
    assert.doesNotMatch(error.message, /no choices/);
  });

  test("an empty content type is called no content type", async () => {
    mock.reply(as("", { body: "not json" }));
    const error = await failure(provider(mock).classify(intentRequest));
    assert.match(error.message, /answered with no content type, not application\/json/);
  });
});
