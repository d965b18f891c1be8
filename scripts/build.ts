/**
 * Builds what the package ships: the command line and the library as plain
 * JavaScript in dist/ (esbuild, one ES module per entry plus shared chunks,
 * so that each command still loads only its own modules), `check` and `lint`
 * once more as one classic script with a V8 code cache (src/cli/fast-start.ts),
 * and the library's
 * type declarations in dist/types (tsc -p tsconfig.build.json), and the
 * browser app of web/ in dist/web (Vite), which `taleforge serve` serves. `npm ci`
 * runs it through the `prepare` script. Tests and development run the
 * TypeScript sources directly and never read dist/.
 *
 * `npx tsx scripts/build.ts [outdir] [--no-types] [--no-web]`
 */
import { spawnSync } from "node:child_process";
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Metafile, type Plugin } from "esbuild";
import { FAST_SCRIPT } from "../src/cli/fast-start.ts";
import { childCode } from "../src/sandbox/bundle.ts";
import { compileWorker, SQLITE_WORKER } from "../src/server/store/sqlite-thread.ts";
import { WORK_WORKER, workerCode } from "../src/server/work/pool.ts";
import { tableFrom } from "../src/world/check-table.ts";
import { formatSchemas } from "../src/world/schema/lazy.ts";
import { writeStamp } from "./prepare.mjs";

/** The sandbox's child process in dist/ (src/sandbox/process.ts). */
const SANDBOX_CHILD = "sandbox-child.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Packages that stay outside the bundle: native code (isolated-vm, resvg,
 * esbuild's binary) is loaded from node_modules where it was installed, and
 * tsx only runs TypeScript sources (the sandbox's fallback). The server's
 * packages (loaded only by `serve`) stay outside too: better-sqlite3 is native,
 * and pino and fastify find files of their own at run time. Kysely is bundled:
 * its package is some 280 ES modules, whose loading (resolving, reading and
 * compiling each) cost `serve` 200-300 ms of CPU at start; bundled, the server
 * chunk holds only the parts the store uses.
 */
export const EXTERNAL = [
  "isolated-vm",
  "@resvg/resvg-js",
  "esbuild",
  "tsx",
  "better-sqlite3",
  "pg",
  "pino",
  "fastify",
  "@fastify/helmet",
  "@fastify/rate-limit",
];

/**
 * In a bundle, `import.meta.url` would name the output chunk. Modules use it
 * to find files beside their sources (the sandbox's child, the example
 * world), so it is replaced by the URL of the source file itself, written
 * relative to the output folder so that an installed package works anywhere.
 */
export function sourceUrls(outdir: string): Plugin {
  return {
    name: "source-urls",
    setup(context) {
      context.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const { readFile } = await import("node:fs/promises");
        const text = await readFile(args.path, "utf8");
        if (!text.includes("import.meta.url")) return undefined;
        // The entry finds the fast-start script beside itself in dist/, by its own URL.
        if (args.path === join(ROOT, "src", "cli", "bin.ts")) return undefined;
        const fromOut = relative(outdir, args.path).split("\\").join("/");
        const url = `new URL(${JSON.stringify(fromOut)}, import.meta.url).href`;
        return { contents: text.replaceAll("import.meta.url", url), loader: "ts" };
      });
    },
  };
}

/**
 * zod's namespace re-exports its messages in some fifty languages (about 300
 * KB of the bundle), which every command would parse at start-up; Taleforge
 * writes its own messages and uses zod's English ones only. Its locale list
 * is cut to English in the bundle.
 */
const englishOnly: Plugin = {
  name: "zod-english-only",
  setup(context) {
    context.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: 'export { default as en } from "./en.js";',
      loader: "js",
    }));
  },
};

/**
 * A check of a valid world needs none of the format's zod schemas, only the
 * plans and effect specs made from them (src/world/check-table.ts): in the
 * fast start's script, that table is made here, at build time, from the
 * schemas, and written in as JSON; and the schemas are built on their first
 * use (src/world/schema/lazy.ts), by a `require` that esbuild turns into the
 * lazy start of the bundled module. Building zod's modules and the schemas was
 * some 53 M instructions of every check (docs/benchmarks.md).
 */
