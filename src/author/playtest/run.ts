import { dirname, isAbsolute, relative, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import type { AiPorts, ScriptRunner } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import type { SourceFile } from "../../world/source.ts";
import { CoverageCollector, type WorldCoverage } from "./coverage.ts";
import { type LoadedPlaytest, readPlaytest, sortProblems } from "./load.ts";
import { checkNames } from "./names.ts";
import { failureAt, type Problem, type TestFailure } from "./problem.ts";
import { runTest } from "./test-run.ts";
import { WorldCache } from "./worlds.ts";

/** The AI of one play-test: the offline provider, or (in unit tests) an in-test one. */
export type AiFactory = (
  world: World,
  options: { gameMode: string | null },
) => (AiPorts & { close?(): Promise<void> }) | Promise<AiPorts & { close?(): Promise<void> }>;

export interface RunOptions {
  /** Makes each test's AI; the offline provider by default. */
  ai?: AiFactory;
  /** The script runner shared by every test; by default a real sandbox, created on first use and closed at the end. */
  scripts?: ScriptRunner;
  /** File names in reports are relative to this folder (default: process.cwd()). */
  cwd?: string;
  /** Refuse a world with any error; by default a world whose errors all come from rules runs, as in `play`. */
  strict?: boolean;
}

export interface TestResult {
  name: string;
  passed: boolean;
  failures: TestFailure[];
  /** Steps in the test, and steps that ran (an engine error ends a test). */
  steps: number;
  ran: number;
  durationMs: number;
}

export interface FileResult {
  /** As shown: relative to the working folder. */
  file: string;
  source: SourceFile;
  /** Problems that keep the whole file from running (format, names). */
  problems: Problem[];
  tests: TestResult[];
}

export interface RunResult {
  files: FileResult[];
  coverage: WorldCoverage[];
  /** Worlds that ran despite errors (all from rules), each once, with its errors as lines: the report's heading. */
  worldErrors?: { world: string; errors: string[] }[];
}

/**
 * Runs play-test files in order: each file is read and checked, its world
 * loaded and checked once per path, its names checked against the world,
 * then each test plays in a fresh session with the offline provider (or the
 * given AI) and the shared script runner. Never throws on bad input.
 */
export async function runPlaytests(paths: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const cwd = options.cwd ?? process.cwd();
  const show = (path: string) => display(path, cwd);
  const worlds = new WorldCache(options.strict === true);
  const worldErrors: NonNullable<RunResult["worldErrors"]> = [];
  const coverage = new CoverageCollector();
  const aiFactory = options.ai ?? (await defaultAi());
  let sandbox: ScriptRunner | undefined;
  const scripts = async () => {
    if (options.scripts) return options.scripts;
    if (!sandbox) {
      const { createSandbox } = await import("../../sandbox/index.ts");
      sandbox = createSandbox();
    }
    return sandbox;
  };
  const files: FileResult[] = [];
  try {
    for (const path of paths) {
      const absolute = resolve(cwd, path);
      const loaded = await readPlaytest(absolute, show(absolute));
      files.push(await runFile(loaded, absolute));
    }
  } finally {
    await sandbox?.close();
  }
  return { files, coverage: coverage.report(), worldErrors };

  async function runFile(loaded: LoadedPlaytest, absolute: string): Promise<FileResult> {
    const base = { file: loaded.file, source: loaded.source, problems: loaded.problems, tests: [] };
    if (!loaded.spec || loaded.problems.length > 0) return base;
    const worldPath = resolve(dirname(absolute), loaded.spec.world);
    const entry = await worlds.get(worldPath, show(worldPath));
    if (!entry.ok) {
      // The file is fine; its world is not: every test fails, at `world:`.
      const failure = failureAt(loaded.locate, ["world"], entry.message, null);
      return {
        ...base,
        tests: loaded.tests.map((t) => ({
          name: t.name,
          passed: false,
          failures: [failure],
          steps: t.steps.length,
          ran: 0,
          durationMs: 0,
        })),
      };
    }
    if (entry.errors.length > 0 && !worldErrors.some((w) => w.world === show(worldPath)))
      worldErrors.push({ world: show(worldPath), errors: entry.errors });
    const problems = sortProblems(checkNames(loaded.tests, entry.index, loaded.locate));
    if (problems.length > 0) return { ...base, problems };
    coverage.addWorld(worldPath, show(worldPath), entry.index);
    const tests: TestResult[] = [];
    for (const test of loaded.tests) {
      const started = performance.now();
      const outcome = await runTest({
        test,
        world: entry.world,
        index: entry.index,
        ai: () => aiFactory(entry.world, { gameMode: test.gameMode }),
        scripts: await scripts(),
        coverage: { id: worldPath, collector: coverage },
        locate: loaded.locate,
      });
      tests.push({
        name: test.name,
        passed: outcome.failures.length === 0,
        failures: outcome.failures,
        steps: test.steps.length,
        ran: outcome.ran,
        durationMs: performance.now() - started,
      });
    }
    return { ...base, tests };
  }
}

/** The offline provider, loaded only when a run needs it. */
async function defaultAi(): Promise<AiFactory> {
  const { createOfflineProvider } = await import("../../ai/offline/index.ts");
  return (world, options) => createOfflineProvider(world, options);
}

/** A path as reports show it: relative to the working folder (absolute only on another drive), with forward slashes. */
export function display(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  const shown = rel === "" ? "." : isAbsolute(rel) ? path : rel;
  return shown.split("\\").join("/");
}

/** Counts for the closing line: a file that cannot run counts as one failed test. */
export function countResults(result: RunResult): { passed: number; failed: number } {
  let passed = 0;
  let failed = 0;
  for (const file of result.files) {
    if (file.problems.length > 0) failed++;
    for (const t of file.tests) {
      if (t.passed) passed++;
      else failed++;
    }
  }
  return { passed, failed };
}
