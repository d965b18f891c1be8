import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { stringify } from "yaml";
import { run } from "../../src/cli/main.ts";
import { jsonCompletion, MockServer } from "../ai/mock-server.ts";
import { captureIo, ROOT, scratchDir } from "./helpers.ts";

/** `taleforge eval`: the report's numbers are the judge's answers, counted per condition. */
const EXAMPLE = join(ROOT, "examples/harbor.world.json");
const dir = scratchDir();

async function taleforge(args: string[], env: Record<string, string> = {}) {
  const captured = captureIo({ env });
  captured.io.cwd = dir.dir;
  const code = await run(args, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

/**
 * The table the local server answers by: per case text, the verdict of each sample in turn. Some
 * cases are flaky on purpose (their verdicts differ between samples).
 */
const TABLE: {
  trigger: string;
  condition: number;
  text: string;
  kind: "story" | "action";
  expect: boolean;
  answers: boolean[];
}[] = [
  {
    trigger: "read_logbook",
    condition: 1,
    kind: "action",
    text: "I read the logbook by the lamp.",
    expect: true,
    answers: [true, true, true],
  },
  {
    trigger: "read_logbook",
    condition: 1,
    kind: "action",
    text: "I leaf through the keeper's log.",
    expect: true,
    answers: [true, false, true],
  },
  {
    trigger: "read_logbook",
    condition: 1,
    kind: "action",
    text: "I burn the logbook unread.",
    expect: false,
    answers: [true, true, true],
  },
  {
    trigger: "read_logbook",
    condition: 1,
    kind: "action",
    text: "I look at the sea.",
    expect: false,
    answers: [false, false, false],
  },
  {
    trigger: "slade_threatens",
    condition: 1,
    kind: "story",
    text: "Slade leans close: 'Walk away, or your friends drown.'",
    expect: true,
    answers: [false, false, false],
  },
  {
    trigger: "slade_threatens",
    condition: 1,
    kind: "story",
    text: "Slade counts coins and says nothing.",
    expect: false,
    answers: [false, true, false],
  },
  {
    trigger: "ring_fog_bell",
    condition: 1,
    kind: "action",
    text: "I haul on the bell rope.",
    expect: true,
    answers: [true, true, false],
  },
];
const SAMPLES = 3;
const USAGE = { prompt_tokens: 120, completion_tokens: 9 };

describe("taleforge eval against a local OpenAI-protocol server", () => {
  let mock: MockServer;
  const seen = new Map<string, number>();

  before(async () => {
    mock = await MockServer.start();
    mock.handler = (request) => {
      const prompt = JSON.stringify(request.body?.messages ?? "");
      const row = TABLE.find((r) => prompt.includes(JSON.stringify(r.text).slice(1, -1)));
      if (!row) return { status: 400, json: { error: { message: "not in the table" } } };
      const n = seen.get(row.text) ?? 0;
      seen.set(row.text, n + 1);
      return jsonCompletion(
        {
          verdicts: [
            { question: 1, evidence: "table", passed: row.answers[n % row.answers.length], players: [] },
          ],
        },
        USAGE,
      );
    };
  });
  after(() => mock.close());

  test("the report's numbers equal the table's", async () => {
    const cases = dir.write(
      "harbor.cases.yaml",
      stringify({
        cases: [
          ...TABLE.map((r) => ({
            trigger: r.trigger,
            condition: r.condition,
            [r.kind]: r.text,
            expect: r.expect ? "pass" : "fail",
          })),
          { trigger: "no_such_trigger", action: "x", expect: true },
        ],
      }),
    );
    const out = await taleforge([
      "eval",
      EXAMPLE,
      cases,
      "--base-url",
      mock.url,
      "--model",
      "test-model",
      "--format",
      "json",
      "--samples",
      String(SAMPLES),
    ]);
    assert.equal(out.code, 0, out.stderr);
    const report = JSON.parse(out.stdout) as {
      samples: number;
      model: string;
      conditions: Record<string, number | string | null>[];
      unmatched: { trigger: string }[];
      summary: Record<string, number | null>;
    };
    assert.equal(report.samples, SAMPLES);
    assert.equal(report.model, "test-model");
    assert.deepEqual(
      report.unmatched.map((u) => u.trigger),
      ["no_such_trigger"],
    );
    for (const key of ["read_logbook", "slade_threatens", "ring_fog_bell"]) {
      const rows = TABLE.filter((r) => r.trigger === key);
      const verdicts = rows.flatMap((r) => r.answers.slice(0, SAMPLES).map((a) => ({ a, e: r.expect })));
      const got = report.conditions.find((c) => c.trigger === key)!;
      const correct = verdicts.filter((v) => v.a === v.e).length;
      assert.equal(got.cases, rows.length, key);
      assert.equal(got.verdicts, verdicts.length, key);
      assert.equal(got.correct, correct, key);
      assert.equal(got.accuracy, correct / verdicts.length, key);
      assert.equal(got.falsePasses, verdicts.filter((v) => v.a && !v.e).length, key);
      assert.equal(got.falseFails, verdicts.filter((v) => !v.a && v.e).length, key);
      assert.equal(got.flaky, rows.filter((r) => new Set(r.answers.slice(0, SAMPLES)).size > 1).length, key);
      assert.equal(got.errors, 0, key);
      assert.equal(got.calls, rows.length * SAMPLES, key);
      assert.equal(got.promptTokens, rows.length * SAMPLES * USAGE.prompt_tokens, key);
      assert.equal(got.completionTokens, rows.length * SAMPLES * USAGE.completion_tokens, key);
    }
    const unused = report.conditions.find((c) => c.trigger === "light_the_beacon")!;
    assert.equal(unused.cases, 0);
    assert.equal(report.summary.conditionsWithoutCases, 1);
    assert.equal(report.summary.cases, TABLE.length);
    assert.equal(report.summary.flaky, TABLE.filter((r) => new Set(r.answers).size > 1).length);
    // Every sample was asked of the server: the provider's memo of paid answers did not answer a repeat.
    for (const r of TABLE) assert.equal(seen.get(r.text), SAMPLES, r.text);
  });

  test("the text report shows the same figures per condition, and a summary with the cost per case", async () => {
    seen.clear();
    const cases = join(dir.dir, "harbor.cases.yaml");
    const out = await taleforge([
      "eval",
      EXAMPLE,
      cases,
      "--base-url",
      mock.url,
      "--model",
      "test-model",
      "--samples",
      "3",
    ]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /read_logbook\[1\] {2}action: "Does the player read the keeper's logbook\?"/);
    // read_logbook: 12 verdicts, 8 correct (the burnt logbook passes 3 times, the leafing fails once).
    assert.match(out.stdout, /accuracy 66\.7% \(12 verdicts\) · false passes 3 · false fails 1 · flaky 1\/4/);
    assert.match(out.stdout, /light_the_beacon\[1\][^\n]*\n {2}no cases/);
    assert.match(out.stdout, /cost per case: 3 calls, 387 tokens/);
    assert.match(out.stdout, /skipped [^\n]*case 8: no trigger "no_such_trigger"/);
  });
});

describe("taleforge eval offline and --init", () => {
  test("with no cases file, the offline judge reports on every AI-judged condition of the example world", async () => {
    const out = await taleforge(["eval", EXAMPLE, "--samples", "1"]);
    assert.equal(out.code, 0, out.stderr);
    for (const key of ["read_logbook", "light_the_beacon", "ring_fog_bell", "slade_threatens"])
      assert.match(out.stdout, new RegExp(`${key}\\[\\d\\]`));
    assert.match(out.stdout, /Summary: 4 AI-judged conditions, 0 without cases/);
  });

  test("--init writes a starter cases file that eval then reads; it is not overwritten without --force", async () => {
    const world = dir.write("w.world.json", readFileSync(EXAMPLE, "utf8"));
    const init = await taleforge(["eval", world, "--init"]);
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /Wrote w\.cases\.yaml: 12 starter cases for 4 AI-judged conditions/);
    const again = await taleforge(["eval", world, "--init"]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /already exists/);
    const out = await taleforge([
      "eval",
      world,
      join(dir.dir, "w.cases.yaml"),
      "--format",
      "json",
      "--samples",
      "1",
    ]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal((JSON.parse(out.stdout) as { summary: { cases: number } }).summary.cases, 12);
  });

  test("a broken cases file is reported at its position, exit 1", async () => {
    const bad = dir.write("bad.cases.yaml", "cases:\n  - trigger: read_logbook\n    expct: true\n");
    const out = await taleforge(["eval", EXAMPLE, bad]);
    assert.equal(out.code, 1);
    assert.match(out.stderr, /bad\.cases\.yaml:3:5 {2}playtest\/unknown-key/);
  });

  test("bad options exit 2", async () => {
    assert.equal((await taleforge(["eval", EXAMPLE, "--samples", "0"])).code, 2);
    assert.equal((await taleforge(["eval", EXAMPLE, "--format", "xml"])).code, 2);
  });
});
