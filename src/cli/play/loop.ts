import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import type { Provider } from "../../ai/provider.ts";
import { type Usage, usageSince } from "../../ai/provider.ts";
import type { Replay } from "../../ai/recorded.ts";
import { type Paint, plural } from "../../author/paint.ts";
import { exportPlaytest } from "../../author/playtest/export.ts";
import { ExportError, type GameRecorder } from "../../author/playtest/record.ts";
import type { SessionState } from "../../engine/index.ts";
import { QUEST_EXPIRY_TURNS, type QuestPrompt } from "../../engine/index.ts";
import { type Game, GameInput, type Outcome } from "../../host/game.ts";
import { readLine, replyProblem } from "../../host/offers.ts";
import { cleanText } from "../../host/outside-text.ts";
import { formatTrace } from "../../host/trace.ts";
import type { World } from "../../world/schema/index.ts";
import { didYouMean } from "../../world/suggest.ts";
import { escapeControls } from "../../world/terminal-text.ts";
import type { CliIo } from "../io.ts";
import { readSaveText, writeSaveFile } from "../save-file.ts";
import { changesView } from "./changes.ts";
import { COMMAND_NAMES, type CommandHost, findCommand, lineAfterGivenBack } from "./commands.ts";
import { editText } from "./editor.ts";
import { retryLines } from "./history-views.ts";
import type { LineSource } from "./lines.ts";
import type { PromptView } from "./prompt-view.ts";
import {
  bareCommandHint,
  locationInSentence,
  promptView,
  resumedNote,
  turnWords,
  undoneLine,
} from "./views.ts";
import { type StreamWrapper, stderrWrapped, streamWrapper } from "./wrapper.ts";

/** Everything the game loop works with. */
export interface LoopContext {
  game: Game;
  world: World;
  io: CliIo;
  paint: Paint;
  color: boolean;
  lines: LineSource;
  /** Set when replaying a cassette: inputs come from it instead of the keyboard. */
  replay: Replay | null;
  provider: Provider;
  /** --save, --load's file or the default at a terminal: written after every step and on /save, /quit. */
  savePath: string | undefined;
  /** savePath as the player is shown it (~ for the home folder). */
  saveShown?: string | undefined;
  /** The command that resumes this game, said on quitting when the save file was chosen for the player. */
  resumeCommand?: string | undefined;
  /** --trace: print the trace of every turn. */
  showTrace: boolean;
  /** --show-prompt: the requests sent to the model, printed after every turn. */
  prompts?: PromptView | undefined;
  cwd: string;
  /** The game as played so far, for /export-test; absent when the game cannot become a play-test. */
  recorder?: GameRecorder;
  /** The world file (absolute), named by an exported play-test. */
  worldPath?: string;
  /** The action /undo put back on the next prompt's line (a terminal), until that line is read. */
  givenBack?: string | undefined;
}

/**
 * The keyboard game: each turn asks every player for an action (an empty
 * line passes when several play), then plays the turn with the narration
 * streamed. Slash commands can be typed at any prompt. After a turn that
 * offers quests, the next line may answer (y/n); any other line leaves the
 * quests on offer and is played. Returns the exit code.
 */
