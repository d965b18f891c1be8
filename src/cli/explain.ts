import { createOfflineProvider } from "../ai/offline/index.ts";
import type { TurnInput, TurnResult } from "../engine/index.ts";
import {
  type EngineErrorCode,
  isEngineError,
  restoreSession,
  type Session,
  setOwn,
} from "../engine/index.ts";
import { INTENTS, type Intent } from "../engine/ports.ts";
import { formatTrace } from "../host/trace.ts";
import { createSandbox } from "../sandbox/index.ts";
import { isSpecialFile, readCheckedWorld } from "../world/checked-file.ts";
import { formatPath, formatPosition } from "../world/diagnostic.ts";
import type { World } from "../world/schema/index.ts";
import { didYouMean } from "../world/suggest.ts";
import { runnableWorld } from "../world/validate.ts";
import { EXIT_OK, EXIT_PROBLEMS, fail, reasonOf } from "./exit.ts";
import { type CliIo, wantsColor } from "./io.ts";
import { readSaveText } from "./save-file.ts";

export interface ExplainOptions {
  save?: string;
  act?: string;
  player?: string;
  intent?: string;
  target?: string;
  story?: string;
  /** `trigger=true|false`, repeatable. */
  judge?: string[];
  /** text (default) or json. */
  format?: string;
}

/**
 * `taleforge explain <world> --save <file> --act "..."`: plays one turn on a
 * saved game with the offline provider and the real sandbox, prints its
 * trace, and saves nothing. Exit codes: 0 the turn ran; 1 an input file is
 * the problem (the world has errors, the save is damaged or of another
 * world); 2 it could not run (bad option, unknown player or judge trigger,
 * missing or unreadable file).
 */
export async function explain(worldFile: string, options: ExplainOptions, io: CliIo): Promise<number> {
  const format = options.format ?? "text";
  if (format !== "text" && format !== "json")
    return fail(io, `unknown format "${format}". Use --format text or json.`);
  if (options.save === undefined) return fail(io, "--save <file> is required: the saved game to start from.");
  if (options.act === undefined) return fail(io, '--act "<text>" is required: the player\'s action.');
  const pins = parsePins(options);
  if (typeof pins === "string") return fail(io, pins);

  for (const [what, file] of [
    ["world", worldFile],
    ["save", options.save],
  ] as const) {
    if (await isSpecialFile(file)) return fail(io, `the ${what} ${file} is not a regular file.`);
  }
  const world = await readWorld(worldFile);
  if ("exit" in world) return report(io, world);
  let saveText: string;
  try {
    saveText = await readSaveText(options.save);
  } catch (error) {
    return fail(io, `cannot read the save ${options.save}: ${reasonOf(error)}. Check the path.`);
  }

  const ai = createOfflineProvider(world.world, { gameMode: null });
  const sandbox = createSandbox();
  try {
    let session: Session;
    try {
      session = await restoreSession(world.world, saveText, { ai, scripts: sandbox, validate: false });
    } catch (error) {
      return report(io, engineFailure(error, `the save ${options.save}`));
    }
    // A save of an edited world: say what changed that matters, on stderr (stdout may be JSON).
    for (const warning of session.resumed?.warnings ?? [])
      io.stderr(`taleforge explain: the world changed since this save: ${warning}\n`);
    const before = session.state;
    const players = before.party.filter((c) => c.kind === "player").map((c) => c.name);
    const player = options.player ?? players[0];
    if (player === undefined || !players.includes(player))
      return fail(
        io,
        `no player "${options.player}" in this save.${didYouMean(options.player ?? "", players)} Players: ${players.map((p) => `"${p}"`).join(", ")}.`,
      );
    let result: TurnResult;
    try {
      const input: TurnInput = { actions: [{ player, text: options.act }] };
      if (Object.keys(pins).length > 0) input.pins = pins;
      result = await session.turn(input);
    } catch (error) {
      return report(io, engineFailure(error, "the turn"));
    }
    // The session is dropped here: nothing is written back to the save.
    io.stdout(
      format === "json"
        ? `${JSON.stringify(result, null, 2)}\n`
        : explainText(result, options.save, wantsColor(io)),
    );
    return EXIT_OK;
  } finally {
    await sandbox.close();
    await ai.close();
  }
}

function explainText(result: TurnResult, save: string, color: boolean): string {
  const head = `Dry run of turn ${result.tick} from ${save} (nothing is saved)\n\nStory\n${indent(result.story)}\n\n`;
  return head + formatTrace(result, { color, verbose: true });
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? "" : `  ${line}`))
    .join("\n");
}

/** The pins of the options, or a message saying what is wrong with them. */
function parsePins(options: ExplainOptions): NonNullable<TurnInput["pins"]> | string {
  const pins: NonNullable<TurnInput["pins"]> = {};
  if (options.target !== undefined && options.intent === undefined)
    return "--target pins the target of a pinned intent: add --intent (travel, move, fastTravel or teleport).";
  if (options.intent !== undefined) {
    if (!(INTENTS as readonly string[]).includes(options.intent))
      return `unknown intent "${options.intent}".${didYouMean(options.intent, INTENTS)} Intents: ${INTENTS.join(", ")}.`;
    const intent = options.intent as Intent;
    pins.intent = options.target !== undefined ? { intent, target: options.target } : { intent };
  }
  if (options.story !== undefined) pins.story = options.story;
  for (const entry of options.judge ?? []) {
    const match = /^(.+)=(true|false)$/s.exec(entry);
    if (!match) return `bad --judge "${entry}": write trigger=true or trigger=false (the trigger's key).`;
    pins.judge ??= {};
    setOwn(pins.judge, match[1]!, match[2] === "true");
  }
  return pins;
}

type Outcome = { exit: number; message: string };

async function readWorld(file: string): Promise<{ world: World } | Outcome> {
  try {
    const read = await readCheckedWorld(file);
    if (!read.ok) return { exit: 2, message: read.unreadable.message };
    const { loaded, checked } = read;
    // As `play` does: a world whose errors all come from rules is sound enough to run (its saves exist).
    const runnable = runnableWorld(loaded, checked);
    if (runnable) return { world: runnable };
    const first = checked.diagnostics.find((d) => d.severity === "error");
    const where = first ? (first.line !== null ? formatPosition(file, first) : formatPath(first.path)) : file;
    return {
      exit: 1,
      message: `the world ${file} has ${checked.errorCount} error${checked.errorCount === 1 ? "" : "s"} (first: ${where} ${first?.message ?? ""}). Run "taleforge check ${file}" and fix them.`,
    };
  } catch (error) {
    return { exit: 2, message: `could not read ${file}: ${reasonOf(error)}.` };
  }
}

/** Save and turn errors: the save file is the problem (1), or the options are (2). */
const FILE_PROBLEMS: readonly EngineErrorCode[] = [
  "save/malformed",
  "save/future-version",
  "save/world-mismatch",
  "save/inconsistent",
  "world/invalid",
];

function engineFailure(error: unknown, what: string): Outcome {
  if (isEngineError(error)) {
    const exit = FILE_PROBLEMS.includes(error.code) ? EXIT_PROBLEMS : 2;
    return { exit, message: `${what} cannot be played: ${error.message} (${error.code})` };
  }
  return {
    exit: 2,
    message: `${what} failed: ${reasonOf(error)}. This is a Taleforge bug: please report it.`,
  };
}

/** One line on stderr, whatever the exit code. */
function report(io: CliIo, outcome: Outcome): number {
  io.stderr(`taleforge: ${outcome.message.replace(/\s*\n\s*/g, " ")}\n`);
  return outcome.exit;
}
