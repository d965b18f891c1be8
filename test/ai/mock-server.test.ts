/**
 * The mock OpenAI-protocol server itself, over real HTTP: a long stream of delayed events keeps its
 * listeners bounded (no MaxListenersExceededWarning from the suites that use it).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { MockServer, streamed } from "./mock-server.ts";

let mock: MockServer;
before(async () => {
  mock = await MockServer.start();
});
after(() => mock.close());

test("a stream of 40 delayed events: every event arrives, no listener leak warning", async () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on("warning", onWarning);
  try {
    const deltas = Array.from({ length: 40 }, (_, i) => `w${i} `);
    mock.reply(streamed(deltas, { eventDelayMs: 1 }));
    const response = await fetch(`${mock.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "test-model", stream: true, messages: [] }),
    });
    assert.equal(response.status, 200);
    const text = await response.text();
    for (const delta of deltas) assert.ok(text.includes(JSON.stringify(delta)), delta);
    assert.ok(text.includes("data: [DONE]"));
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      warnings.filter((w) => w.name === "MaxListenersExceededWarning").map((w) => w.message),
      [],
    );
  } finally {
    process.off("warning", onWarning);
  }
});