export async function runLoop(ctx: LoopContext): Promise<number> {
  if (ctx.replay) return runReplay(ctx, ctx.replay);
  let offers: QuestPrompt[] = ctx.game.session.opening?.prompts ?? [];
  askOffer(ctx, offers);
  for (;;) {
    const players = ctx.game.players;
    const actions: { player: string; text: string }[] = [];
    let quit = false;
    for (let i = 0; i < players.length && !quit; i++) {
      const player = players[i]!;
      const line = await ctx.lines.read(prompt(ctx, players.length > 1 ? `${player}> ` : "> "));
      if (line === null) {
        quit = true;
        break;
      }
      const givenBack = ctx.givenBack;
      ctx.givenBack = undefined;
      const text = lineAfterGivenBack(line.trim(), givenBack?.trim());
      if (text.startsWith("/")) {
        if ((await command(ctx, text)) === "quit") quit = true;
        else i--;
        continue;
      }
      // A yes or no answers the newest offer, by the rule every front end shares (host/offers.ts).
      const meaning = readLine(text, ctx.game.session.state);
      if (meaning.type === "answer") {
        await step(ctx, { type: "answer", quest: meaning.quest, answer: meaning.answer });
        offers = offers.filter((o) => o.quest !== meaning.quest);
        askOffer(ctx, offers);
        i--;
        continue;
      }
      if (meaning.type !== "action") {
        // Never an action ("You y."): says how to answer instead.
        ctx.io.stdout(
          `${replyProblem(meaning, { list: "/quests lists your quests.", answer: "answer with /accept <quest> or /reject <quest>." })}\n`,
        );
        i--;
        continue;
      }
      // "inventory", "help": a command without its slash is said how to type, never played as an act.
      const hint = bareCommandHint(text);
      if (hint !== null) {
        ctx.io.stdout(`${hint}\n`);
        i--;
        continue;
      }
      offers = [];
      if (text === "") {
        // Alone, an empty line asks again; in a party it passes this player's turn.
        if (players.length === 1) i--;
        continue;
      }
      actions.push({ player, text });
    }
    if (quit) break;
    if (actions.length === 0) continue;
    const outcome = await step(ctx, { type: "turn", actions });
    if (outcome?.type === "turn") {
      offers = [...outcome.result.prompts];
      askOffer(ctx, offers);
      warnLapsing(ctx, offers);
    }
  }
  await finish(ctx);
  return 0;
}

/** Plays the inputs of a cassette through the same steps as a live game; 1 if the game diverges. */
async function runReplay(ctx: LoopContext, replay: Replay): Promise<number> {
  for (;;) {
    const raw = replay.nextInput();
    if (raw === undefined) break;
    const parsed = GameInput.safeParse(raw);
    if (!parsed.success) {
      stderrWrapped(
        ctx.io,
        `taleforge play: the cassette holds an input this version cannot play (${parsed.error.issues[0]?.message}).\n`,
      );
      return 1;
    }
    const input = parsed.data;
    ctx.io.stdout(echo(ctx, input));
    await step(ctx, input);
    // A recorded failure (a refused key, a 429) fails again and the game goes on, as it did;
    // a request the recording does not hold ends the replay.
    if (replay.diverged !== null) return 1;
  }
  if (!replay.finished) {
    stderrWrapped(
      ctx.io,
      `taleforge play: the replay ended with ${plural(replay.remaining, "recorded entry", "recorded entries")} not played: the game diverged from the cassette.\n`,
    );
    return 1;
  }
  ctx.io.stdout(ctx.paint("gray", `\nReplay finished at ${turnWords(ctx.game.session.tick)}.\n`));
  await finish(ctx);
  return 0;
}

function echo(ctx: LoopContext, input: GameInput): string {
  switch (input.type) {
    case "turn": {
      const many = ctx.game.players.length > 1;
      return input.actions.map((a) => `${many ? `${a.player}> ` : "> "}${a.text}\n`).join("");
    }
    case "answer":
      return `> /${input.answer} ${input.quest}\n`;
    case "undo":
      return "> /undo\n";
    case "load":
      return "> /load\n";
    case "retry":
      return "> /retry\n";
    case "alter":
      return "> /alter\n";
    case "rewind":
      return `> /rewind ${input.turn}\n`;
    case "branch":
      return `> /branch ${input.op === "switch" ? "" : `${input.op} `}${input.branch}${input.name !== undefined ? ` ${input.name}` : ""}\n`;
  }
}

/**
 * One input through the game, with its output: the streamed story, then what
 * changed. A turn that fails (the AI, a bad answer) changes nothing and says
 * so in one line; null then.
 */