function lazySchemas(): Plugin {
  const table = JSON.stringify(tableFrom(formatSchemas()).table);
  const lazy = join(ROOT, "src", "world", "schema", "lazy.ts");
  const data = join(ROOT, "src", "world", "check-table-data.ts");
  return {
    name: "lazy-schemas",
    setup(context) {
      context.onLoad({ filter: /[\\/]src[\\/]world[\\/](schema[\\/]lazy|check-table-data)\.ts$/ }, (args) => {
        if (args.path === lazy)
          return {
            contents: `let schemas;
export function formatSchemas() {
  schemas ??= require("./index.ts");
  return schemas;
}`,
            loader: "js",
            resolveDir: dirname(lazy),
          };
        if (args.path === data)
          // JSON.parse of a string: V8 reads it faster than the same object written as code.
          return {
            contents: `export function checkSource() {
  return JSON.parse(${JSON.stringify(table)});
}`,
            loader: "js",
          };
        return undefined;
      });
    },
  };
}

/**
 * commander requires node:child_process when it loads, for the executable
 * subcommands Taleforge never declares; loading it (and net, dgram and the
 * stream modules with it) cost `check` 1-6 ms of CPU at start. In the bundle
 * it is required on the first spawn instead.
 */
const lazyChildProcess: Plugin = {
  name: "commander-lazy-child-process",
  setup(context) {
    context.onLoad({ filter: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const { readFile } = await import("node:fs/promises");
      const text = await readFile(args.path, "utf8");
      const eager = "const childProcess = require('node:child_process');";
      if (!text.includes(eager))
        throw new Error(`${args.path}: commander no longer requires child_process as expected`);
      const lazy = "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
      return { contents: text.replace(eager, lazy), loader: "js" };
    });
  },
};

/**
 * re2js decides whether a one-character instruction of a compiled pattern folds case by asking
 * `Unicode.simpleFold` for the character's fold even when the pattern has no case folding (the
 * flag is then cleared either way), and the first such question decodes its whole table of
 * case orbits: about 7 M instructions, most of `condition/regex-pattern` in a `check` of a world
 * whose patterns are all case-sensitive (the at-cap world's; docs/benchmarks.md). In the bundle
 * the flag is tested first: the same instruction, the same flags, and the table is decoded only
 * for a pattern that folds case.
 */
const re2jsFoldOnDemand: Plugin = {
  name: "re2js-fold-on-demand",
  setup(context) {
    context.onLoad({ filter: /[\\/]node_modules[\\/]re2js[\\/]build[\\/]index\.js$/ }, async (args) => {
      const { readFile } = await import("node:fs/promises");
      const text = await readFile(args.path, "utf8");
      const eager =
        "flags &= RE2Flags.FOLD_CASE;\n\t\tif (runes.length !== 1 || Unicode.simpleFold(runes[0]) === runes[0]) flags &= ~RE2Flags.FOLD_CASE;";
      if (text.split(eager).length !== 2)
        throw new Error(`${args.path}: re2js no longer decides a rune's case folding as expected`);
      const lazy =
        "flags &= RE2Flags.FOLD_CASE;\n\t\tif (runes.length !== 1 || flags === 0 || Unicode.simpleFold(runes[0]) === runes[0]) flags &= ~RE2Flags.FOLD_CASE;";
      return { contents: text.replace(eager, lazy), loader: "js" };
    });
  },
};

/**
 * acorn builds, when it loads, the tables of Unicode property names that a regular expression's
 * `\p{…}` may use (four regular expressions of some kilobytes for each of six ECMAScript
 * versions): 5 M instructions on every `check`, although only a script with `\p{…}` in a
 * regular expression literal ever reads them. In the bundle each version's table is built
 * the first time it is read, as acorn would have built it.
 */
