import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, before, test } from "node:test";
import type { Metafile } from "esbuild";
import { BIN, buildJavaScript } from "../../scripts/build.ts";
import { FAST_CACHE, FAST_SCRIPT, FAST_V8_FLAGS } from "../../src/cli/fast-start.ts";
import { TOOL } from "../../src/cli/tool.ts";
import { BASE_WORLD, FIXTURES, ROOT } from "../cli/helpers.ts";

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

test("the built bin is executable, as npx runs it after a rebuild", {
  skip: process.platform === "win32",
}, () => {
  const run = spawnSync(join(outdir, "taleforge.js"), ["--version"], { encoding: "utf8" });
  assert.deepEqual([run.error?.message, run.status, run.stdout], [undefined, 0, `${TOOL.version}\n`]);
});

test("--version is answered by the built entry before the command line loads", () => {
  const loaded = [...loadedWith(outputHolding("src/cli/bin.ts"))];
  assert.deepEqual(
    loaded.filter((input) => input === "src/cli/main.ts" || input.includes("node_modules/commander/")),
    [],
  );
  for (const entry of [BIN, "taleforge.js"])
    for (const flag of ["--version", "-v"]) {
      const run = spawnSync(process.execPath, [join(outdir, entry), flag], { encoding: "utf8" });
      assert.deepEqual(
        [run.status, run.stdout, run.stderr],
        [0, `${TOOL.version}\n`, ""],
        `${entry} ${flag}`,
      );
    }
});

test("the installed command is a CommonJS script: package.json's bin, holding no command's modules", () => {
  const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string> };
  assert.deepEqual(own.bin, { taleforge: `dist/${BIN}` });
  // Node starts no ES module loader for a CommonJS main file: --version, check and lint need none.
  const inputs = Object.keys(meta.outputs[relative(ROOT, join(outdir, BIN))]?.inputs ?? {});
  assert.deepEqual(inputs.sort(), ["src/cli/bin-cjs.ts", "src/cli/fast-start.ts"]);
  // Any other command goes on to the ES module entry.
  const help = spawnSync(process.execPath, [join(outdir, BIN), "--help"], { encoding: "utf8", cwd: ROOT });
  const sources = spawnSync(process.execPath, [join(ROOT, "bin", "taleforge.js"), "--help"], {
    encoding: "utf8",
    cwd: ROOT,
  });
  assert.deepEqual([help.status, help.stdout, help.stderr], [sources.status, sources.stdout, sources.stderr]);
});