async function step(ctx: LoopContext, input: GameInput): Promise<Outcome | null> {
  const before = ctx.game.session.state;
  const usageBefore = ctx.provider.usage();
  let streamed = false;
  const prose = proseWriter(ctx);
  const controller = new AbortController();
  ctx.lines.onInterrupt(() => controller.abort());
  if (input.type === "turn" || input.type === "retry") ctx.io.stdout("\n");
  let outcome: Outcome;
  try {
    outcome = await ctx.game.apply(input, {
      onChunk: (text) => {
        streamed = true;
        // Narration is the model's text: its control characters are escaped before wrapping measures it.
        prose.push(escapeControls(text));
      },
      signal: controller.signal,
    });
  } catch (error) {
    prose.end();
    if (streamed) ctx.io.stdout("\n");
    // Word-wrapped at a terminal: a diverged replay's or a server's message runs long.
    const said = proseWriter(ctx);
    said.push(`${ctx.paint("red", failureLine(input, error))}\n`);
    said.end();
    // What the model was sent is what an author needs most when a turn fails.
    showPrompts(ctx);
    return null;
  } finally {
    ctx.lines.onInterrupt(() => ctx.lines.close());
  }
  const after = ctx.game.session.state;
  if (outcome.type === "turn" && input.type === "turn")
    ctx.recorder?.turn(input.actions, outcome.result, after);
  else if (outcome.type === "answer" && input.type === "answer")
    ctx.recorder?.answer(input.quest, input.answer, after);
  else if (outcome.type === "undo" && outcome.undone) ctx.recorder?.undo(after);
  else if (outcome.type === "load") ctx.recorder?.load();
  else if (outcome.type === "retry" && input.type === "retry") {
    // A retry is the turn taken back and played again, as a play-test sees it.
    ctx.recorder?.undo(parentState(ctx, before));
    const node = ctx.game.history.nodes.get(ctx.game.history.head);
    if (node?.input.type === "turn") ctx.recorder?.turn(node.input.actions, outcome.result, after);
  } else if (outcome.type === "alter") ctx.recorder?.altered(outcome.text, after);
  else if (outcome.type === "rewind") ctx.recorder?.rewound(outcome.turn, after);
  else if (outcome.type === "branch" && outcome.op === "switch") ctx.recorder?.branched();
  const played = outcome.type === "turn" || outcome.type === "retry" ? outcome.result : null;
  if (played) {
    if (!streamed) prose.push(escapeControls(played.story));
    prose.end();
    ctx.io.stdout("\n");
  }
  const story = played?.story ?? "";
  // A retry compares with the draw it replaced: what this draw changed differently.
  const from = outcome.type === "retry" ? parentState(ctx, before) : before;
  const lines =
    outcome.type === "rewind" || outcome.type === "branch" || outcome.type === "alter"
      ? []
      : changesView(from, after, ctx.world, ctx.paint, story);
  if (outcome.type === "undo") {
    lines.unshift(outcome.undone ? undoneLine(before, after) : "Nothing to undo.");
    for (const a of outcome.actions)
      lines.push(
        ctx.paint(
          "gray",
          `Taken back: ${ctx.game.players.length > 1 ? `${a.player}> ` : "> "}${escapeControls(a.text)}`,
        ),
      );
  }
  if (outcome.type === "retry") lines.push(...retryLines(outcome.draw, outcome.fired, ctx.paint));
  lines.push(...controlLines(ctx, outcome));
  if (outcome.type === "load") {
    lines.unshift(`Loaded the game at ${turnWords(after.tick)}.`);
    const note = resumedNote(ctx.game.session.resumed, ctx.paint).trimEnd();
    if (note !== "") lines.splice(1, 0, note);
    if (ctx.game.historyNote !== null) lines.splice(1, 0, ctx.paint("yellow", ctx.game.historyNote));
  }
  if (played) {
    const result = played;
    if (result.tip) lines.push(ctx.paint("gray", `Tip: ${result.tip}`));
    for (const log of result.logs.filter((l) => l.type === "trigger-script-error"))
      lines.push(ctx.paint("gray", `(script error in ${log.trigger ?? "a trigger"}; /trace explains)`));
    if (ctx.provider.model !== "offline") {
      const used = usageSince(usageBefore, ctx.provider.usage());
      lines.push(ctx.paint("gray", usageLine(used)));
    }
  }
  if (lines.length > 0) {
    // Word-wrapped at a terminal (tips and long objectives were broken mid-word at 80 columns).
    const changes = proseWriter(ctx);
    changes.push(`${lines.join("\n")}\n`);
    changes.end();
  }
  if (played && ctx.showTrace) ctx.io.stdout(`${formatTrace(played, { color: ctx.color })}\n`);
  showPrompts(ctx);
  await autosave(ctx);
  return outcome;
}