const lazyAcornUnicodeData: Plugin = {
  name: "acorn-lazy-unicode-data",
  setup(context) {
    context.onLoad({ filter: /[\\/]node_modules[\\/]acorn[\\/]dist[\\/]acorn\.mjs$/ }, async (args) => {
      const { readFile } = await import("node:fs/promises");
      const text = await readFile(args.path, "utf8");
      const eagerBuild = "  var ecmaVersion = list[i];\n\n  buildUnicodeData(ecmaVersion);\n";
      const eagerRead =
        "  this.unicodeProperties = data[parser.options.ecmaVersion >= 14 ? 14 : parser.options.ecmaVersion];\n";
      if (text.split(eagerBuild).length !== 2 || text.split(eagerRead).length !== 2)
        throw new Error(`${args.path}: acorn no longer builds its Unicode data as expected`);
      // The versions the loop built (9 to 14); for any other, `data` has nothing, as before.
      const lazyRead = `
Object.defineProperty(RegExpValidationState.prototype, "unicodeProperties", {
  get: function () {
    var version = this.parser.options.ecmaVersion >= 14 ? 14 : this.parser.options.ecmaVersion;
    if (!Object.prototype.hasOwnProperty.call(data, version) && version >= 9 && version <= 14) buildUnicodeData(version);
    return data[version];
  }
});
`;
      const contents = text.replace(eagerBuild, "").replace(eagerRead, "") + lazyRead;
      return { contents, loader: "js" };
    });
  },
};

const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/**
 * The JavaScript of dist/: `taleforge.cjs` (the bin) and `taleforge.js` (the
 * entry of the commands other than `--version`, `check` and `lint`), `index.js` (the library),
 * `fast-start.js` (the loader of the next two), and the fast start of `check`
 * and `lint`: `check-cli.cjs` and its code cache `check-cli.cache`. The
 * metafile lists the ES modules' outputs first, then the script's.
 */
export async function buildJavaScript(outdir: string): Promise<Metafile> {
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: {
      taleforge: "src/cli/bin.ts",
      index: "src/index.ts",
      "fast-start": "src/cli/fast-start.ts",
    },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Flat: every output file sits in outdir, which the source-urls plugin's paths are relative to.
    chunkNames: "[name]-[hash]",
    external: EXTERNAL,
    // ES module builds first: jsonc-parser's UMD build requires its files by computed paths.
    mainFields: ["module", "main"],
    plugins: [sourceUrls(outdir), englishOnly, lazyChildProcess, re2jsFoldOnDemand, lazyAcornUnicodeData],
    define: {
      // `--version` answers without loading the chunk that holds package.json (src/cli/bin.ts).
      TALEFORGE_VERSION: JSON.stringify(VERSION),
      // The sandbox's child process, built below, found from src/sandbox/process.ts's own URL.
      __TF_SANDBOX_CHILD__: JSON.stringify(
        relative(join(ROOT, "src", "sandbox"), join(outdir, SANDBOX_CHILD))
          .split("\\")
          .join("/"),
      ),
      // The work threads' code (world checks, maps), built below, found from src/server/work/pool.ts's URL.
      __TF_WORK_WORKER__: JSON.stringify(
        relative(join(ROOT, "src", "server", "work"), join(outdir, WORK_WORKER))
          .split("\\")
          .join("/"),
      ),
      // The SQLite store's thread, built below, found from src/server/store/sqlite-thread.ts's own URL.
      __TF_SQLITE_WORKER__: JSON.stringify(
        relative(join(ROOT, "src", "server", "store"), join(outdir, SQLITE_WORKER))
          .split("\\")
          .join("/"),
      ),
    },
    // Bundled CommonJS packages (commander) call require(): give every ES module one.
    banner: {
      js: '#!/usr/bin/env node\nimport { createRequire as __tfRequire } from "node:module";\nconst require = __tfRequire(import.meta.url);',
    },
    sourcemap: false,
    metafile: true,
    logLevel: "warning",
  });
  // The bin stays executable: npm makes it so only when it links the package (`npm ci`, the first `npx
  // taleforge` in a clone), and `npx taleforge` after a rebuild (`git pull && npm run build`) answered
  // `sh: 1: taleforge: Permission denied` with a bin written 0644.
  chmodSync(join(outdir, "taleforge.js"), 0o755);
  // The sandbox's child process, so that no `taleforge serve` or `play` starts esbuild to bundle it.
  writeFileSync(join(outdir, SANDBOX_CHILD), childCode());
  // The SQLite store's thread, so that no `taleforge serve` loads esbuild or writes under node_modules
  // (npm's record of node_modules, node_modules/.package-lock.json, holds only while nothing newer is
  // written there: `npx taleforge` reads every package's files again otherwise).
  writeFileSync(join(outdir, SQLITE_WORKER), compileWorker());
  // The work threads' code, so that no `taleforge serve` starts esbuild to bundle it.
  writeFileSync(join(outdir, WORK_WORKER), await workerCode());
  const script = await buildFastStartScript(outdir);
  writeFastStartCache(outdir);
  const entry = await buildCommonJsEntry(outdir);
  return {
    inputs: { ...result.metafile.inputs, ...script.inputs, ...entry.inputs },
    outputs: { ...result.metafile.outputs, ...script.outputs, ...entry.outputs },
  };
}

