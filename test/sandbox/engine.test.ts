import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createSandbox } from "../../src/sandbox/index.ts";
import { onlyTriggers, say, start } from "../engine/helpers.ts";

const sandbox = createSandbox();
after(() => sandbox.close());

const tick1 = { type: "game-tick", operator: "equals", value: 1 };

describe("the engine with the real sandbox", () => {
  it("a turn runs the scripts: storage, effects, skip, logs and script errors apply", async () => {
    const { session } = await start(
      onlyTriggers({
        counter: {
          conditions: [tick1],
          effects: [{ type: "write-number", key: "typed", operator: "set", value: 1 }],
          script:
            'storage.visits = (storage.visits ?? 0) + 1;\nstorage.where = check({ type: "party-location" });\n' +
            'effects.push({ type: "write-number", key: "pushed", operator: "set", value: 2 });\nlog("counted", storage.visits);',
        },
        skipper: {
          conditions: [tick1],
          effects: [{ type: "write-number", key: "skipped", operator: "set", value: 9 }],
          script: "skip = true;",
        },
        broken: {
          conditions: [tick1],
          effects: [{ type: "write-number", key: "fallback", operator: "set", value: 3 }],
          script: "storage.lost = 1;\nnull.x;",
        },
      }),
      { scripts: sandbox },
    );
    const result = await session.turn(say("look"));
    const storage = session.state.storage;
    assert.equal(storage.visits, 1);
    assert.equal(storage.where, "Old Mill");
    assert.equal(storage.typed, 1);
    assert.equal(storage.pushed, 2);
    assert.equal(storage.skipped, undefined);
    assert.equal(storage.lost, undefined);
    assert.equal(storage.fallback, 3);
    const messages = result.logs.map((entry) => `${entry.type}: ${entry.message}`);
    assert.ok(messages.includes("script-log: counter: counted 1"), messages.join("\n"));
    assert.ok(
      messages.some((m) => m.startsWith("trigger-script-error: Runtime error at line 2, column 6")),
      messages.join("\n"),
    );
  });

  it("a script's trigger edits reach the session's trigger map", async () => {
    const { session } = await start(
      onlyTriggers({
        editor: { conditions: [tick1], script: "triggers.editor.recurring = true;\ndelete triggers.spare;" },
        spare: { conditions: [{ type: "game-tick", operator: "equals", value: 99 }] },
      }),
      { scripts: sandbox },
    );
    const result = await session.turn(say("look"));
    const edits = session.state.triggerEdits;
    assert.deepEqual(edits.deleted, ["spare"], JSON.stringify(result.logs));
    assert.equal(edits.overrides.editor?.recurring, true);
  });
});