/** The state before the turn a retry replaced (the retry's parent in the history). */
function parentState(ctx: LoopContext, fallback: SessionState): SessionState {
  const history = ctx.game.history;
  const parent = history.nodes.get(history.nodes.get(history.head)?.parent ?? -1);
  return parent?.state ?? fallback;
}

/** What the story controls say after they ran: where the game is now, and its story there. */
function controlLines(ctx: LoopContext, outcome: Outcome): string[] {
  const state = ctx.game.session.state;
  const lastStory = () => escapeControls(state.history.story.at(-1)?.text ?? "");
  switch (outcome.type) {
    case "alter":
      return [
        `The narration of ${turnWords(outcome.turn)} now reads as you wrote it; the story and the narrator go on from it.`,
        ctx.paint("gray", "The narrator's text is kept in the game's log, marked as altered."),
      ];
    case "rewind":
      return [
        `Back at ${turnWords(outcome.turn)}. Your next turn starts a new branch; the story up to ${turnWords(outcome.from)} stays (/branches).`,
        "",
        lastStory(),
      ];
    case "branch": {
      const branch = outcome.branch;
      if (branch === null) return [];
      const title = escapeControls(cleanText(branch.title));
      if (outcome.op === "name")
        return [
          branch.name === null
            ? `Branch ${branch.number} has no name now; it is listed as "${title}".`
            : `Branch ${branch.number} is named "${title}".`,
        ];
      if (outcome.op === "delete")
        return [
          `Deleted branch ${branch.number} (${title})${outcome.removed && outcome.removed > 1 ? ` and ${outcome.removed - 1} branch(es) that split from it` : ""}.`,
        ];
      return [`On branch ${branch.number} (${title}), at ${turnWords(state.tick)}.`, "", lastStory()];
    }
    default:
      return [];
  }
}

/** --show-prompt: the requests sent since the last ones shown (prompt-view.ts). */
export function showPrompts(ctx: Pick<LoopContext, "io" | "prompts" | "lines">, lead = "\n"): void {
  const text = ctx.prompts?.take() ?? "";
  if (text === "") return;
  // Word-wrapped at a terminal like the story (the terminal would cut words); as sent in a pipe or file.
  const writer = proseWriter(ctx);
  writer.push(`${lead}${text}`);
  writer.end();
}

/**
 * A turn's cost, e.g. "(2 AI calls, 1527 tokens: 1500 in (1024 cached), 27 out)". The cached share
 * is shown only when the server reports it (issue 19 item 7): absent means "not said", not zero.
 */
export function usageLine(used: Usage): string {
  const cached = used.cachedTokens === undefined ? "" : ` (${used.cachedTokens} cached)`;
  return `(${plural(used.calls, "AI call")}, ${used.promptTokens + used.completionTokens} tokens: ${used.promptTokens} in${cached}, ${used.completionTokens} out)`;
}

/** Prose as it streams: word-wrapped to the terminal when playing at one, as written otherwise (pipes, files). */
export function proseWriter(ctx: Pick<LoopContext, "io" | "lines">): StreamWrapper {
  const write = (text: string) => ctx.io.stdout(text);
  const columns = ctx.io.columns;
  if (!ctx.lines.interactive || !columns) return { push: write, end: () => {} };
  return streamWrapper(Math.max(20, Math.min(columns - 1, 100)), write);
}

function failureLine(input: GameInput, error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  if (input.type === "turn") return `The turn was not played: ${message}`;
  return message;
}

function askOffer(ctx: LoopContext, offers: readonly QuestPrompt[]): void {
  const offer = offers[0];
  if (!offer) return;
  const prose = proseWriter(ctx);
  const lapse = lapseText(ctx, offer.quest);
  prose.push(
    `\n${promptView(offer, ctx.paint)}\nAccept "${offer.quest}"? Type y or n, or play on and decide later (/accept).${lapse ? ` ${lapse}` : ""}\n`,
  );
  prose.end();
}

/**
 * When an offer lapses (engine quests.ts: at the end of the turn at
 * availability + QUEST_EXPIRY_TURNS, or when the party leaves the location
 * where it was offered), in the player's words.
 */
