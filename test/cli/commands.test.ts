/**
 * The command catalogue: the modules under src/cli/commands/, the COMMANDS
 * list, their tests and docs/cli.md agree, so a new command is found from
 * its name alone (CONTRIBUTING.md, "A CLI command").
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { renderCliDoc, usageOf } from "../../scripts/cli-doc.ts";
import type { CommandSpec } from "../../src/cli/command.ts";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { run } from "../../src/cli/main.ts";
import { captureIo, ROOT } from "./helpers.ts";

const DIR = fileURLToPath(new URL("../../src/cli/commands/", import.meta.url));
/** The test of a command is test/cli/<name>.test.ts, except where that name would mislead. */
const TEST_FILE: Record<string, string> = { test: "test-command.test.ts" };
/** What a command module may load before it runs: the spec helpers. Everything else waits for `run` (import()). */
const LIGHT = new Set(["../command.ts", "../report-spec.ts", "../exit.ts"]);

const files = readdirSync(DIR).filter(
  (file) => file.endsWith(".ts") && file !== "index.ts" && !file.endsWith(".test.ts"),
);
const modules = await Promise.all(
  files.map(async (file) => ({
    file,
    name: file.slice(0, -".ts".length),
    spec: (await import(pathToFileURL(join(DIR, file)).href)).default as CommandSpec | undefined,
  })),
);

describe("commands", () => {
  test("each file under src/cli/commands/ default-exports the command named after it, listed in COMMANDS", () => {
    const wrong = modules.flatMap(({ file, name, spec }) => [
      ...(spec?.name === name
        ? []
        : [`src/cli/commands/${file} must default-export defineCommand({ name: "${name}", ... })`]),
      ...(spec && COMMANDS.includes(spec)
        ? []
        : [`src/cli/commands/${file} is not in COMMANDS (src/cli/commands/index.ts)`]),
    ]);
    const fileless = COMMANDS.filter((spec) => !modules.some((m) => m.spec === spec)).map(
      (spec) =>
        `${spec.name} is in COMMANDS but is not the default export of src/cli/commands/${spec.name}.ts`,
    );
    assert.deepEqual([...wrong, ...fileless], []);
  });

  test("each command has its test in test/cli/", () => {
    const untested = COMMANDS.map((spec) => TEST_FILE[spec.name] ?? `${spec.name}.test.ts`)
      .filter((file) => !existsSync(join(ROOT, "test", "cli", file)))
      .map((file) => `test/cli/${file} is missing`);
    assert.deepEqual(untested, []);
  });

  test("each command documents its arguments, options, exit codes and examples", () => {
    const incomplete = COMMANDS.flatMap((spec) => [
      ...(spec.summary.trim() ? [] : [`${spec.name}: no summary`]),
      ...(spec.exitCodes.some((e) => e.code === 0) ? [] : [`${spec.name}: no exit code 0`]),
      ...(spec.examples.length > 0 ? [] : [`${spec.name}: no example`]),
      ...spec.examples
        .filter((line) => !/(^|\| )taleforge /.test(line))
        .map((line) => `${spec.name}: example "${line}" does not run taleforge`),
      ...[...spec.arguments, ...spec.options]
        .filter((entry) => !entry.description.trim())
        .map((entry) => `${spec.name}: ${"name" in entry ? entry.name : entry.flags} has no description`),
    ]);
    assert.deepEqual(incomplete, []);
  });

  test("each command's --help fits 80 columns, but for its examples (copied whole)", async () => {
    const wide: string[] = [];
    for (const spec of COMMANDS) {
      const help = captureIo();
      assert.equal(await run([spec.name, "--help"], help.io), 0, spec.name);
      const examples = new Set(spec.examples.map((line) => `  ${line}`));
      for (const line of help.stdout().split("\n"))
        if (line.length > 80 && !examples.has(line)) wide.push(`${spec.name}: ${line.length}: ${line}`);
    }
    assert.deepEqual(wide, []);
  });

  test("command modules load nothing but the spec helpers until they run", () => {
    const heavy = files.flatMap((file) =>
      [...readFileSync(join(DIR, file), "utf8").matchAll(/^import (?!type )[^;]*? from "([^"]+)";/gms)]
        .map((match) => match[1]!)
        .filter((target) => !LIGHT.has(target))
        .map((target) => `src/cli/commands/${file} imports ${target}: load it inside run with import()`),
    );
    assert.deepEqual(heavy, []);
  });

  test("docs/cli.md lists every command, as generated", () => {
    const page = readFileSync(join(ROOT, "docs", "cli.md"), "utf8");
    assert.equal(page, renderCliDoc(page, COMMANDS), "run `npm run docs`");
    for (const spec of COMMANDS)
      assert.ok(page.includes(`### \`${usageOf(spec)}\``), `no entry for ${spec.name}`);
  });

  test("--help lists every command", async () => {
    const cli = captureIo();
    assert.equal(await run(["--help"], cli.io), 0);
    for (const spec of COMMANDS) assert.ok(cli.stdout().includes(spec.name), spec.name);
  });
});
