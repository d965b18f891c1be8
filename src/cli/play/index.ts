import { unlink } from "node:fs/promises";
import { basename, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isAiError } from "../../ai/errors.ts";
import type { Provider } from "../../ai/provider.ts";
import type { recordProvider } from "../../ai/recorded.ts";
import { type Paint, painter } from "../../author/paint.ts";
import { GameRecorder } from "../../author/playtest/record.ts";
import { chooseStoryStart, isEngineError, nextStepOf } from "../../engine/index.ts";
import { Game, type GameSetup } from "../../host/game.ts";
import { cleanText } from "../../host/outside-text.ts";
import { createSandbox } from "../../sandbox/index.ts";
import type { World } from "../../world/schema/index.ts";
import { escapeControls } from "../../world/terminal-text.ts";
import { fail, reasonOf } from "../exit.ts";
import { type CliIo, wantsColor } from "../io.ts";
import { writeSaveFile } from "../save-file.ts";
import { askPlayers, askStoryStart, LeftBeforeStart } from "./creation.ts";
import { type LineSource, lineSource } from "./lines.ts";
import { proseWriter, runLoop, showPrompts } from "./loop.ts";
import type { PlayFlags } from "./options.ts";
import { PromptView } from "./prompt-view.ts";
import { openProvider, startRecording } from "./provider.ts";
import { newSavePath } from "./save-home.ts";
import { type ChosenSetup, chooseSetup, readFlags } from "./setup.ts";
import { describePlace, resumedNote, turnWords } from "./views.ts";
import { loadChecked } from "./world.ts";
import { stderrWrapped } from "./wrapper.ts";

/**
 * `taleforge play [world]`: a game in the terminal. Its steps, in order: the
 * flags (setup.ts), the world (world.ts), the game to start (setup.ts), the
 * provider or the cassette (provider.ts), then the game itself (playGame).
 * Each step either gives what the next needs or has said why not and gives
 * the exit code. Returns 0 when the game ends normally, 1 when the world has
 * errors or a replay diverges, 2 when the game could not start.
 */
export async function play(given: string | undefined, flags: PlayFlags, io: CliIo): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  // Without a world, the example that ships with Taleforge, wherever the command runs from.
  const file = given ?? relative(cwd, EXAMPLE_WORLD);
  const choices = await readFlags(flags, cwd, io);
  if (typeof choices === "number") return choices;
  const world = await loadChecked(resolve(cwd, file), file, io, flags.strict === true);
  if (typeof world === "number") return world;
  const chosen = await chooseSetup(world, flags, choices, cwd, io);
  if (typeof chosen === "number") return chosen;
  const provider = await openProvider(world, flags, chosen, cwd, io);
  if (typeof provider === "number") return provider;
  return await playGame({ file, world, flags, chosen, provider, cwd, io });
}

const EXAMPLE_WORLD = fileURLToPath(new URL("../../../examples/harbor.world.json", import.meta.url));

interface GameStep {
  file: string;
  world: World;
  flags: PlayFlags;
  chosen: ChosenSetup;
  provider: Provider;
  cwd: string;
  io: CliIo;
}

/**
 * The game: asks what the command line left open, starts recording (--record),
 * starts the sandbox and the game, then hands over to the loop. Closes the
 * input, the sandbox and the provider however it ends.
 */
