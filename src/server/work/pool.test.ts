import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { DEFAULT_POOL, WorkPool } from "./pool.ts";

/** The work pool's threads end when idle: their heaps are not held by a server with nothing to check. */

const WORLD = readFileSync(new URL("../../../examples/harbor.world.json", import.meta.url), "utf8");
const check = { kind: "check", text: WORLD, name: "harbor.world.json" } as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("work pool: idle threads", () => {
  it("ends a thread that had no task for idleMs, keeps one that keeps working, and starts one again for the next task", async () => {
    const pool = new WorkPool({ ...DEFAULT_POOL, size: 1, idleMs: 400 });
    try {
      assert.equal(pool.threadCount, 0, "threads start at the first task");
      assert.equal((await pool.run(check)).kind, "checked");
      assert.equal(pool.threadCount, 1);
      // Tasks closer together than idleMs: the same thread stays.
      for (let i = 0; i < 3; i++) {
        await sleep(150);
        assert.equal((await pool.run(check)).kind, "checked");
        assert.equal(pool.threadCount, 1);
      }
      await sleep(1200);
      assert.equal(pool.threadCount, 0, "ended after idleMs without a task");
      assert.equal((await pool.run(check)).kind, "checked", "the next task starts a thread");
      assert.equal(pool.threadCount, 1);
    } finally {
      await pool.close();
    }
  });
});
