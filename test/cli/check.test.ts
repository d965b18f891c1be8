import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { check } from "../../src/cli/check.ts";
import { assertOneLine, BASE_WORLD, captureIo, FIXTURES, scratchDir } from "./helpers.ts";

const BROKEN = join(FIXTURES, "broken.world.json");
const WARNINGS = join(FIXTURES, "warnings.world.json");
const scratch = scratchDir();

async function checkJson(file: string, stdin?: string) {
  const captured = captureIo(stdin === undefined ? {} : { stdin });
  const code = await check(file, { format: "json" }, captured.io);
  return { code, report: JSON.parse(captured.stdout()), stderr: captured.stderr() };
}

describe("check exit codes", () => {
  test("a valid world exits 0 and says so", async () => {
    const { io, stdout, stderr } = captureIo();
    assert.equal(await check(BASE_WORLD, {}, io), 0);
    assert.equal(stdout(), "✔ no problems\n");
    assert.equal(stderr(), "");
  });

  test("warnings alone exit 0", async () => {
    const { io, stdout } = captureIo();
    assert.equal(await check(WARNINGS, {}, io), 0);
    assert.match(stdout(), /✖ 0 errors, 1 warning\n$/);
  });

  test("--max-warnings: more warnings than allowed exit 1, as many as allowed exit 0", async () => {
    const over = captureIo();
    assert.equal(await check(WARNINGS, { maxWarnings: "0" }, over.io), 1);
    assert.equal(
      over.stderr(),
      "taleforge: too many warnings (1; --max-warnings is 0). Fix them or raise the limit.\n",
    );
    const within = captureIo();
    assert.equal(await check(WARNINGS, { maxWarnings: "1" }, within.io), 0);
    assert.equal(within.stderr(), "");
  });

  test("errors exit 1", async () => {
    const { code, report } = await checkJson(BROKEN);
    assert.equal(code, 1);
    assert.equal(report.errorCount, 2);
  });

  test("a missing file exits 2 with one line naming it", async () => {
    const missing = join(scratch.dir, "nowhere.world.json");
    const { io, stdout, stderr } = captureIo();
    assert.equal(await check(missing, { format: "json" }, io), 2);
    assert.equal(stdout(), "", "nothing on stdout: there is no report");
    assertOneLine(stderr());
    assert.ok(stderr().includes(missing));
  });

  test("a directory exits 2", async () => {
    const { io, stderr } = captureIo();
    assert.equal(await check(scratch.dir, {}, io), 2);
    assertOneLine(stderr());
    assert.match(stderr(), /is a directory/);
  });

  test("an empty file is a problem in the file: exit 1, file/empty", async () => {
    const { code, report } = await checkJson(scratch.write("empty.world.json", "  \n"));
    assert.equal(code, 1);
    assert.deepEqual(
      report.diagnostics.map((d: { code: string }) => d.code),
      ["file/empty"],
    );
  });

  test("invalid JSON exits 1 with the position of the first syntax error", async () => {
    const file = scratch.write("bad.world.json", '{\n  "configVersion": "V33",\n  "heroesVersion": 33,,\n}');
    const { code, report } = await checkJson(file);
    assert.equal(code, 1);
    assert.equal(report.diagnostics.length, 1);
    assert.deepEqual(
      {
        code: report.diagnostics[0].code,
        line: report.diagnostics[0].line,
        column: report.diagnostics[0].column,
      },
      { code: "json/syntax", line: 3, column: 23 },
    );
  });

  test("a whole world with mods and no version field is a world, not a mod fragment (issue 35, 7)", async () => {
    const world = JSON.parse(readFileSync(BASE_WORLD, "utf8"));
    delete world.configVersion;
    delete world.heroesVersion;
    world.mods = [{ shortId: "abc", version: 3 }];
    const codes = (report: { diagnostics: { code: string }[] }) => report.diagnostics.map((d) => d.code);
    const plain = await checkJson(scratch.write("unversioned.world.json", JSON.stringify(world)));
    assert.deepEqual(codes(plain.report), ["shape/missing-field", "shape/missing-field"]);
    world.itemTypes = {};
    const later = await checkJson(scratch.write("later.world.json", JSON.stringify(world)));
    assert.deepEqual(codes(later.report), ["world/unsupported-version"]);
    // A mod carries instructions and settings, and at most one of a world's own sections.
    const mod = { mods: [{ shortId: "abc", version: 3 }], aiInstructions: {}, worldLore: "x" };
    const fragment = await checkJson(scratch.write("mod.json", JSON.stringify(mod)));
    assert.deepEqual(codes(fragment.report), ["world/mod-fragment"]);
  });

  test("- reads the world from stdin and names it <stdin>", async () => {
    const valid = await checkJson("-", readFileSync(BASE_WORLD, "utf8"));
    assert.deepEqual([valid.code, valid.report.file, valid.report.errorCount], [0, "<stdin>", 0]);
    const broken = await checkJson("-", readFileSync(BROKEN, "utf8"));
    assert.deepEqual([broken.code, broken.report.file, broken.report.errorCount], [1, "<stdin>", 2]);
  });

  test("stdin that cannot be read exits 2", async () => {
    const { io, stderr } = captureIo({ stdin: new Error("EIO: i/o error, read") });
    assert.equal(await check("-", {}, io), 2);
    assertOneLine(stderr());
    assert.match(stderr(), /cannot read stdin: EIO/);
  });

  test("an unknown format or a bad --max-warnings exits 2 before reading anything", async () => {
    const format = captureIo();
    assert.equal(await check(BASE_WORLD, { format: "xml" }, format.io), 2);
    assert.equal(format.stderr(), 'taleforge: unknown format "xml". Use --format stylish, json, sarif.\n');
    for (const value of ["-1", "many", "1.5", ""]) {
      const max = captureIo();
      assert.equal(await check(BASE_WORLD, { maxWarnings: value }, max.io), 2, value);
      assertOneLine(max.stderr());
      assert.equal(max.stdout(), "");
    }
  });
});

describe("check colour", () => {
  const ansi = /\u001b\[/;

  test("colour on a terminal", async () => {
    const { io, stdout } = captureIo({ isTTY: true });
    await check(BROKEN, {}, io);
    assert.match(stdout(), ansi);
  });

  test("no colour when stdout is not a terminal, or NO_COLOR is set", async () => {
    for (const options of [{ isTTY: false }, { isTTY: true, env: { NO_COLOR: "1" } }]) {
      const { io, stdout } = captureIo(options);
      await check(BROKEN, {}, io);
      assert.doesNotMatch(stdout(), ansi, JSON.stringify(options));
    }
  });

  test("JSON and SARIF are never coloured", async () => {
    for (const format of ["json", "sarif"]) {
      const { io, stdout } = captureIo({ isTTY: true });
      await check(BROKEN, { format }, io);
      assert.doesNotMatch(stdout(), ansi, format);
      JSON.parse(stdout());
    }
  });
});