/** The installed command (package.json `bin`), a CommonJS script (src/cli/bin-cjs.ts). */
export const BIN = "taleforge.cjs";

/**
 * src/cli/bin-cjs.ts as one CommonJS script, dist/taleforge.cjs: `--version`,
 * and `check` and `lint` through the fast start, without Node's ES module
 * loader; any other command line goes on to dist/taleforge.js.
 */
async function buildCommonJsEntry(outdir: string): Promise<Metafile> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ["src/cli/bin-cjs.ts"],
    outfile: join(outdir, BIN),
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    external: EXTERNAL,
    define: { TALEFORGE_VERSION: JSON.stringify(VERSION) },
    banner: { js: "#!/usr/bin/env node" },
    sourcemap: false,
    metafile: true,
    logLevel: "warning",
  });
  chmodSync(join(outdir, BIN), 0o755);
  return result.metafile;
}

/**
 * `check` and `lint` (src/cli/check-cli.ts) as one classic script: esbuild's
 * CommonJS output inside a function expression, which src/cli/fast-start.ts
 * compiles with node:vm (a classic script can use V8's code cache; an ES
 * module cannot, in Node 20) and calls with `module`, `exports`, `require`
 * and the script's own URL in place of `import.meta.url`.
 */
async function buildFastStartScript(outdir: string): Promise<Metafile> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ["src/cli/check-cli.ts"],
    outfile: join(outdir, FAST_SCRIPT),
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    external: EXTERNAL,
    mainFields: ["module", "main"],
    plugins: [
      lazySchemas(),
      sourceUrls(outdir),
      englishOnly,
      lazyChildProcess,
      re2jsFoldOnDemand,
      lazyAcornUnicodeData,
    ],
    define: { "import.meta.url": "__tfImportMetaUrl" },
    banner: { js: "(function (module, exports, require, __tfImportMetaUrl) {" },
    footer: { js: "})" },
    sourcemap: false,
    metafile: true,
    logLevel: "warning",
  });
  asciiOnly(join(outdir, FAST_SCRIPT));
  namespacesOnInit(join(outdir, FAST_SCRIPT));
  return result.metafile;
}

/**
 * esbuild gives a module that is started lazily (`__esm`) its namespace object at the top level of
 * the script: `__export` defines one getter per export there, when the script runs, whether the
 * module ever starts or not. zod's namespaces hold some 1,000 exports, and a check of a valid world
 * never starts zod (lazySchemas): defining their getters was about 10 M instructions of every check
 * (docs/benchmarks.md, issue 38). Each such `__export` call is moved to the start of its module's
 * lazy start, which every user of the namespace calls first (esbuild's own rule for lazy modules).
 * A namespace whose module has no lazy start before the next module stays where it is.
 */