test("the built command checks a world like the sources do", () => {
  const run = spawnSync(process.execPath, [join(outdir, BIN), "check", "--format", "json", BASE_WORLD], {
    encoding: "utf8",
  });
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

/** stdout, stderr and the exit code of a command line, from the build and from the sources. */
function both(args: readonly string[], entry = BIN): { built: unknown[]; sources: unknown[] } {
  const of = (bin: string) => {
    const run = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", cwd: ROOT });
    return [run.status, run.stdout, run.stderr];
  };
  return { built: of(join(outdir, entry)), sources: of(join(ROOT, "bin", "taleforge.js")) };
}

const FAST_LINES = [
  ["check", "--format", "json", BASE_WORLD],
  ["check", join(FIXTURES, "warnings.world.json")],
  ["check", "--format", "sarif", join(FIXTURES, "broken.world.json")],
  ["lint", "--format", "json", join(FIXTURES, "warnings.world.json")],
  ["check", "--bogus", BASE_WORLD],
  ["check", "--help"],
];

test("check and lint start from the built script with a code cache that this Node accepts", () => {
  const probe = spawnSync(
    process.execPath,
    [
      "-e",
      // With the flags the fast start sets: V8 rejects a cache made under other flags.
      `require("node:v8").setFlagsFromString(${JSON.stringify(FAST_V8_FLAGS)});
       const { Script } = require("node:vm"); const { readFileSync } = require("node:fs");
       const script = new Script(readFileSync(${JSON.stringify(join(outdir, FAST_SCRIPT))}, "utf8"), {
         cachedData: readFileSync(${JSON.stringify(join(outdir, FAST_CACHE))}) });
       process.stdout.write(String(script.cachedDataRejected));`,
    ],
    { encoding: "utf8" },
  );
  assert.equal(probe.stdout, "false", probe.stderr);
  // The script holds check and lint only: no AI layer, drawings, play loop, sandbox or server.
  const inputs = Object.keys(meta.outputs[relative(ROOT, join(outdir, FAST_SCRIPT))]?.inputs ?? {});
  assert.ok(inputs.includes("src/cli/check.ts") && inputs.includes("src/cli/lint.ts"));
  assert.deepEqual(
    inputs.filter((input) =>
      /^(src\/ai\/|src\/author\/(map|graph|playtest)\/|src\/cli\/(play\/|png|drawing|map|graph|serve)|src\/sandbox\/|src\/server\/|node_modules\/(openai|yaml|@resvg)\/)/.test(
        input,
      ),
    ),
    [],
  );
  for (const entry of [BIN, "taleforge.js"])
    for (const args of FAST_LINES) {
      const { built, sources } = both(args, entry);
      assert.deepEqual(built, sources, `${entry} ${args.join(" ")}`);
    }
  // The script is ASCII: one character past it makes V8 hold the whole script as a two-byte string.
  assert.doesNotMatch(readFileSync(join(outdir, FAST_SCRIPT), "utf8"), /[^\x00-\x7f]/);
});

/** Whether the built script built zod's schemas (zod's global registry exists) while running a command line. */
function buildsSchemas(args: string[]): boolean {
  const probe = spawnSync(
    process.execPath,
    [
      "-e",
      `const { Script } = require("node:vm"); const { readFileSync } = require("node:fs");
       const { pathToFileURL } = require("node:url");
       const file = ${JSON.stringify(join(outdir, FAST_SCRIPT))};
       const factory = new Script(readFileSync(file, "utf8")).runInThisContext();
       const module = { exports: {} };
       factory(module, module.exports, require, pathToFileURL(file).href);
       const io = { stdout() {}, stderr() {}, isTTY: false, env: {}, readStdin: async () => "", cwd: process.cwd() };
       module.exports.run(${JSON.stringify(args)}, io).then(() =>
         process.stdout.write(String(globalThis.__zod_globalRegistry !== undefined)));`,
    ],
    { encoding: "utf8" },
  );
  assert.match(probe.stdout, /^(true|false)$/, probe.stderr);
  return probe.stdout === "true";
}

test("the built script checks and lints a valid world without building the format's zod schemas", () => {
  // The check table written in at build time stands in for them (src/world/check-table.ts).
  assert.equal(buildsSchemas(["check", BASE_WORLD]), false);
  assert.equal(buildsSchemas(["lint", BASE_WORLD]), false);
  assert.equal(buildsSchemas(["check", join(FIXTURES, "warnings.world.json")]), false);
  // A world with an error in its shape needs zod's issues: the schemas are built then.
  assert.equal(buildsSchemas(["check", join(FIXTURES, "broken.world.json")]), true);
});

test("check and lint answer the same when the code cache is rejected or the script is missing", () => {
  const cache = join(outdir, FAST_CACHE);
  const script = join(outdir, FAST_SCRIPT);
  copyFileSync(cache, `${cache}.kept`);
  try {
    // A cache from another V8 (here: bytes that are no cache at all) is rejected and the script compiled.
    writeFileSync(cache, "not a code cache");
    for (const args of FAST_LINES.slice(0, 4)) {
      const { built, sources } = both(args);
      assert.deepEqual(built, sources, `rejected cache: ${args.join(" ")}`);
    }
    // Without the script, the entry runs the ES modules.
    renameSync(script, `${script}.kept`);
    for (const args of FAST_LINES.slice(0, 4)) {
      const { built, sources } = both(args);
      assert.deepEqual(built, sources, `no script: ${args.join(" ")}`);
    }
  } finally {
    renameSync(`${cache}.kept`, cache);
    renameSync(`${script}.kept`, script);
  }
});
