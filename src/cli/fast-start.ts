/**
 * The fast start of `taleforge check` and `taleforge lint` from dist/. Most of
 * what a check of a world costs as a command is V8 compiling some megabytes of
 * JavaScript, once per process: Node 20 keeps no compile cache for ES modules.
 * So scripts/build.ts also bundles check-cli.ts into one classic script,
 * dist/check-cli.cjs, runs it once on sample worlds, and writes V8's code
 * cache of it (the bytecode of every function that ran) to
 * dist/check-cli.cache. dist/taleforge.js loads the script with that cache:
 * V8 then skips parsing and compiling what it finds there. The cache holds
 * compiled code, never results: every run reads and checks the world afresh.
 *
 * A check is one short burst of work: V8's optimising compiler (TurboFan),
 * which starts on functions after a small budget of work, spent more CPU on
 * its background threads than its code gave back before the process ended
 * (about 60 ms of 300 at the caps, measured; the same at 4x). So the script
 * runs with a larger tier-up budget (FAST_V8_FLAGS): only functions that stay
 * hot get optimised. V8 flags are part of a code cache's key, so the cache is
 * made with the same flags (`load` sets them in both processes).
 *
 * A cache made by another Node (or V8 version or flags) is rejected by V8,
 * which then compiles the script as usual; without the script (the sources
 * run through tsx, or a build without it) `runFastStart` says so and the
 * caller runs main.ts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { Script } from "node:vm";
import type { CliIo } from "./io.ts";

export const FAST_SCRIPT = "check-cli.cjs";
export const FAST_CACHE = "check-cli.cache";
/**
 * V8 flags set before the script compiles, here and where its cache is made (see above). The two
 * last are about the young generation, which starts at 1 MB and doubled at each scavenge where
 * enough survived: an at-cap check went through 7 scavenges, each copying the parsed world again.
 * A growth factor of 16 takes it to its maximum (16 MB, fixed when the heap is set up) at the
 * second; without the scavenge task, V8 no longer collects on its own once 80 % of it is used
 * (late in a check, when the whole world is alive), only when it is full. The cost in memory is
 * the larger young generation actually used: about 2 MB more resident at the caps (docs/benchmarks.md).
 */
export const FAST_V8_FLAGS = "--interrupt-budget=1048576 --semi-space-growth-factor=16 --no-minor-gc-task";

/** What check-cli.ts exports, as the script gives it. */
interface FastCli {
  run(argv: readonly string[], io: CliIo): Promise<number>;
  main(): Promise<void>;
}

/**
 * The script is esbuild's CommonJS output wrapped in a function expression
 * (scripts/build.ts), so that running it only defines the function; the
 * function then runs the modules with these.
 */
type ScriptFactory = (
  module: { exports: Record<string, unknown> },
  exports: Record<string, unknown>,
  require: NodeJS.Require,
  importMetaUrl: string,
) => void;

interface Loaded {
  cli: FastCli;
  script: Script;
}

function load(scriptUrl: URL, cachedData: Buffer | undefined): Loaded | undefined {
  let source: string;
  try {
    source = readFileSync(scriptUrl, "utf8");
  } catch {
    return undefined;
  }
  // Node's own modules come with a code cache that V8 accepts only under the flags it was made
  // with: a module first loaded after FAST_V8_FLAGS are set is compiled from its source (13 M
  // instructions for those of a check, when it read its world through fs/promises: stdout's stream
  // modules are what is left). A check reads with node:fs (src/world/load.ts), already loaded.
  void process.stdout;
  setFlagsFromString(FAST_V8_FLAGS);
  const script = new Script(source, { filename: fileURLToPath(scriptUrl), cachedData });
  const factory = script.runInThisContext() as ScriptFactory;
  const module = { exports: {} as Record<string, unknown> };
  factory(module, module.exports, createRequire(scriptUrl), scriptUrl.href);
  return { cli: module.exports as unknown as FastCli, script };
}

function readCache(scriptUrl: URL): Buffer | undefined {
  try {
    return readFileSync(new URL(FAST_CACHE, scriptUrl));
  } catch {
    return undefined;
  }
}

/**
 * Runs the process's command line (one that starts with `check` or `lint`)
 * through the script at `scriptUrl`, with its code cache when there is one. False when there is no script: the caller then runs main.ts.
 */
export async function runFastStart(scriptUrl: URL): Promise<boolean> {
  const loaded = load(scriptUrl, readCache(scriptUrl));
  if (!loaded) return false;
  await loaded.cli.main();
  return true;
}

/**
 * At build time: runs the script on each command line (output discarded,
 * stdin given per line) and writes its code cache beside it. Run by
 * scripts/build.ts in a Node process of its own, the one that will run the
 * command (a cache from another Node is rejected, harmlessly).
 */
export async function writeFastStartCache(
  scriptUrl: URL,
  runs: readonly { argv: readonly string[]; stdin?: string }[],
): Promise<void> {
  const loaded = load(scriptUrl, undefined);
  if (!loaded) throw new Error(`${fileURLToPath(scriptUrl)} is missing: build it first.`);
  for (const { argv, stdin } of runs) {
    const io: CliIo = {
      stdout: () => {},
      stderr: () => {},
      isTTY: false,
      env: {},
      readStdin: async () => stdin ?? "",
      cwd: process.cwd(),
    };
    await loaded.cli.run(argv, io);
  }
  writeFileSync(new URL(FAST_CACHE, scriptUrl), loaded.script.createCachedData());
}