function namespacesOnInit(file: string): void {
  const text = readFileSync(file, "utf8");
  const exportCall = /var (\w+) = \{\};\n(__export\(\1, \{\n(?: {2}.*\n)*?\}\);\n)/g;
  const lazyStart = /var init_\w+ = __esm\(\{\n {2}"[^"\n]+"\(\) \{\n/g;
  const moduleComment = /\n\/\/ (?:node_modules|src)\//g;
  let out = "";
  let from = 0;
  for (const match of text.matchAll(exportCall)) {
    const after = match.index + match[0].length;
    lazyStart.lastIndex = after;
    moduleComment.lastIndex = after;
    const start = lazyStart.exec(text);
    const next = moduleComment.exec(text);
    if (!start || (next && next.index < start.index)) continue;
    const body = start.index + start[0].length;
    const call = match[2]!;
    out += `${text.slice(from, match.index)}var ${match[1]} = {};\n${text.slice(after, body)}${call}`;
    from = body;
  }
  out += text.slice(from);
  if (out !== text) writeFileSync(file, out);
}

/**
 * esbuild writes strings, regular expressions and names in ASCII but keeps
 * comments as they are, and a few comments of the bundle (commander's, ours)
 * hold a dash or an ellipsis. One character past ASCII made V8 hold the whole
 * 1.7 MB script as a two-byte string, decoded from UTF-8 on every run (31 M
 * instructions for the decoding alone; docs/benchmarks.md, issue 13, eighth
 * pass). Each such character
 * is written as its \u escape, which means the same character wherever
 * esbuild leaves one (strings, regular expressions, names, comments).
 */
function asciiOnly(file: string): void {
  const text = readFileSync(file, "utf8");
  // A line separator ends a line comment: as an escape it would not, so it is refused, not guessed at.
  if (/[\u2028\u2029]/.test(text))
    throw new Error(`${file}: a line or paragraph separator esbuild left as is`);
  const ascii = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (ascii !== text) writeFileSync(file, ascii);
}

/**
 * Trigger scripts of the kinds worlds hold, beyond the example world's three, added to the flawed
 * copy of it below: parsing and analysing them compiles the parts of acorn (and of the script
 * rules) that those three never reach, such as the checking of a regular expression literal.
 * A script whose functions were not in the cache cost a check 3-5 M instructions to compile them.
 * One fails to parse and one returns at the top level, for the diagnostics of both.
 */
export const CACHE_SAMPLE_SCRIPTS = [
  'if (/storm|thunder/i.test(check({ type: "story-text" }))) {\n  storage.oath_sworn = true;\n} else {\n  skip = true;\n}',
  "const count = (storage.visits ?? 0) + 1;\nstorage.visits = count;\nif (count % 3 !== 0) skip = true;",
  'const levels = check({ type: "player-level" });\nconst best = Math.max(0, ...Object.values(levels));\nif (best >= 5) effects.push({ type: "story", instruction: "The veterans nod." });',
  'log("checking wits");\nif (info.engineVersion < 33) skip = true;',
  "if (storage.ready {\n  skip = true;\n}",
  "if (!storage.ready) return;\nstorage.ready = false;",
];

/**
 * Runs the script once on the example world and on a copy of it with a
 * warning, an error and the scripts above (every format, check and lint, a file and stdin), so
 * that the functions a check runs are compiled, then writes V8's code cache
 * of it beside it. This runs in a Node process of its own, the Node that
 * builds the package and will run it (npm ci runs `prepare`).
 */
function writeFastStartCache(outdir: string): void {
  const example = join(ROOT, "examples", "harbor.world.json");
  const world = JSON.parse(readFileSync(example, "utf8")) as Record<string, unknown>;
  // An unknown field in every NPC (warnings with positions and code frames) and a wrong type (an error).
  const npcs = Object.fromEntries(
    Object.entries(world.npcs as Record<string, object>).map(([key, npc]) => [
      key,
      { ...npc, mood: "restless" },
    ]),
  );
  const triggers = { ...(world.triggers as Record<string, object>), ...sampleTriggers(world) };
  const flawed = JSON.stringify({ ...world, npcs, triggers, narratorStyle: 42 }, null, 2);
  const runs: { argv: string[]; stdin?: string }[] = [];
  for (const command of ["check", "lint"])
    for (const format of ["stylish", "json", "sarif"]) {
      runs.push({ argv: [command, "--format", format, example] });
      runs.push({ argv: [command, "--format", format, "-"], stdin: flawed });
    }
  const code = `import { readFileSync } from "node:fs";
import { writeFastStartCache } from ${JSON.stringify(pathToFileURL(join(outdir, "fast-start.js")).href)};
const runs = JSON.parse(readFileSync(0, "utf8"));
await writeFastStartCache(new URL(${JSON.stringify(pathToFileURL(join(outdir, FAST_SCRIPT)).href)}), runs);`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    input: JSON.stringify(runs),
    cwd: ROOT,
    encoding: "utf8",
  });
  if (result.status !== 0)
    throw new Error(`could not write the code cache of ${FAST_SCRIPT}: ${result.stderr}`);
}

