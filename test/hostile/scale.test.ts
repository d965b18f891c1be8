import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { graph } from "../../src/cli/graph.ts";
import { lint } from "../../src/cli/lint.ts";
import { BASE_WORLD, captureIo, runWorldCommand, scratchDir } from "../cli/helpers.ts";

/**
 * A world far over the trigger limits, its triggers chained backwards (each
 * needs a storage key the next one writes), the worst case of lint's play
 * analysis: one pass per trigger. lint and graph stop after the limit error
 * instead of going quadratic (issue 15 item 13).
 */
const COUNT = 3000;
const world = JSON.parse(readFileSync(BASE_WORLD, "utf8"));
for (let i = 0; i < COUNT; i++)
  world.triggers[`t${i}`] = {
    name: `t${i}`,
    conditions: [{ type: "read-number", key: `k${i}`, operator: "greaterThan", value: 0 }],
    effects: [{ type: "write-number", key: `k${i === 0 ? COUNT : i - 1}`, operator: "set", value: 1 }],
  };
world.triggers.seed = {
  name: "seed",
  conditions: [],
  effects: [{ type: "write-number", key: `k${COUNT - 1}`, operator: "set", value: 1 }],
};
const file = scratchDir().write("huge.world.json", JSON.stringify(world));

describe("lint and graph on a world over the trigger limits (issue 15 item 13)", () => {
  test("lint reports the limit, says its play analysis was skipped, and runs no lint rule", async () => {
    const { io, stdout } = captureIo();
    const code = await lint(file, { format: "json" }, io);
    assert.equal(code, 1);
    const codes = JSON.parse(stdout()).diagnostics.map((d: { code: string }) => d.code);
    assert.ok(codes.includes("limit/trigger-count"));
    assert.ok(codes.includes("lint/over-limit"));
    assert.deepEqual(
      codes.filter((c: string) => c.startsWith("lint/") && c !== "lint/over-limit"),
      [],
    );
  });

  test("graph refuses to draw it, naming the limit", async () => {
    for (const format of ["mermaid", "svg"]) {
      const { code, stdout, stderr } = await runWorldCommand(graph, file, { format });
      assert.equal(code, 1);
      assert.equal(stdout, "");
      assert.match(
        stderr,
        /over the trigger limits \(500 mechanical, 200 semantic; see limit\/trigger-count\)/,
      );
    }
  });
});