function lapseText(ctx: LoopContext, quest: string): string {
  const entry = ctx.game.session.state.quests[quest];
  if (entry?.status !== "available" || !entry.availableAt) return "";
  const left = Math.max(1, entry.availableAt.tick + QUEST_EXPIRY_TURNS - ctx.game.session.state.tick);
  const where = entry.availableAt.location;
  const turns = left === 1 ? "after this turn" : `after ${left} turns`;
  return where
    ? `This offer lapses if you leave ${locationInSentence(where, ctx.world)}, or ${turns}.`
    : `This offer lapses ${turns}.`;
}

/** The turn before an offer lapses, say so again (an offer the prompt no longer shows). */
function warnLapsing(ctx: LoopContext, shown: readonly QuestPrompt[]): void {
  const state = ctx.game.session.state;
  for (const [quest, entry] of Object.entries(state.quests)) {
    if (entry.status !== "available" || !entry.availableAt) continue;
    if (shown.some((p) => p.quest === quest)) continue;
    if (entry.availableAt.tick + QUEST_EXPIRY_TURNS - state.tick !== 1) continue;
    // Word-wrapped at a terminal like the story (a long quest name pushed it past 80 columns mid-word).
    const prose = proseWriter(ctx);
    prose.push(`The offer of "${quest}" lapses after this turn: /accept ${quest} takes it.\n`);
    prose.end();
  }
}

function prompt(ctx: LoopContext, text: string): string {
  return ctx.lines.interactive ? ctx.paint("bold", text) : text;
}

/** A slash command (commands.ts); "quit" ends the game. */
async function command(ctx: LoopContext, line: string): Promise<"quit" | undefined> {
  const [head = "", ...rest] = line.slice(1).split(/\s+/);
  const name = head.toLowerCase();
  const argument = rest.join(" ").trim();
  const found = findCommand(name);
  const host = commandHost(ctx);
  if (found === undefined) {
    const hint = didYouMean(name, [...COMMAND_NAMES]);
    return host.out(`Unknown command /${escapeControls(name)}.${hint} Type /help for the list.`);
  }
  return (await found.run(host, argument)) === "quit" ? "quit" : undefined;
}

/** What a slash command needs of the loop (commands.ts CommandHost). */
function commandHost(ctx: LoopContext): CommandHost {
  // Views are word-wrapped at a terminal like the story, lists with a hanging indent (never mid-word).
  const out = (text: string): undefined => {
    const writer = proseWriter(ctx);
    writer.push(`${text}\n`);
    writer.end();
  };
  return {
    game: ctx.game,
    world: ctx.world,
    paint: ctx.paint,
    color: ctx.color,
    saving: shownSave(ctx),
    out,
    step: (input) => step(ctx, input),
    save: async (argument) => {
      const path = argument || ctx.savePath;
      if (!path) return out("Name a file: /save game.json (or start with --save game.json).");
      const shown = argument || shownSave(ctx);
      const written = await writeSave(ctx, resolve(ctx.cwd, path));
      return out(written === null ? `Saved to ${shown}.` : `Could not save to ${shown}: ${written}`);
    },
    load: async (argument) => {
      const path = argument || ctx.savePath;
      if (!path) return out("Name a file: /load game.json.");
      let text: string;
      try {
        text = await readSaveText(resolve(ctx.cwd, path));
      } catch (error) {
        return out(`Could not read ${path}: ${(error as Error).message}`);
      }
      await step(ctx, { type: "load", save: text });
    },
    exportTest: async (argument) => out(await exportTest(ctx, argument)),
    edit: (text) => editText(ctx, text),
    prefill: (text) => {
      if (!ctx.lines.prefill) return;
      ctx.lines.prefill(text);
      if (ctx.lines.interactive) ctx.givenBack = text;
    },
  };
}

