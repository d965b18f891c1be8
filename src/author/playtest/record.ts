import { z } from "zod";
import { CASSETTE_FORMAT, type CassetteData, parseCassette } from "../../ai/cassette.ts";
import { Replay } from "../../ai/recorded.ts";
import type { PlayerSpec, SessionState, TurnResult } from "../../engine/index.ts";
import {
  createSession,
  diffStates,
  MAX_ALTERED,
  readSave,
  type Session,
  SOMEONE,
  withAlteredNarration,
  worldHash,
} from "../../engine/index.ts";
import type { AiPorts, ScriptRunner } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { type ProblemData, type ProblemMessage, problemMessage } from "./problem.ts";

/**
 * A game as it was played, step by step, for `taleforge export-test`: how it
 * started, then each turn (its actions and everything the engine reported:
 * intent, story, verdicts, what fired, what changed) and each quest answer.
 * Undone steps are gone, as they are from the game. Built by replaying a
 * cassette through the engine with the recorded provider, so every answer
 * is the recorded one.
 */
export interface GameRecord {
  seed: number;
  storyStart: string;
  gameMode: string | null;
  players: PlayerSpec[];
  /** What a play-test checks, after the opening. */
  opening: Tracked;
  steps: RecordedStep[];
  /** The state after the last step. */
  final: SessionState;
}

/** The parts of a state a play-test's expectations check, as plain JSON. */
export interface Tracked {
  party: { realm: string; region: string; location: string; area: string };
  quests: Record<string, { status: string; objectives: Record<string, string> }>;
  events: Record<string, string>;
  storage: Record<string, unknown>;
  known: Record<string, boolean>;
}

export function trackedOf(s: Readonly<SessionState>): Tracked {
  return {
    party: {
      realm: s.position.realm,
      region: s.position.region,
      location: s.position.location,
      area: s.position.area,
    },
    quests: Object.fromEntries(
      Object.entries(s.quests).map(([k, q]) => [k, { status: q.status, objectives: { ...q.objectives } }]),
    ),
    events: Object.fromEntries(Object.entries(s.events).map(([k, e]) => [k, e.status])),
    storage: structuredClone(s.storage),
    known: { ...s.known },
  };
}

export type RecordedStep =
  | {
      kind: "turn";
      actions: { player: string; text: string }[];
      result: TurnResult;
      tracked: Tracked;
      /** The players of the party when the turn was played (the first is a play-test's default actor). */
      players: string[];
    }
  | {
      kind: "answer";
      quest: string;
      answer: "accept" | "reject" | "abandon";
      /** The tick the answer was given at (after that turn). */
      tick: number;
      tracked: Tracked;
    };

/** A save or cassette that cannot be exported: a coded message (PROBLEM_CODES "playtest/export"). */
export class ExportError extends Error {
  readonly code = "playtest/export";
  constructor(messageId: ProblemMessage<"playtest/export">, data: ProblemData) {
    super(problemMessage("playtest/export", messageId, data));
  }
}

/**
 * A game from a file's text, whichever it is: a cassette (JSON Lines whose
 * first line is a cassette header) or a save. Throws an ExportError, or an
 * AiError "cassette" naming the line of a damaged cassette.
 */
export async function recordFromText(
  world: World,
  text: string,
  scripts: ScriptRunner | undefined,
  source: string,
): Promise<GameRecord> {
  const firstLine = text.slice(0, text.indexOf("\n") >= 0 ? text.indexOf("\n") : text.length);
  let header: unknown;
  try {
    header = JSON.parse(firstLine);
  } catch {
    header = undefined;
  }
  if ((header as { format?: unknown } | undefined)?.format === CASSETTE_FORMAT)
    return recordFromCassette(world, parseCassette(text, source), scripts, source);
  // Loaded only for a save: a cassette answers from its tape.
  const { createOfflineProvider } = await import("../../ai/offline/index.ts");
  const ai = createOfflineProvider(world);
  try {
    return await recordFromSave(world, text, ai, scripts, source);
  } finally {
    await ai.close();
  }
}

