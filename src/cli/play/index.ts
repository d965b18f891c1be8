import { homedir } from "node:os";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type CassetteHeader,
  openCassetteWriter,
  readCassette,
} from "../../ai/cassette.ts";
import { resolveProviderConfig } from "../../ai/config.ts";
import { isAiError } from "../../ai/errors.ts";
import { createProvider } from "../../ai/index.ts";
import type { Provider } from "../../ai/provider.ts";
import { Replay, recordProvider } from "../../ai/recorded.ts";
import { painter, plural } from "../../author/paint.ts";
import { isEngineError } from "../../engine/errors.ts";
import { chooseStoryStart } from "../../engine/options.ts";
import { worldHash } from "../../engine/save.ts";
import { Game, type GameSetup } from "../../host/game.ts";
import { createSandbox } from "../../sandbox/index.ts";
import { readCheckedWorld } from "../../world/checked-file.ts";
import { countByCode, formatCodeCount, formatPosition } from "../../world/diagnostic.ts";
import type { World } from "../../world/schema/index.ts";
import { blockingErrors, runnableWorld } from "../../world/validate.ts";
import { EXIT_PROBLEMS, fail, reasonOf } from "../exit.ts";
import { type CliIo, wantsColor } from "../io.ts";
import { readSaveText, saveTargetProblem } from "../save-file.ts";
import { askPlayers, askStoryStart } from "./creation.ts";
import { lineSource } from "./lines.ts";
import { proseWriter, runLoop } from "./loop.ts";
import { chooseGameMode, type PlayFlags, parsePlayers, parseSeed, UsageError } from "./options.ts";
import { describePlace, resumedNote, turnWords } from "./views.ts";

/**
 * `taleforge play [world]`: a game in the terminal. Sets everything up (the
 * world, the provider, a cassette, the sandbox, the players), then hands over
 * to the loop. Returns 0 when the game ends normally, 1 when the world has
 * errors or a replay diverges, 2 when the game could not start.
 */
export async function play(given: string | undefined, flags: PlayFlags, io: CliIo): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  // Without a world, the example that ships with Taleforge, wherever the command runs from.
  const file = given ?? relative(cwd, EXAMPLE_WORLD);
  const color = wantsColor(io);
  const paint = painter(color);
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

  const world = await loadChecked(resolve(cwd, file), file, io);
  if (typeof world === "number") return world;

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

  let provider: Provider;
  try {
    if (replay) provider = replay.provider;
    else {
      const config = await resolveProviderConfig({ flags, env: io.env, cwd, home: homedir() });
      provider = createProvider(world, config, { gameMode });
    }
  } catch (error) {
    return fail(io, reasonOf(error));
  }

  const lines = lineSource(io);
  // Ask at a terminal what the command line left open (never when replaying, resuming or piping).
  if (lines.interactive && !replay && setup.load === undefined) {
    // Lists of starts, characters and traits are word-wrapped at a terminal like the story (never mid-word).
    const out = (text: string) => {
      const writer = proseWriter({ io, lines });
      writer.push(text);
      writer.end();
    };
    if (setup.storyStart === undefined) {
      const start = await askStoryStart(world, lines, out, paint);
      if (start !== undefined) setup.storyStart = start;
    }
    if (
      setup.players === undefined &&
      world.premadeCharacters.length + Object.keys(world.traitCategories).length > 0
    ) {
      const asked = await askPlayers(world, lines, out, paint);
      if (asked === undefined) {
        lines.close();
        return 0;
      }
      setup.players = asked;
    }
  }

  let recording: ReturnType<typeof recordProvider> | undefined;
  if (flags.record) {
    try {
      const header: CassetteHeader = {
        format: CASSETTE_FORMAT,
        version: CASSETTE_VERSION,
        provider: provider.name,
        model: provider.model,
        embeddings: typeof provider.embed === "function",
        setup: {
          worldHash: worldHash(world),
          ...(JSON.parse(JSON.stringify(setup)) as Record<string, never>),
        },
        ...(provider.sampling ? { sampling: provider.sampling() } : {}),
      };
      recording = recordProvider(provider, openCassetteWriter(resolve(cwd, flags.record), header));
      provider = recording;
    } catch (error) {
      lines.close();
      return fail(io, reasonOf(error));
    }
  }

  const sandbox = createSandbox();
  sandbox.warm((problem) => io.stderr(`\ntaleforge: ${problem}\n`));
  try {
    io.stdout(
      `${paint("gray", `Taleforge · ${file} · ${setup.load !== undefined ? "resumed game" : startName(world, setup.storyStart)} · ${provider.name === "offline" ? "offline narrator" : `${provider.name} ${provider.model}`}`)}\n`,
    );
    io.stdout(paint("gray", "Type /help for commands.\n\n"));
    let game: Game;
    const opening = proseWriter({ io, lines });
    try {
      game = await Game.start(world, { ai: provider, scripts: sandbox }, setup, recording, {
        onChunk: (text) => opening.push(text),
      });
    } catch (error) {
      return startFailure(io, error);
    } finally {
      opening.end();
    }
    if (setup.load !== undefined) {
      const state = game.session.state;
      io.stdout(`Resumed at ${turnWords(state.tick)}, at ${describePlace(state.position)}.\n`);
      io.stdout(resumedNote(game.session.resumed, paint));
      // Resumed without --save: progress goes back to the file it came from, and the player is told so.
      if (!flags.save && flags.load)
        io.stdout(
          paint(
            "gray",
            `Your progress is saved to ${flags.load} after every turn (--save FILE saves elsewhere).\n`,
          ),
        );
      const last = proseWriter({ io, lines });
      last.push(state.history.story.at(-1)?.text ?? "");
      last.end();
      io.stdout("\n");
    } else io.stdout("\n");
    return await runLoop({
      game,
      world,
      io,
      paint,
      color,
      lines,
      replay,
      provider,
      savePath: flags.save ?? (replay ? undefined : flags.load),
      showTrace: flags.trace === true,
      cwd,
    });
  } finally {
    lines.close();
    await sandbox.close();
    await provider.close();
  }
}

