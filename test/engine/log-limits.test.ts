import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { LOG_ENTRY_CHARS, LOG_TOTAL_CHARS } from "../../src/engine/record.ts";
import { DataRunner, onlyTriggers, say, start } from "./helpers.ts";

const recurring = { conditions: [], script: "throw new Error('E'.repeat(3e6));", recurring: true };

describe("the log is bounded in entry size and total size (issue 15 item 2)", () => {
  test("a recurring script throwing a 3 MB message keeps the save small, turn after turn", async () => {
    const huge = "E".repeat(3_000_000);
    const runner = new DataRunner({
      bomb: () => ({ status: "error", message: huge, logs: [{ level: "log", message: huge }] }),
    });
    const { session } = await start(onlyTriggers({ bomb: recurring }), { scripts: runner });
    const sizes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const result = await session.turn(say("wait"));
      for (const entry of result.logs) assert.ok(entry.message.length <= LOG_ENTRY_CHARS + 100);
      const reason = result.trace.phases.flatMap((p) => p.triggers).find((t) => t.script)?.script?.reason;
      assert.ok(reason !== undefined && reason.length <= LOG_ENTRY_CHARS + 100, "trace reason capped");
      sizes.push(session.save().length);
    }
    assert.ok(
      sizes.every((size) => size < LOG_TOTAL_CHARS * 2 + 100_000),
      `save sizes ${sizes}`,
    );
    const cut = session.state.log.find((e) => e.type === "trigger-script-error")!.message;
    assert.match(cut, /more characters cut: log entries keep 2000\]$/);
  });

  test("many small log lines: the log keeps the newest within the total", async () => {
    const line = "x".repeat(1500);
    const runner = new DataRunner({
      chatty: () => ({
        logs: Array.from({ length: 400 }, (_, i) => ({ level: "log", message: `${i} ${line}` })),
      }),
    });
    const { session } = await start(onlyTriggers({ chatty: { ...recurring, script: "log(1)" } }), {
      scripts: runner,
    });
    await session.turn(say("wait"));
    await session.turn(say("wait"));
    const total = session.state.log.reduce((sum, e) => sum + e.message.length, 0);
    assert.ok(total <= LOG_TOTAL_CHARS, `total ${total}`);
    assert.match(session.state.log.at(-1)!.message, /chatty: 399 x/);
  });
});