/**
 * A game's record kept as it is played (the terminal's `/export-test`): the
 * host tells it each step it applied. An undo takes the last step back; a
 * loaded save makes the record unusable (a play-test starts at the opening).
 */
export class GameRecorder {
  private readonly steps: RecordedStep[] = [];
  private readonly opening: Tracked;
  /** Why the game cannot become a play-test (it started from a save, or loaded one); null while it can. */
  private refused: { messageId: "resumed" | "loaded" | "branched"; input: number } | null = null;
  private inputs = 0;

  constructor(
    private readonly setup: Pick<GameRecord, "seed" | "gameMode" | "players">,
    private state: SessionState,
    resumed: boolean,
  ) {
    this.opening = trackedOf(state);
    if (resumed) this.refused = { messageId: "resumed", input: 0 };
  }

  turn(actions: { player: string; text: string }[], result: TurnResult, after: SessionState): void {
    this.inputs++;
    this.steps.push({
      kind: "turn",
      actions,
      result,
      tracked: trackedOf(after),
      players: playersOf(this.state),
    });
    this.state = after;
  }

  answer(quest: string, answer: "accept" | "reject" | "abandon", after: SessionState): void {
    this.inputs++;
    this.steps.push({ kind: "answer", quest, answer, tick: this.state.tick, tracked: trackedOf(after) });
    this.state = after;
  }

  /** An undo that took a step back (the game's state after it given). */
  undo(after: SessionState): void {
    this.inputs++;
    this.steps.pop();
    this.state = after;
  }

  load(): void {
    this.inputs++;
    this.refused ??= { messageId: "loaded", input: this.inputs };
  }

  /** An alteration (issue 33): the last turn is exported with the altered narration, the one later turns saw. */
  altered(text: string, after: SessionState): void {
    this.inputs++;
    const at = this.steps.findLastIndex((s) => s.kind === "turn");
    const step = this.steps[at];
    if (step?.kind === "turn") this.steps[at] = { ...step, result: { ...step.result, story: text } };
    this.state = after;
  }

  /** A rewind to `turn` of the line (issue 33): the steps after it (its quest answers stay) are left. */
  rewound(turn: number, after: SessionState): void {
    this.inputs++;
    const kept = this.steps.filter((s) => (s.kind === "turn" ? s.result.tick : s.tick) <= turn);
    this.steps.length = 0;
    this.steps.push(...kept);
    this.state = after;
  }

  /** A branch switch (issue 33): the game left the line a play-test follows. */
  branched(): void {
    this.inputs++;
    this.refused ??= { messageId: "branched", input: this.inputs };
  }

  /** The record so far; throws an ExportError when the game cannot become a play-test. */
  record(source: string): GameRecord {
    if (this.refused) throw new ExportError(this.refused.messageId, { source, input: this.refused.input });
    return {
      ...this.setup,
      storyStart: this.state.storyStart,
      opening: this.opening,
      steps: [...this.steps],
      final: this.state,
    };
  }
}

/** The inputs a host writes on the tape between the calls (GameInput of src/host/game.ts, read loosely here). */
const TapeInput = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("turn"),
    actions: z.array(z.object({ player: z.string(), text: z.string() })).min(1),
  }),
  z.object({
    type: z.literal("answer"),
    quest: z.string(),
    answer: z.enum(["accept", "reject", "abandon"]),
    by: z.string().optional(),
  }),
  z.object({ type: z.literal("undo") }),
  z.object({ type: z.literal("load"), save: z.string() }),
  z.object({ type: z.literal("retry"), draw: z.number().int().min(1).optional() }),
  z.object({ type: z.literal("alter"), text: z.string(), by: z.string().optional() }),
  z.object({ type: z.literal("rewind"), turn: z.number().int().nonnegative() }),
]);

const CassetteSetup = z.object({
  worldHash: z.string(),
  seed: z.number(),
  gameMode: z.string().nullable().optional(),
  storyStart: z.string().optional(),
  players: z.array(z.record(z.string(), z.unknown())).optional(),
  load: z.string().optional(),
});

