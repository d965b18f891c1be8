import assert from "node:assert/strict";
import { test } from "node:test";
import { FORMAT_NAMES } from "../../src/cli/format/index.ts";
import { run } from "../../src/cli/main.ts";
import { TOOL } from "../../src/cli/tool.ts";
import { assertOneLine, BASE_WORLD, captureIo } from "./helpers.ts";

async function runCli(...argv: string[]) {
  const captured = captureIo();
  const code = await run(argv, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

test("--version and --help print to stdout and exit 0", async () => {
  assert.deepEqual(await runCli("--version"), { code: 0, stdout: `${TOOL.version}\n`, stderr: "" });
  const help = await runCli("--help");
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: taleforge /);
  assert.match(help.stdout, /check \[options\] <world>/);
  assert.match(help.stdout, /schema \[options\]/);
});

test("check --help lists every format and the exit codes", async () => {
  const help = await runCli("check", "--help");
  assert.equal(help.code, 0);
  for (const name of FORMAT_NAMES) assert.ok(help.stdout.includes(name), name);
  assert.match(help.stdout, /Exit codes:\n {2}0 .*\n {2}1 .*\n {2}2 /);
});

test("run dispatches to the command and returns its exit code", async () => {
  const clean = await runCli("check", BASE_WORLD);
  assert.deepEqual(clean, { code: 0, stdout: "✔ no problems\n", stderr: "" });
  const json = await runCli("check", "--format", "json", "--max-warnings", "0", BASE_WORLD);
  assert.equal(json.code, 0);
  assert.equal(JSON.parse(json.stdout).errorCount, 0);
  const schema = await runCli("schema");
  assert.equal(schema.code, 0);
  assert.equal(JSON.parse(schema.stdout).type, "object");
});

for (const [name, argv, says] of [
  [
    "an unknown option",
    ["check", "--bogus", BASE_WORLD],
    /^taleforge check: unknown option '--bogus'\. Run "taleforge check --help" for usage\.\n$/,
  ],
  [
    "a misspelt option",
    ["check", "--fromat", "json", BASE_WORLD],
    /unknown option '--fromat' \(Did you mean --format\?\)/,
  ],
  ["a missing argument", ["check"], /^taleforge check: missing required argument 'world'/],
  [
    "an option without its value",
    ["check", BASE_WORLD, "--format"],
    /option '-f, --format <name>' argument missing/,
  ],
  ["too many arguments", ["check", BASE_WORLD, BASE_WORLD], /too many arguments for 'check'/],
  ["an unknown command", ["chek", BASE_WORLD], /^taleforge: unknown command 'chek' \(Did you mean check\?\)/],
  ["an unknown format", ["check", "--format", "xml", BASE_WORLD], /^taleforge: unknown format "xml"/],
] as const) {
  test(`${name} exits 2 with one line saying what to do`, async () => {
    const result = await runCli(...argv);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    assertOneLine(result.stderr);
    assert.match(result.stderr, says);
  });
}

test("no command at all prints the help on stderr and exits 2", async () => {
  const result = await runCli();
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^Usage: taleforge /);
});
