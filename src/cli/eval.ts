import { readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import {
  casesFromPlaytests,
  formatEval,
  judgedConditions,
  MAX_SAMPLES,
  playtestsNear,
  runEval,
  type SourcedCase,
  starterCases,
  starterFile,
} from "../author/eval/index.ts";
import { parseCases } from "../author/playtest/cases.ts";
import { display } from "../author/playtest/run.ts";
import { readCheckedWorld } from "../world/checked-file.ts";
import { formatPosition } from "../world/diagnostic.ts";
import { runnableWorld } from "../world/validate.ts";
import { EXIT_OK, EXIT_PROBLEMS, fail, reasonOf } from "./exit.ts";
import type { CliIo } from "./io.ts";

export interface EvalCliOptions {
  init?: boolean;
  force?: boolean;
  format?: string;
  samples?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  timeout?: string;
  contextTokens?: string;
  config?: string;
}

/**
 * `taleforge eval <world> [cases]`: the labelled cases (a file, or the
 * play-tests near the world and the starter set) through the judge of the
 * chosen provider, reported per condition (src/author/eval/).
 */
export async function evalCommand(
  worldFile: string,
  casesFile: string | undefined,
  options: EvalCliOptions,
  io: CliIo,
): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  const show = (path: string) => display(path, cwd);
  const format = options.format ?? "text";
  if (format !== "text" && format !== "json") return fail(io, `bad --format "${format}": use text or json.`);
  const samples = Number(options.samples ?? "3");
  if (!Number.isInteger(samples) || samples < 1 || samples > MAX_SAMPLES)
    return fail(io, `--samples must be a whole number from 1 to ${MAX_SAMPLES}, not "${options.samples}".`);

  const worldPath = resolve(cwd, worldFile);
  const read = await readCheckedWorld(worldPath);
  if (!read.ok) return fail(io, read.unreadable.message);
  const world = runnableWorld(read.loaded, read.checked);
  if (!world) {
    io.stderr(
      `taleforge: ${worldFile} has errors that keep it from running. Run "taleforge check ${worldFile}".\n`,
    );
    return EXIT_PROBLEMS;
  }
  if (judgedConditions(world).length === 0) {
    io.stderr(
      `taleforge: ${worldFile} has no AI-judged condition (story or action): there is nothing to measure.\n`,
    );
    return EXIT_PROBLEMS;
  }

  if (options.init) {
    const target = casesFile
      ? resolve(cwd, casesFile)
      : join(dirname(worldPath), `${basename(worldPath).replace(/(\.world)?\.json$/i, "")}.cases.yaml`);
    const text = starterFile(world, relative(dirname(target), worldPath).split("\\").join("/"));
    try {
      await writeFile(target, text, { flag: options.force ? "w" : "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST")
        return fail(
          io,
          `${show(target)} already exists. Pass --force to overwrite it, or give another file.`,
        );
      return fail(io, `cannot write ${show(target)}: ${reasonOf(error)}.`);
    }
    const count = starterCases(world).length;
    io.stdout(
      `Wrote ${show(target)}: ${count} starter cases for ${judgedConditions(world).length} AI-judged conditions. Correct them, then: taleforge eval ${show(worldPath)} ${show(target)}\n`,
    );
    return EXIT_OK;
  }

  let cases: SourcedCase[];
  if (casesFile !== undefined) {
    const path = resolve(cwd, casesFile);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      return fail(io, `cannot read ${casesFile}: ${reasonOf(error)}.`);
    }
    const parsed = parseCases(text, show(path));
    if (parsed.problems.length > 0) {
      for (const p of parsed.problems)
        io.stderr(
          `${formatPosition(show(path), { line: p.line, column: p.column })}  ${p.code}  ${p.message}\n`,
        );
      return EXIT_PROBLEMS;
    }
    cases = parsed.cases.map((c, i) => ({ ...c, source: `${show(path)} case ${i + 1}` }));
  } else {
    const fromTests = await casesFromPlaytests(world, worldPath, await playtestsNear(worldPath), show);
    cases = [...fromTests, ...starterCases(world)];
  }

  let provider: Awaited<ReturnType<typeof import("../ai/index.ts")["createProvider"]>>;
  try {
    const { resolveProviderConfig } = await import("../ai/config.ts");
    const { createProvider } = await import("../ai/index.ts");
    const config = await resolveProviderConfig({ flags: options, env: io.env, cwd, home: homedir() });
    provider = createProvider(world, config, { gameMode: null });
  } catch (error) {
    return fail(io, reasonOf(error));
  }
  try {
    const report = await runEval(world, cases, provider, { samples });
    io.stdout(
      format === "json"
        ? `${JSON.stringify({ world: show(worldPath), ...report }, null, 2)}\n`
        : formatEval(report, show(worldPath)),
    );
    return EXIT_OK;
  } finally {
    await provider.close();
  }
}