/** One step of the current branch in a cassette's replay: what it recorded, the state after it, the turns played from it. */
interface LineStep {
  step: RecordedStep | null;
  state: SessionState;
  tried: { actions: { player: string; text: string }[]; draw: number }[];
  /** The narration as the narrator wrote it, once altered. */
  original?: string;
}

/**
 * The host's alteration (Game.alter in src/host/game.ts): the last narration of the line gets the
 * text, in the states of its turn and of the quest answers after it, and the head's state logs it.
 * The turn is exported with the text as its story, so that later turns see it. A refused one
 * (no narration, an empty text) changed nothing.
 */
function alterLine(line: LineStep[], given: string, who: string | undefined): void {
  let at = line.length - 1;
  while (at > 0 && line[at]!.step?.kind === "answer") at--;
  const turn = line[at]!;
  const text = given.trim();
  if (turn.step?.kind !== "turn" || text === "" || text.length > MAX_ALTERED) return;
  const tick = turn.step.result.tick;
  const by = (who ?? SOMEONE).trim().slice(0, 200) || SOMEONE;
  const original = turn.original ?? turn.step.result.story;
  turn.original = original;
  for (let i = at; i < line.length; i++) {
    const step = line[i]!;
    const notice = i === line.length - 1 ? { by, original } : undefined;
    step.state = withAlteredNarration(step.state, tick, text, notice);
  }
  turn.step = { ...turn.step, result: { ...turn.step.result, story: text } };
}

function sameActions(
  a: readonly { player: string; text: string }[],
  b: readonly { player: string; text: string }[],
) {
  return a.length === b.length && a.every((x, i) => x.player === b[i]!.player && x.text === b[i]!.text);
}

/** How many steps a host can undo (src/host/game.ts UNDO_DEPTH): an undo past them did nothing in the game. */
const UNDO_DEPTH = 50;

/**
 * Replays a cassette on its world and records every step. Throws an
 * ExportError when the cassette is of another world, starts from a save,
 * loads one, or does not replay (the world changed since).
 */
