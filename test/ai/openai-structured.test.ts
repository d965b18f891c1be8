import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { z } from "zod";
import { IntentAnswerSchema, JudgeAnswerSchema } from "../../src/ai/answers.ts";
import { apiError, completion, jsonCompletion, MockServer } from "./mock-server.ts";
import { chat, failure, intentRequest, judgeRequest, provider } from "./openai-fixtures.ts";

let mock: MockServer;
before(async () => {
  mock = await MockServer.start();
});
after(() => mock.close());
beforeEach(() => mock.reset());

describe("openai provider: structured answers", () => {
  test("intent: asks with response_format json_schema made from the zod schema, maps the answer", async () => {
    mock.reply(jsonCompletion({ intent: "travel", target: "Fen Hut", confidence: 0.9 }));
    const answer = await provider(mock).classify(intentRequest);
    assert.deepEqual(answer, { intent: "travel", target: "Fen Hut", confidence: 0.9 });
    const [sent] = chat(mock);
    assert.equal(sent!.body.model, "test-model");
    assert.equal(sent!.body.stream, undefined);
    assert.equal(sent!.body.response_format.type, "json_schema");
    assert.equal(sent!.body.response_format.json_schema.name, "taleforge_intent");
    assert.equal(sent!.body.response_format.json_schema.strict, true);
    const { $schema: _, ...expected } = z.toJSONSchema(IntentAnswerSchema) as Record<string, unknown>;
    // The parse's default (an answer without `leader`) is not sent: strict servers refuse the keyword.
    delete (expected.properties as { leader: { default?: unknown } }).leader.default;
    assert.deepEqual(sent!.body.response_format.json_schema.schema, expected);
    assert.ok(sent!.body.messages.length > 0);
    assert.ok(
      sent!.body.messages.some((m: { content: string }) => m.content.includes("walk to the Fen Hut")),
    );
  });

  test("intent: a null target is left out", async () => {
    mock.reply(jsonCompletion({ intent: "other", target: null, confidence: 0.4 }));
    assert.deepEqual(await provider(mock).classify(intentRequest), { intent: "other", confidence: 0.4 });
  });

  test("judge: numbered verdicts map back to their questions; players matched to the party", async () => {
    mock.reply(
      jsonCompletion({
        verdicts: [
          { question: 2, evidence: "e", passed: true, players: ["player"] },
          { question: 1, evidence: "e", passed: false, players: [] },
          { question: 7, evidence: "e", passed: true, players: [] },
        ],
      }),
    );
    const verdicts = await provider(mock).judge(judgeRequest);
    assert.deepEqual(verdicts, [
      { trigger: "fox", conditionIndex: 2, passed: true, players: ["Player"] },
      { trigger: "bell", conditionIndex: 0, passed: false },
    ]);
    const schema = chat(mock)[0]!.body.response_format.json_schema;
    assert.equal(schema.name, "taleforge_judge");
    assert.deepEqual(schema.schema.required, ["verdicts"]);
    assert.equal(
      schema.schema.properties.verdicts.items.properties.question.maximum,
      undefined,
      "zod's safe-integer bound is not sent",
    );
    assert.ok(JudgeAnswerSchema.safeParse({ verdicts: [] }).success);
  });

  test("judge with no questions makes no request", async () => {
    assert.deepEqual(await provider(mock).judge({ ...judgeRequest, questions: [] }), []);
    assert.equal(chat(mock).length, 0);
  });

  test("an answer in code fences after a reasoning block is still read", async () => {
    mock.reply(
      completion('<think>{"hmm": 1}</think>\n```json\n{"intent":"sleep","target":null,"confidence":1}\n```'),
    );
    assert.deepEqual(await provider(mock).classify(intentRequest), { intent: "sleep", confidence: 1 });
    assert.equal(chat(mock).length, 1);
  });

  test("invalid JSON, then a repair request carrying the error and the bad answer, then success", async () => {
    mock.reply(completion("I think they want to travel"));
    mock.reply(jsonCompletion({ intent: "travel", target: "Fen Hut", confidence: 0.8 }));
    const answer = await provider(mock).classify(intentRequest);
    assert.deepEqual(answer, { intent: "travel", target: "Fen Hut", confidence: 0.8 });
    const sent = chat(mock);
    assert.equal(sent.length, 2, "exactly one repair request");
    const first = sent[0]!.body.messages;
    const repair = sent[1]!.body.messages;
    assert.deepEqual(repair.slice(0, first.length), first, "the repair repeats the conversation");
    assert.deepEqual(repair[first.length], { role: "assistant", content: "I think they want to travel" });
    const ask = repair[first.length + 1];
    assert.equal(ask.role, "user");
    assert.match(ask.content, /not valid JSON/);
    assert.match(ask.content, /JSON Schema/);
    assert.equal(sent[1]!.body.response_format.type, "json_schema");
  });

  test("a schema mismatch is repaired the same way, naming the field", async () => {
    mock.reply(jsonCompletion({ intent: "dance", target: null, confidence: 0.8 }));
    mock.reply(jsonCompletion({ intent: "other", target: null, confidence: 0.8 }));
    assert.equal((await provider(mock).classify(intentRequest)).intent, "other");
    const repair = chat(mock)[1]!.body.messages.at(-1).content as string;
    assert.match(repair, /does not match the schema \(intent: /);
  });

  test("invalid twice: bad-output after exactly two requests", async () => {
    mock.reply(completion("nope"), completion("{still not json"));
    const error = await failure(provider(mock).classify(intentRequest));
    assert.equal(error.kind, "bad-output");
    assert.match(
      error.message,
      /^The model "test-model" gave no usable intent answer, even after a repair request/,
    );
    assert.doesNotMatch(error.message, /\n/);
    assert.equal(chat(mock).length, 2);
  });

  test("a server that rejects json_schema: json_object with the schema in the prompt, remembered", async () => {
    mock.rejects.jsonSchema = true;
    const ai = provider(mock);
    mock.reply(jsonCompletion({ intent: "move", target: "Millyard", confidence: 0.7 }));
    assert.deepEqual(await ai.classify(intentRequest), {
      intent: "move",
      target: "Millyard",
      confidence: 0.7,
    });
    mock.reply(jsonCompletion({ verdicts: [{ question: 1, evidence: "e", passed: true, players: [] }] }));
    assert.deepEqual(await ai.judge(judgeRequest), [{ trigger: "bell", conditionIndex: 0, passed: true }]);
    const sent = chat(mock);
    assert.deepEqual(
      sent.map((r) => r.body.response_format?.type),
      ["json_schema", "json_object", "json_object"],
      "one extra request in the provider's life, not one per call",
    );
    const system = sent[1]!.body.messages.find((m: { role: string }) => m.role === "system");
    assert.match(system.content, /JSON Schema: \{"type":"object"/);
    assert.equal(
      sent[1]!.body.messages.filter((m: { role: string }) => m.role === "system").length,
      sent[0]!.body.messages.filter((m: { role: string }) => m.role === "system").length,
      "the schema joins the system message, it does not add one",
    );
  });

  test("a server that rejects both formats: the prompt alone", async () => {
    mock.rejects.jsonSchema = true;
    mock.rejects.jsonObject = true;
    const ai = provider(mock);
    mock.reply(jsonCompletion({ intent: "sleep", target: null, confidence: 1 }));
    assert.equal((await ai.classify(intentRequest)).intent, "sleep");
    mock.reply(jsonCompletion({ intent: "heal", target: null, confidence: 1 }));
    assert.equal((await ai.classify({ ...intentRequest, text: "bandage my arm" })).intent, "heal");
    assert.deepEqual(
      chat(mock).map((r) => r.body.response_format?.type ?? "none"),
      ["json_schema", "json_object", "none", "none"],
    );
  });

  test("a 400 about something else is not taken for a format rejection", async () => {
    mock.reply(apiError(400, "messages: too long for the context window"));
    const error = await failure(provider(mock).classify(intentRequest));
    assert.equal(error.kind, "server");
    assert.equal(
      error.message,
      `The server at ${mock.url} rejected the intent request (400): messages: too long for the context window.`,
    );
    assert.equal(chat(mock).length, 1, "a 400 is not retried");
  });
});