async function playGame(step: GameStep): Promise<number> {
  const { file, world, flags, cwd, io } = step;
  const { setup, replay } = step.chosen;
  let provider = step.provider;
  const color = wantsColor(io);
  const paint = painter(color);
  const lines = lineSource(io);
  // Ask at a terminal what the command line left open (never when replaying, resuming or piping).
  if (lines.interactive && !replay && setup.load === undefined) {
    let asked: boolean;
    try {
      asked = await askWhatIsLeft(world, setup, lines, io, paint);
    } catch (error) {
      if (!(error instanceof LeftBeforeStart)) throw error;
      io.stdout(`${paint("gray", "Farewell.")}\n`);
      asked = false;
    }
    if (!asked) {
      lines.close();
      return 0;
    }
  }

  let recording: ReturnType<typeof recordProvider> | undefined;
  if (flags.record) {
    try {
      recording = startRecording(provider, world, setup, resolve(cwd, flags.record));
      provider = recording;
    } catch (error) {
      lines.close();
      return fail(io, reasonOf(error));
    }
  }

  const sandbox = createSandbox();
  sandbox.warm((problem) => stderrWrapped(io, `\ntaleforge: ${problem}\n`));
  try {
    // Word-wrapped at a terminal: a long path or story start name would pass the width mid-word.
    const header = proseWriter({ io, lines });
    // A path wider than the terminal would still be cut mid-word by it: the file's name stands for it there.
    const width = lines.interactive && io.columns ? Math.max(20, Math.min(io.columns - 1, 100)) : 0;
    const shownFile = width > 0 && file.length > width ? basename(file) : file;
    header.push(
      `${paint("gray", `Taleforge · ${shownFile} · ${setup.load !== undefined ? "resumed game" : startName(world, setup.storyStart)} · ${narratorWords(provider.name, provider.model, flags)}`)}\n`,
    );
    header.end();
    const prompts = flags.showPrompt === true ? new PromptView(provider, paint) : undefined;
    const none = prompts?.unavailable();
    if (none) io.stdout(`${paint("gray", none)}\n`);
    io.stdout(paint("gray", "Type /help for commands.\n\n"));
    let saving = await chooseSaveFile(step, lines, paint);
    let game: Game;
    const opening = proseWriter({ io, lines });
    try {
      game = await Game.start(world, { ai: provider, scripts: sandbox }, setup, recording, {
        onChunk: (text) => opening.push(text),
      });
    } catch (error) {
      // The file made for this game would be left empty.
      if (saving?.fresh) await unlink(saving.path).catch(() => undefined);
      showPrompts({ io, prompts, lines });
      return startFailure(io, error);
    } finally {
      opening.end();
    }
    // The opening's last line is not ended yet.
    showPrompts({ io, prompts, lines }, "\n\n");
    if (saving?.fresh && !(await keepOpening(saving, game, io, paint))) saving = undefined;
    if (setup.load !== undefined) showResumed(game, flags, io, lines, paint);
    // The next step as the game stands (never a line of the story: the turn result carries it).
    const next = nextStepOf(game.session.state, world);
    if (next !== null) {
      const writer = proseWriter({ io, lines });
      writer.push(`${paint("cyan", `Next: ${next}`)}\n`);
      writer.end();
    }
    if (setup.load === undefined || next !== null) io.stdout("\n");
    return await runLoop({
      game,
      world,
      io,
      paint,
      color,
      lines,
      replay,
      provider,
      savePath: saving?.path,
      saveShown: saving?.shown,
      resumeCommand: saving?.resume,
      showTrace: flags.trace === true,
      prompts,
      cwd,
      recorder: new GameRecorder(
        { seed: setup.seed, gameMode: setup.gameMode, players: setup.players ?? [] },
        game.session.state,
        setup.load !== undefined,
      ),
      worldPath: resolve(cwd, file),
    });
  } finally {
    lines.close();
    await sandbox.close();
    await provider.close();
  }
}

/** Where the game is saved after every turn; `fresh` when the file was made for this game (save-home.ts). */
interface SaveFile {
  path: string;
  shown: string;
  fresh: boolean;
  resume?: string;
}

/**
 * The file this game is saved to after every turn: --save's, else the file
 * --load read (a resumed game saves where it came from), else, at a terminal,
 * a new file in the player's state folder (save-home.ts), so that quitting or
 * closing the window never loses a game. --no-save saves nowhere, a replay only to --save's file.
 * Says where a new default save goes, or why there is none.
 */
async function chooseSaveFile(
  step: GameStep,
  lines: LineSource,
  paint: Paint,
): Promise<SaveFile | undefined> {
  const { flags, io } = step;
  if (flags.save === false) return undefined;
  if (flags.save) return { path: flags.save, shown: flags.save, fresh: false };
  // A replay writes a save only where --save says (to compare it with the recorded game's).
  if (step.chosen.replay) return undefined;
  if (flags.load) return { path: flags.load, shown: flags.load, fresh: false };
  if (!lines.interactive) return undefined;
  const home = await newSavePath(io.env, step.file, new Date());
  const note = proseWriter({ io, lines });
  note.push(
    paint(
      "gray",
      home.ok
        ? `This game is saved after every turn to ${home.shown} (--save FILE saves elsewhere, --no-save not at all).\n\n`
        : `This game is not saved by itself: ${home.reason}. /save FILE keeps it.\n\n`,
    ),
  );
  note.end();
  if (!home.ok) return undefined;
  // The example world needs no name on the command line (play's default).
  const world = step.file === relative(step.cwd, EXAMPLE_WORLD) ? "" : ` ${quoteArgument(step.file)}`;
  // Started by `npm start` in a clone, where `taleforge` may not be on the PATH.
  const command = io.env.npm_lifecycle_event === "start" && world === "" ? "npm start --" : "taleforge play";
  return {
    path: home.path,
    shown: home.shown,
    fresh: true,
    resume: `${command}${world} --load ${quoteArgument(home.shown)}`,
  };
}

