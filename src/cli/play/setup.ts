import { resolve } from "node:path";
import { z } from "zod";
import { type CassetteHeader, readCassette } from "../../ai/cassette.ts";
import { Replay } from "../../ai/recorded.ts";
import { worldHash } from "../../engine/index.ts";
import type { GameSetup } from "../../host/game.ts";
import type { World } from "../../world/schema/index.ts";
import { fail, reasonOf } from "../exit.ts";
import type { CliIo } from "../io.ts";
import { readSaveText, saveTargetProblem } from "../save-file.ts";
import { chooseGameMode, type PlayFlags, parsePlayers, parseSeed, UsageError } from "./options.ts";

/** What the flags alone decide, checked before the world is read: the seed and the players. */
export interface FlagChoices {
  seed: number;
  players: GameSetup["players"];
}

/** The flags, checked (and the --save target, before a game is played into it); or the exit code. */
export async function readFlags(flags: PlayFlags, cwd: string, io: CliIo): Promise<FlagChoices | number> {
  let seed: number;
  let players: GameSetup["players"];
  try {
    seed = parseSeed(flags.seed);
    players = parsePlayers(flags);
    if (flags.replay && (flags.record || flags.load))
      throw new UsageError(
        "--replay plays a recorded game as it was; it cannot be combined with --record or --load.",
      );
  } catch (error) {
    return fail(io, reasonOf(error));
  }

  if (flags.save) {
    const problem = await saveTargetProblem(resolve(cwd, flags.save));
    if (problem !== null) return fail(io, `--save ${flags.save}: ${problem}`);
  }
  return { seed, players };
}

/** The game to start: the one a cassette recorded (--replay), or the flags' (with a saved game for --load). */
export interface ChosenSetup {
  setup: GameSetup;
  replay: Replay | null;
  gameMode: string | null;
}

/** The game to start, from the cassette or the flags; or the exit code after saying why not. */
export async function chooseSetup(
  world: World,
  flags: PlayFlags,
  choices: FlagChoices,
  cwd: string,
  io: CliIo,
): Promise<ChosenSetup | number> {
  const { seed, players } = choices;
  let gameMode: string | null;
  let replay: Replay | null = null;
  let setup: GameSetup;
  try {
    if (flags.replay) {
      replay = new Replay(readCassette(resolve(cwd, flags.replay)), flags.replay);
      setup = setupFromCassette(replay.header, world, flags.replay);
      gameMode = setup.gameMode;
    } else {
      gameMode = chooseGameMode(world, flags.mode);
      setup = {
        seed,
        gameMode,
        ...(flags.start !== undefined ? { storyStart: flags.start } : {}),
        ...(players !== undefined ? { players } : {}),
      };
      if (flags.load) setup.load = await readSaveFile(resolve(cwd, flags.load), flags.load);
    }
  } catch (error) {
    return fail(io, reasonOf(error));
  }
  return { setup, replay, gameMode };
}

async function readSaveFile(path: string, shown: string): Promise<string> {
  try {
    return await readSaveText(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === "ENOENT"
        ? `no saved game at ${shown}. Start a new game, or give the path of a file written by --save or /save.`
        : `cannot read ${shown}: ${reasonOf(error)}.`,
    );
  }
}

const CassetteSetup = z.object({
  worldHash: z.string(),
  seed: z.number(),
  gameMode: z.string().nullable(),
  storyStart: z.string().optional(),
  players: z.array(z.record(z.string(), z.unknown())).optional(),
  load: z.string().optional(),
});

/** The game a cassette recorded, refused when it was recorded on another world. */
function setupFromCassette(header: CassetteHeader, world: World, shown: string): GameSetup {
  const parsed = CassetteSetup.safeParse(header.setup);
  if (!parsed.success)
    throw new UsageError(
      `${shown} was not recorded by "taleforge play --record": its setup is missing or damaged.`,
    );
  if (parsed.data.worldHash !== worldHash(world))
    throw new UsageError(
      `${shown} was recorded on another world, or another version of this one. Replay it with the exact world file it was recorded with.`,
    );
  const { worldHash: _hash, ...setup } = parsed.data;
  return setup as GameSetup;
}