/** /export-test [file]: the game so far as a play-test (docs/playtests.md); the line that says what happened. */
async function exportTest(ctx: LoopContext, argument: string): Promise<string> {
  if (!ctx.recorder || !ctx.worldPath) return "This game cannot be exported as a play-test.";
  const stem = basename(ctx.worldPath).replace(/(\.world)?\.json$/i, "");
  const name = argument || `${stem}-turn-${ctx.game.session.tick}.test.yaml`;
  const path = resolve(ctx.cwd, name);
  let text: string;
  let turns: number;
  try {
    const rel = relative(dirname(path), ctx.worldPath);
    const exported = exportPlaytest(ctx.recorder.record("this game"), {
      world: rel === "" || isAbsolute(rel) ? ctx.worldPath : rel.split(sep).join("/"),
      source: "taleforge play",
    });
    text = exported.text;
    turns = exported.steps.filter((s) => s.kind === "turn").length;
  } catch (error) {
    if (error instanceof ExportError) return `Cannot export this game: ${error.message}`;
    throw error;
  }
  const problem = await writeSaveFile(path, text);
  if (problem !== null) return `Could not write ${name}: ${problem}`;
  return `Wrote ${name}: a play-test of ${plural(turns, "turn")}. Run it: taleforge test ${name}`;
}

/** Writes the save after a turn; answers whether the file on disk now holds this game. */
async function autosave(ctx: LoopContext): Promise<boolean> {
  if (!ctx.savePath) return false;
  const problem = await writeSave(ctx, resolve(ctx.cwd, ctx.savePath));
  if (problem !== null) ctx.io.stdout(ctx.paint("red", `Could not save to ${shownSave(ctx)}: ${problem}\n`));
  return problem === null;
}

/** Writes the save atomically and durably (save-file.ts); null when written, else why not. */
async function writeSave(ctx: LoopContext, path: string): Promise<string | null> {
  return writeSaveFile(path, ctx.game.save());
}

function shownSave(ctx: LoopContext): string | undefined {
  return ctx.saveShown ?? ctx.savePath;
}

/**
 * "Saved to PATH." on one line when it fits the terminal; else the path on a line of its own, so
 * that the terminal never breaks it in the middle (a save path under ~/.local/state is long).
 */
function fitted(label: string, path: string, width: number, alone: string): string {
  const line = `${label} ${path}.`;
  return width === 0 || line.length <= width ? line : `${alone}\n  ${path}`;
}

/**
 * The command that resumes the game, whole on one line the player can copy. When "To go on later:
 * COMMAND" does not fit, the command goes on a line of its own; when the command alone does not
 * fit either, its file goes on the next line after a shell continuation ("\\"), which a POSIX
 * shell reads as one command (Windows shells do not: there it stays on one line).
 */
function resumeLines(command: string, width: number): string {
  const line = `To go on later: ${command}`;
  if (width === 0 || line.length <= width) return line;
  const at = command.lastIndexOf(" --load ");
  if (`  ${command}`.length <= width || at === -1 || process.platform === "win32")
    return `To go on later:\n  ${command}`;
  return `To go on later:\n  ${command.slice(0, at + " --load".length)} \\\n    ${command.slice(at + " --load ".length)}`;
}

async function finish(ctx: LoopContext): Promise<void> {
  const saved = await autosave(ctx);
  const lines: string[] = [];
  const width = ctx.lines.interactive && ctx.io.columns ? Math.max(20, Math.min(ctx.io.columns - 1, 100)) : 0;
  // Never claim a save that did not happen (the failure was printed just above).
  if (ctx.savePath) {
    const shown = shownSave(ctx) ?? "";
    lines.push(
      fitted(
        saved ? "Saved to" : "The game was NOT saved to",
        shown,
        width,
        `${saved ? "Saved" : "NOT saved"} to:`,
      ),
    );
  }
  if (saved && ctx.resumeCommand) lines.push(resumeLines(ctx.resumeCommand, width));
  const used = ctx.provider.usage();
  if (ctx.provider.model !== "offline" && used.calls > 0)
    lines.push(
      `${plural(used.calls, "AI call")}, ${used.promptTokens} prompt${used.cachedTokens === undefined ? "" : ` (${used.cachedTokens} cached)`} and ${used.completionTokens} completion tokens.`,
    );
  lines.push("Farewell.");
  ctx.io.stdout(`\n${ctx.paint("gray", lines.join("\n"))}\n`);
}
