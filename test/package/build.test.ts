import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Metafile } from "esbuild";
import { buildJavaScript } from "../../scripts/build.ts";
import { TOOL } from "../../src/cli/tool.ts";
import { BASE_WORLD, ROOT } from "../cli/helpers.ts";

// The build of dist/ into a folder of its own (under node_modules, where its external packages
// resolve), so that what is checked is built from the sources under test.
let outdir: string;
let meta: Metafile;

before(async () => {
  outdir = mkdtempSync(join(ROOT, "node_modules", ".cache", "taleforge-build-"));
  meta = await buildJavaScript(outdir);
});

after(() => rmSync(outdir, { recursive: true, force: true }));

/** The source files a module loads before it runs: its static imports, transitively. */
function loadedWith(output: string): Set<string> {
  const inputs = new Set<string>();
  const seen = new Set<string>();
  const queue = [output];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const file = meta.outputs[name]!;
    for (const input of Object.keys(file.inputs)) inputs.add(input);
    for (const link of file.imports)
      if (link.kind === "import-statement" && !link.external) queue.push(link.path);
  }
  return inputs;
}

function outputHolding(input: string): string {
  const name = Object.keys(meta.outputs).find((out) => Object.hasOwn(meta.outputs[out]!.inputs, input));
  assert.ok(name, `no output holds ${input}`);
  return name;
}

test("check loads neither the AI layer, nor the drawings (SVG, PNG), nor the play loop", () => {
  const loaded = [...loadedWith(outputHolding("src/cli/check.ts"))];
  const heavy = loaded.filter((input) =>
    /^(src\/ai\/|src\/author\/(map|graph|playtest)\/|src\/cli\/(play\/|png|drawing|map|graph)|src\/sandbox\/|node_modules\/(openai|yaml|@resvg)\/)/.test(
      input,
    ),
  );
  assert.deepEqual(heavy, []);
  assert.ok(loaded.includes("src/world/validate.ts"));
});

test("the start-up alone (--help, --version) loads no command", () => {
  const loaded = [...loadedWith(outputHolding("src/cli/bin.ts"))];
  assert.deepEqual(
    // terminal-text.ts is the one leaf the start-up needs: every write of every command goes through its guard.
    loaded.filter(
      (input) =>
        (input.startsWith("src/world/") && input !== "src/world/terminal-text.ts") ||
        input.includes("node_modules/zod/"),
    ),
    [],
  );
});

test("--version is answered by the built entry before the command line loads", () => {
  const loaded = [...loadedWith(outputHolding("src/cli/bin.ts"))];
  assert.deepEqual(
    loaded.filter((input) => input === "src/cli/main.ts" || input.includes("node_modules/commander/")),
    [],
  );
  for (const flag of ["--version", "-v"]) {
    const run = spawnSync(process.execPath, [join(outdir, "taleforge.js"), flag], { encoding: "utf8" });
    assert.deepEqual([run.status, run.stdout, run.stderr], [0, `${TOOL.version}\n`, ""]);
  }
});

test("the built command checks a world like the sources do", () => {
  const run = spawnSync(
    process.execPath,
    [join(outdir, "taleforge.js"), "check", "--format", "json", BASE_WORLD],
    {
      encoding: "utf8",
    },
  );
  const sources = spawnSync(
    process.execPath,
    [join(ROOT, "bin", "taleforge.js"), "check", "--format", "json", BASE_WORLD],
    {
      encoding: "utf8",
    },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, sources.stdout);
});