/** The name of the story start the game will open with (the engine's own choice when none is given). */
function startName(world: World, wanted: string | undefined): string {
  try {
    const key = chooseStoryStart(world, wanted);
    return world.storyStarts[key]?.name || key;
  } catch {
    return wanted ?? "default start";
  }
}

const EXAMPLE_WORLD = fileURLToPath(new URL("../../../examples/harbor.world.json", import.meta.url));

/** The world, validated; or the exit code after saying why it cannot be played. */
async function loadChecked(path: string, shown: string, io: CliIo): Promise<World | number> {
  const read = await readCheckedWorld(path);
  if (!read.ok) return fail(io, read.unreadable.message.replace(path, shown));
  const errors = read.checked.diagnostics.filter((d) => d.severity === "error");
  const runnable = runnableWorld(read.loaded, read.checked);
  if (runnable) {
    // Rule errors leave a playable world (a quest that never starts, a stray reference): say so, then play.
    if (errors.length > 0)
      io.stderr(
        `taleforge play: ${shown} has ${plural(errors.length, "error")} (${countCodes(errors)}); playing anyway, but they may break the story. Run "taleforge check ${shown}" for the details.\n`,
      );
    return runnable;
  }
  // Only what blocks play is named as the reason; rule errors are counted after (docs/cli.md: they do not block).
  const blocking = blockingErrors(read.checked);
  const others = errors.length - blocking.length;
  const shownErrors = blocking
    .slice(0, 5)
    .map((d) => `  ${formatPosition(shown, d)}  ${d.code}  ${d.message}`);
  io.stderr(
    [
      `taleforge play: ${shown} has ${plural(blocking.length, "error")} that ${blocking.length === 1 ? "makes" : "make"} it impossible to play:`,
      ...shownErrors,
      ...(blocking.length > 5 ? [`  ... and ${blocking.length - 5} more.`] : []),
      ...(others > 0
        ? [
            `It also has ${plural(others, "rule error")} (${countCodes(errors.filter((d) => !blocking.includes(d)))}), which would not block play on their own.`,
          ]
        : []),
      `Run "taleforge check ${shown}" for the full report.`,
      "",
    ].join("\n"),
  );
  return EXIT_PROBLEMS;
}

/** "quest/no-init-trigger ×4, keys/name-mismatch": the codes of some diagnostics, counted. */
function countCodes(diagnostics: readonly { code: string }[]): string {
  return [...countByCode(diagnostics)].map(([code, n]) => formatCodeCount(code, n)).join(", ");
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

function startFailure(io: CliIo, error: unknown): number {
  if (isEngineError(error) || isAiError(error)) return fail(io, `the game could not start: ${error.message}`);
  return fail(io, `the game could not start: ${reasonOf(error)}. This is a Taleforge bug: please report it.`);
}