export async function recordFromCassette(
  world: World,
  cassette: CassetteData,
  scripts: ScriptRunner | undefined,
  source: string,
): Promise<GameRecord> {
  const parsed = CassetteSetup.safeParse(cassette.header.setup);
  if (!parsed.success)
    throw new ExportError("setup", { source, reason: parsed.error.issues[0]?.message ?? "no setup" });
  const setup = parsed.data;
  if (setup.worldHash !== worldHash(world)) throw new ExportError("other-world", { source });
  if (setup.load !== undefined) throw new ExportError("resumed", { source });
  const replay = new Replay(cassette, source);
  const ai: AiPorts = replay.provider;
  const players = setup.players as PlayerSpec[] | undefined;
  let session: Session;
  try {
    session = await createSession(world, {
      ai,
      scripts,
      validate: false,
      seed: setup.seed,
      ...(setup.storyStart !== undefined ? { storyStart: setup.storyStart } : {}),
      ...(players !== undefined ? { players } : {}),
    });
  } catch (error) {
    throw new ExportError("diverged", { source, reason: reasonOf(error) });
  }
  const opening = session.read(trackedOf);
  // The current branch, as the host's game walks it (src/host/game.ts): the opening, then each
  // step on it with the state after it. A retry replaces the last turn, a rewind cuts the line
  // back, an alteration rewrites the last narration: the play-test follows what is left.
  const line: LineStep[] = [{ step: null, state: session.state, tried: [] }];
  let undoable = 0;
  for (let n = 1; ; n++) {
    const raw = replay.nextInput();
    if (raw === undefined) break;
    const type = (raw as { type?: unknown } | null)?.type;
    if (type === "branch") {
      const op = (raw as { op?: unknown }).op;
      // A name changes nothing a play-test follows; a switch or a delete moves in the tree this replay does not keep.
      if (op === "name") continue;
      throw new ExportError("switched", { source, input: n });
    }
    const input = TapeInput.safeParse(raw);
    if (!input.success)
      throw new ExportError("input", { source, input: n, reason: input.error.issues[0]?.message ?? "" });
    const value = input.data;
    if (value.type === "load") throw new ExportError("loaded", { source, input: n });
    const head = line[line.length - 1]!;
    if (value.type === "undo") {
      if (undoable === 0 || line.length < 2) continue;
      line.pop();
      // The host drops an undone step with nothing after it: a later retry does not count its draw.
      const parent = line[line.length - 1]!;
      if (head.tried.length === 0 && head.step?.kind === "turn") parent.tried.pop();
      session.resetTo(parent.state);
      undoable--;
      continue;
    }
    if (value.type === "rewind") {
      let at = -1;
      line.forEach((s, i) => {
        if (s.state.tick === value.turn) at = i;
      });
      if (at < 0 || at === line.length - 1) continue;
      line.length = at + 1;
      session.resetTo(line[at]!.state);
      undoable = Math.min(UNDO_DEPTH, line.length - 1);
      continue;
    }
    if (value.type === "alter") {
      alterLine(line, value.text, value.by);
      session.resetTo(line[line.length - 1]!.state);
      continue;
    }
    try {
      if (value.type === "turn" || value.type === "retry") {
        let from = head;
        let actions: { player: string; text: string }[];
        let draw = 0;
        if (value.type === "retry") {
          // The host's retry: the last turn again from its parent's state, with the next draw of its actions.
          if (head.step?.kind !== "turn" || line.length < 2) continue;
          actions = head.step.actions;
          from = line[line.length - 2]!;
          for (const t of from.tried) if (sameActions(t.actions, actions)) draw = Math.max(draw, t.draw);
          draw = Math.max(draw + 1, value.draw ?? 0);
          session.resetTo(from.state);
        } else actions = value.actions;
        const players = session.read(playersOf);
        let result: TurnResult;
        try {
          result = await session.turn({ actions, ...(draw > 0 ? { draw } : {}) });
        } catch (error) {
          if (value.type === "retry") session.resetTo(head.state);
          throw error;
        }
        if (value.type === "retry") line.pop();
        else undoable = Math.min(UNDO_DEPTH, undoable + 1);
        from.tried.push({ actions, draw });
        line.push({
          step: { kind: "turn", actions, result, tracked: session.read(trackedOf), players },
          state: session.state,
          tried: [],
        });
      } else {
        const tick = session.tick;
        if (value.answer === "accept") session.acceptQuest(value.quest, value.by);
        else if (value.answer === "reject") session.rejectQuest(value.quest, value.by);
        else session.abandonQuest(value.quest, value.by);
        undoable = Math.min(UNDO_DEPTH, undoable + 1);
        line.push({
          step: {
            kind: "answer",
            quest: value.quest,
            answer: value.answer,
            tick,
            tracked: session.read(trackedOf),
          },
          state: session.state,
          tried: [],
        });
      }
    } catch (_error) {
      // A step that failed in the game (a recorded AI failure, a refused answer) failed there too: it changed nothing.
      if (replay.diverged !== null) throw new ExportError("diverged", { source, reason: replay.diverged });
    }
  }
  const steps = line.flatMap((s) => (s.step === null ? [] : [s.step]));
  if (!replay.finished) throw new ExportError("unfinished", { source, count: replay.remaining });
  const final = session.state;
  return {
    seed: setup.seed,
    storyStart: final.storyStart,
    gameMode: setup.gameMode ?? null,
    players: players ?? [],
    opening,
    steps,
    final,
  };
}

/**
 * A save keeps each turn's actions and story, and when each quest was
 * answered, but not the intents and verdicts the AI gave: its turns are
 * replayed with `ai` (the offline provider) and their stories pinned, and
 * the export is refused when that replay does not end where the save did.
 */
