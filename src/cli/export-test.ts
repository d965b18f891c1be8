import { readFile, stat } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { AiError } from "../ai/errors.ts";
import { exportPlaytest } from "../author/playtest/export.ts";
import { ExportError, recordFromText } from "../author/playtest/record.ts";
import { readCheckedWorld } from "../world/checked-file.ts";
import { runnableWorld } from "../world/validate.ts";
import { EXIT_OK, EXIT_PROBLEMS, fail, reasonOf } from "./exit.ts";
import type { CliIo } from "./io.ts";
import { writeSaveFile } from "./save-file.ts";

export interface ExportTestOptions {
  output?: string;
  world?: string;
  fromTurn?: string;
  toTurn?: string;
  loose?: boolean;
  force?: boolean;
}

const EXAMPLE_WORLD = fileURLToPath(new URL("../../examples/harbor.world.json", import.meta.url));

/** The largest save or cassette read: a long game's cassette with every prompt is a few tens of MiB. */
const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/**
 * `taleforge export-test <game>`: the game of a cassette or save, replayed on
 * its world, written as a play-test (src/author/playtest/export.ts). 0 when
 * written, 1 when the game cannot become a play-test of this world, 2 when
 * the command could not run.
 */
export async function exportTest(game: string, options: ExportTestOptions, io: CliIo): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  let fromTurn: number | undefined;
  let toTurn: number | undefined;
  try {
    fromTurn = turnOption("--from-turn", options.fromTurn);
    toTurn = turnOption("--to-turn", options.toTurn);
  } catch (error) {
    return fail(io, reasonOf(error));
  }
  const gamePath = resolve(cwd, game);
  const worldPath = options.world !== undefined ? resolve(cwd, options.world) : EXAMPLE_WORLD;
  const outPath = options.output !== undefined ? resolve(cwd, options.output) : undefined;
  if (outPath !== undefined && options.force !== true && (await stat(outPath).catch(() => null)) !== null)
    return fail(io, `${options.output} already exists. Pick another name, or pass --force to overwrite it.`);

  let text: string;
  try {
    const info = await stat(gamePath);
    if (!info.isFile()) return fail(io, `${game} is not a file: give a cassette or a save.`);
    if (info.size > MAX_INPUT_BYTES)
      return fail(
        io,
        `${game} is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB: is it a save or a cassette?`,
      );
    text = await readFile(gamePath, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(
      io,
      code === "ENOENT"
        ? `no file ${game}. Give a cassette (play --record) or a save (play --save).`
        : `cannot read ${game}: ${reasonOf(error)}.`,
    );
  }
  const shownWorld = options.world ?? relative(cwd, worldPath);
  const read = await readCheckedWorld(worldPath);
  if (!read.ok) return fail(io, read.unreadable.message.replace(worldPath, shownWorld));
  const world = runnableWorld(read.loaded, read.checked);
  if (!world) {
    io.stderr(
      `taleforge: ${shownWorld} has errors that make it impossible to play, so no game of it can be exported. Run "taleforge check ${shownWorld}".\n`,
    );
    return EXIT_PROBLEMS;
  }

  const { createSandbox } = await import("../sandbox/index.ts");
  const scripts = createSandbox();
  try {
    const record = await recordFromText(world, text, scripts, game);
    const base = outPath !== undefined ? dirname(outPath) : cwd;
    const exported = exportPlaytest(record, {
      world: worldReference(base, worldPath),
      source: game,
      ...(fromTurn !== undefined ? { fromTurn } : {}),
      ...(toTurn !== undefined ? { toTurn } : {}),
      ...(options.loose === true ? { loose: true } : {}),
    });
    if (outPath === undefined) {
      io.stdout(exported.text);
      return EXIT_OK;
    }
    const problem = await writeSaveFile(outPath, exported.text);
    if (problem !== null) return fail(io, `cannot write ${options.output}: ${problem}`);
    const turns = exported.steps.filter((s) => s.kind === "turn");
    const checked = turns.filter((s) => s.checked).length;
    const shownOut = relative(cwd, outPath) || outPath;
    io.stderr(
      `Wrote ${shownOut}: ${turns.length} turn${turns.length === 1 ? "" : "s"}${checked < turns.length ? ` (${checked} checked)` : ""}${options.loose ? ", final expectations only" : ""}.\nRun it: taleforge test ${shownOut}\n`,
    );
    return EXIT_OK;
  } catch (error) {
    if (error instanceof ExportError) {
      io.stderr(`taleforge: ${error.message} (${error.code})\n`);
      return EXIT_PROBLEMS;
    }
    if (error instanceof AiError) return fail(io, `${error.message}`);
    throw error;
  } finally {
    await scripts.close();
  }
}

/** A turn number option: a whole number from 1. */
function turnOption(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new Error(`${flag} must be a turn number (1 or more), not "${value}".`);
  return n;
}

/** The world as the play-test names it: relative to the play-test's folder, with forward slashes. */
function worldReference(base: string, worldPath: string): string {
  const rel = relative(base, worldPath);
  if (rel === "" || isAbsolute(rel)) return worldPath;
  return rel.split(sep).join("/");
}