/** One trigger per sample script, each a copy of the example world's first scripted trigger. */
function sampleTriggers(world: Record<string, unknown>): Record<string, object> {
  const scripted = Object.values(world.triggers as Record<string, { script?: unknown }>).find(
    (trigger) => typeof trigger.script === "string",
  );
  if (!scripted) throw new Error("the example world has no scripted trigger to copy for the code cache");
  return Object.fromEntries(
    CACHE_SAMPLE_SCRIPTS.map((script, i) => [
      `cache_sample_${i}`,
      { ...scripted, name: `cache_sample_${i}`, script },
    ]),
  );
}

/**
 * The browser app (web/, Preact) built by Vite into `outdir`, which the server
 * serves at `/`. Vite and Preact are development dependencies: the package
 * ships the built files, so an install of the package needs neither.
 */
export async function buildWeb(outdir: string): Promise<void> {
  const { build: vite } = await import("vite");
  await vite({
    configFile: false,
    root: join(ROOT, "web"),
    base: "/",
    logLevel: "warn",
    oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
    build: {
      outDir: outdir,
      emptyOutDir: true,
      target: "es2022",
      sourcemap: false,
      // One small app: hashed file names let the server cache them for a year.
      assetsDir: "assets",
      reportCompressedSize: false,
    },
  });
}

/** The library's .d.ts files, for TypeScript consumers. */
export function buildTypes(outdir: string): void {
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const result = spawnSync(
    process.execPath,
    [tsc, "-p", join(ROOT, "tsconfig.build.json"), "--outDir", join(outdir, "types")],
    { stdio: "inherit" },
  );
  if (result.status !== 0) throw new Error("tsc could not emit the type declarations (see above).");
  rewriteSpecifiers(join(outdir, "types"));
}

/**
 * The sources import each other as `./x.ts`, which tsc keeps in declarations;
 * a consumer's TypeScript resolves `./x.js` to the `./x.d.ts` beside it
 * without any option, so the declarations say `.js`.
 */
function rewriteSpecifiers(dir: string): void {
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!name.endsWith(".d.ts")) continue;
    const file = join(dir, name);
    const text = readFileSync(file, "utf8");
    const rewritten = text.replace(
      /((?:from|import)\s*\(?\s*)(["'])(\.{1,2}\/[^"']*?)\.ts\2/g,
      "$1$2$3.js$2",
    );
    if (rewritten !== text) writeFileSync(file, rewritten);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const outdir = resolve(ROOT, args.find((a) => !a.startsWith("--")) ?? "dist");
  // Until this build has finished, dist/ is not a build of the current sources (scripts/prepare.mjs).
  rmSync(join(outdir, "build-stamp"), { force: true });
  await buildJavaScript(outdir);
  if (!args.includes("--no-web")) await buildWeb(join(outdir, "web"));
  if (!args.includes("--no-types")) buildTypes(outdir);
  if (!args.includes("--no-web") && !args.includes("--no-types")) writeStamp(outdir);
}