export async function recordFromSave(
  world: World,
  saveText: string,
  ai: AiPorts,
  scripts: ScriptRunner | undefined,
  source: string,
): Promise<GameRecord> {
  let saved: SessionState;
  try {
    saved = readSave(world, saveText).state;
  } catch (error) {
    throw new ExportError("save", { source, reason: reasonOf(error) });
  }
  const premades = new Set(world.premadeCharacters.map((p) => p.name));
  const players: PlayerSpec[] = saved.party
    .filter((c) => c.kind === "player")
    .map((c) => (premades.has(c.name) ? { premade: c.name } : { name: c.name }));
  let session: Session;
  try {
    session = await createSession(world, {
      ai,
      scripts,
      validate: false,
      seed: saved.seed,
      storyStart: saved.storyStart,
      players,
    });
  } catch (error) {
    throw new ExportError("save-diverged", { source, reason: reasonOf(error) });
  }
  const answers = Object.entries(saved.quests).flatMap(([quest, entry]) =>
    entry.transitions.flatMap((t) => {
      const answer =
        t.status === "accepted"
          ? "accept"
          : t.status === "rejected"
            ? "reject"
            : t.status === "abandoned"
              ? "abandon"
              : null;
      return answer === null ? [] : [{ quest, answer, tick: t.tick } as const];
    }),
  );
  const opening = session.read(trackedOf);
  const steps: RecordedStep[] = [];
  const answerAt = (tick: number) => {
    for (const a of answers.filter((x) => x.tick === tick)) {
      try {
        if (a.answer === "accept") session.acceptQuest(a.quest);
        else if (a.answer === "reject") session.rejectQuest(a.quest);
        else session.abandonQuest(a.quest);
      } catch (error) {
        throw new ExportError("save-diverged", { source, reason: `turn ${tick}: ${reasonOf(error)}` });
      }
      steps.push({ kind: "answer", ...a, tracked: session.read(trackedOf) });
    }
  };
  answerAt(0);
  // Grouped once: a lookup per turn in the whole history made a long save quadratic.
  const actionsAt = new Map<number, { player: string; text: string }[]>();
  for (const a of saved.history.actions) {
    const list = actionsAt.get(a.tick) ?? [];
    list.push({ player: a.player, text: a.text });
    actionsAt.set(a.tick, list);
  }
  const storyAt = new Map<number, string>();
  for (const s of saved.history.story) if (!storyAt.has(s.tick)) storyAt.set(s.tick, s.text);
  for (let tick = 1; tick <= saved.tick; tick++) {
    const actions = actionsAt.get(tick) ?? [];
    const story = storyAt.get(tick);
    if (actions.length === 0)
      throw new ExportError("save-diverged", { source, reason: `turn ${tick} has no action in the save` });
    const players = session.read(playersOf);
    let result: TurnResult;
    try {
      result = await session.turn({ actions, ...(story !== undefined ? { pins: { story } } : {}) });
    } catch (error) {
      throw new ExportError("save-diverged", { source, reason: `turn ${tick}: ${reasonOf(error)}` });
    }
    steps.push({
      kind: "turn",
      actions,
      result,
      tracked: session.read(trackedOf),
      players,
    });
    answerAt(tick);
  }
  const final = session.state;
  const difference = stateDifference(saved, final);
  if (difference !== null) throw new ExportError("save-diverged", { source, reason: difference });
  return { seed: saved.seed, storyStart: saved.storyStart, gameMode: null, players, opening, steps, final };
}

/** The first difference, in what a play-test checks, between the saved state and the replayed one; null when none. */
function stateDifference(saved: SessionState, replayed: SessionState): string | null {
  const entry = diffStates(trackedOf(saved), trackedOf(replayed))[0];
  if (entry === undefined) return null;
  const show = (v: unknown) => (v === undefined ? "absent" : JSON.stringify(v));
  return `${entry.path.join(".")}: saved ${show(entry.before)}, replayed ${show(entry.after)}`;
}

function playersOf(state: Readonly<SessionState>): string[] {
  return state.party.filter((c) => c.kind === "player").map((c) => c.name);
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
