import assert from "node:assert/strict";
import { before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { findPlaytests } from "../../src/author/playtest/files.ts";
import { formatResults } from "../../src/author/playtest/report/text.ts";
import { countResults, type RunResult, runPlaytests } from "../../src/author/playtest/run.ts";

/**
 * The example world's play-tests (examples/tests), run as `taleforge test`
 * runs them: the offline provider, the real sandbox. This is how they run in
 * CI: every play-test passes, and together they fire every trigger of the
 * world (the engine-made objective triggers and the one a script adds
 * included).
 */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
let result: RunResult;

before(async () => {
  const found = await findPlaytests(["examples/tests"], ROOT);
  assert.deepEqual(found.errors, []);
  result = await runPlaytests(found.files, { cwd: ROOT });
});

test("every example play-test passes", () => {
  const counts = countResults(result);
  assert.equal(counts.failed, 0, formatResults(result, { color: false }));
  assert.ok(counts.passed >= 15, `${counts.passed} play-tests`);
  assert.ok(
    result.files.some((f) => f.file.endsWith(".test.json")),
    "the JSON format is exercised too",
  );
});

test("together they fire every trigger of the example world", () => {
  assert.equal(result.coverage.length, 1);
  const coverage = result.coverage[0]!;
  assert.equal(coverage.world, "examples/harbor.world.json");
  const never = coverage.triggers.filter((t) => t.fired === 0).map((t) => t.trigger);
  assert.deepEqual(never, [], `never fired: ${never.join(", ")}`);
  const fromWorld = coverage.triggers.filter((t) => t.origin === "world");
  assert.equal(fromWorld.length, 35, "docs/example-world.md lists 35 triggers");
  assert.deepEqual(
    coverage.triggers.filter((t) => t.origin !== "world").map((t) => `${t.trigger} (${t.origin})`),
    [
      "The Tongueless Bell_objective (engine)",
      "Names on the Cairn_objective (engine)",
      "lighthouse_haven (script)",
    ],
  );
});

test("every quest is completed, and the lifecycle's other statuses are reached", () => {
  for (const quest of result.coverage[0]!.quests) assert.ok(quest.reached.includes("completed"), quest.quest);
  const reached = new Set(result.coverage[0]!.quests.flatMap((q) => q.reached));
  for (const status of ["available", "accepted", "rejected", "abandoned", "expired"])
    assert.ok(reached.has(status as never), status);
});
