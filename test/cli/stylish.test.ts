import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { stripVTControlCharacters } from "node:util";
import { check } from "../../src/cli/check.ts";
import { formatStylish } from "../../src/cli/format/stylish.ts";
import { parseWorld } from "../../src/world/load.ts";
import { captureIo, ROOT } from "./helpers.ts";

// Golden files hold the exact output. After an intended change, rewrite them with
// UPDATE_GOLDEN=1 node --import tsx --test test/cli/stylish.test.ts and review the diff.
const GOLDEN = join(ROOT, "test/cli/golden");

function matchGolden(name: string, actual: string) {
  const path = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN) writeFileSync(path, actual);
  assert.equal(
    actual,
    readFileSync(path, "utf8"),
    `${name} differs; see the comment at the top of this test`,
  );
}

// Paths in the output are as given, so the fixture is named relative to the repository root.
process.chdir(ROOT);

test("stylish: positions, code frames, related lines and counts of a broken world", async () => {
  const { io, stdout } = captureIo();
  assert.equal(await check("test/cli/fixtures/broken.world.json", {}, io), 1);
  matchGolden("broken.stylish.txt", stdout());
});

test("stylish in colour is the same text once the colour is removed", async () => {
  const plain = captureIo();
  const coloured = captureIo({ isTTY: true });
  await check("test/cli/fixtures/broken.world.json", {}, plain.io);
  await check("test/cli/fixtures/broken.world.json", {}, coloured.io);
  assert.notEqual(coloured.stdout(), plain.stdout());
  assert.equal(stripVTControlCharacters(coloured.stdout()), plain.stdout());
});

test("stylish: a problem without a position has a headline and no code frame", () => {
  const text = formatStylish(
    {
      file: "w.json",
      source: undefined,
      diagnostics: [
        { code: "x/y", severity: "error", message: "Broken.", path: [], line: null, column: null },
      ],
      errorCount: 1,
      warningCount: 0,
    },
    { color: false },
  );
  assert.equal(text, "w.json  error  x/y  Broken.\n\n✖ 1 error, 0 warnings\n");
});

test("stylish: invalid JSON points at the offending character", () => {
  const loaded = parseWorld('{\n  "a": 1\n  "b": 2\n}', "w.json");
  const text = formatStylish(
    {
      file: "w.json",
      source: loaded.source,
      diagnostics: loaded.diagnostics,
      errorCount: 1,
      warningCount: 0,
    },
    { color: false },
  );
  assert.equal(
    text,
    [
      "w.json:3:3  error  json/syntax  Invalid JSON: expected ',' (or a missing closing bracket). Fix the file at this position.",
      '    2 |   "a": 1',
      '  > 3 |   "b": 2',
      "      |   ^",
      "    4 | }",
      "",
      "✖ 1 error, 0 warnings",
      "",
    ].join("\n"),
  );
});