/**
 * Writes a fresh save file's first save, so that a game left before its
 * first turn can be resumed too; says so and answers false when it cannot be.
 */
async function keepOpening(saving: SaveFile, game: Game, io: CliIo, paint: Paint): Promise<boolean> {
  const problem = await writeSaveFile(saving.path, game.save());
  if (problem !== null)
    io.stdout(
      paint("red", `This game cannot be saved to ${saving.shown}: ${problem} /save FILE keeps it.\n`),
    );
  return problem === null;
}

/** A path as typed at a shell: quoted only when it holds a character the shell would act on (~ stays unquoted). */
function quoteArgument(text: string): string {
  return /^[\w~./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/**
 * Asks for the story start and the players the flags did not give, filling
 * them into `setup`. False when the player left instead of choosing.
 */
async function askWhatIsLeft(
  world: World,
  setup: GameSetup,
  lines: LineSource,
  io: CliIo,
  paint: Paint,
): Promise<boolean> {
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
    if (asked === undefined) return false;
    setup.players = asked;
  }
  return true;
}

/** Where a loaded game resumes, what changed since it was saved, and the last thing the story said. */
function showResumed(game: Game, flags: PlayFlags, io: CliIo, lines: LineSource, paint: Paint): void {
  const state = game.session.state;
  // Word-wrapped at a terminal, like the new game's note: the save file's path was cut mid-word at 80 columns.
  const notes = proseWriter({ io, lines });
  notes.push(
    `Resumed at ${turnWords(state.tick)}, at ${describePlace(state.position, game.session.world)}.\n`,
  );
  // --load resumes the branch the game was on; the others are still there to go to.
  const branches = game.branches();
  const on = branches.find((b) => b.current);
  if (branches.length > 1 && on)
    notes.push(
      `The story has ${branches.length} branches; you are on branch ${on.number} (${escapeControls(cleanText(on.title))}). /branches lists them.\n`,
    );
  notes.push(resumedNote(game.session.resumed, paint));
  // A save whose history could not be read still resumes; the player is told the branches are gone.
  if (game.historyNote !== null) notes.push(`${paint("yellow", game.historyNote)}\n`);
  // Resumed without --save: progress goes back to the file it came from, and the player is told so.
  if (flags.save === undefined && flags.load)
    notes.push(
      paint(
        "gray",
        `Your progress is saved to ${flags.load} after every turn (--save FILE saves elsewhere).\n`,
      ),
    );
  notes.end();
  // The last thing the story said, apart from the notes above (it ran on from their last line).
  io.stdout("\n");
  const last = proseWriter({ io, lines });
  last.push(state.history.story.at(-1)?.text ?? "");
  last.end();
  io.stdout("\n");
}

/**
 * The narrator as the header names it: "offline narrator", "openai llama3.1"; a recording or a
 * replay says so with its cassette's file name ("recorded(offline) offline" said nothing to a player).
 */
function narratorWords(name: string, model: string, flags: PlayFlags): string {
  const wrapped = /^(recorded|replay)\((.*)\)$/.exec(name);
  const inner = wrapped ? wrapped[2]! : name;
  const narrator = inner === "offline" ? "offline narrator" : `${inner} ${model}`;
  if (wrapped?.[1] === "recorded" && flags.record)
    return `${narrator}, recorded to ${basename(flags.record)}`;
  if (wrapped?.[1] === "replay" && flags.replay) return `replay of ${basename(flags.replay)} (${narrator})`;
  return narrator;
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

function startFailure(io: CliIo, error: unknown): number {
  if (isEngineError(error) || isAiError(error)) return fail(io, `the game could not start: ${error.message}`);
  return fail(io, `the game could not start: ${reasonOf(error)}. This is a Taleforge bug: please report it.`);
}
