import { z } from "zod";
import type { PlayerSpec, SessionState, TurnHooks, TurnResult } from "../engine/index.ts";
import {
  createSession,
  MAX_ALTERED,
  type QuestAnswerResult,
  restoreSession,
  type Session,
  SOMEONE,
  withAlteredNarration,
} from "../engine/index.ts";
import type { AiPorts, ScriptRunner } from "../engine/ports.ts";
import type { World } from "../world/schema/index.ts";
import { AnswerTap } from "./answer-tap.ts";
import { HostError } from "./errors.ts";
import {
  type AiAnswer,
  addStep,
  type BranchInfo,
  deleteBranch,
  findBranch,
  findPoint,
  type History,
  type HistoryNode,
  headOf,
  listBranches,
  nameBranch,
  newHistory,
  nodeOf,
  pathTo,
  readHistory,
  saveHistory,
  turnOnPath,
} from "./history.ts";
import { cleanPorts, cleanText, cleanWorld } from "./outside-text.ts";
import { diffWorld, type WorldDiff } from "./world-diff.ts";

/**
 * One game as the player sees it: a session plus what a host adds around it
 * (undo, loading a save, and a tape of the player's inputs for cassettes).
 * Every input goes through `apply`, so a recorded game and its replay take
 * exactly the same steps.
 */
export const GameInput = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("turn"),
    actions: z.array(z.object({ player: z.string(), text: z.string() })).min(1),
  }),
  z.object({
    type: z.literal("answer"),
    quest: z.string(),
    answer: z.enum(["accept", "reject", "abandon"]),
    // The player whose answer decided a party's answer (the server's games), named in the log.
    by: z.string().max(200).optional(),
  }),
  z.object({ type: z.literal("undo") }),
  z.object({ type: z.literal("load"), save: z.string() }),
  // The story controls (issue 33): on the tape like any input, so a cassette replays the whole tree.
  // `draw`: at least this draw (a front end that keeps the tree itself, as the server does, knows
  // draws this game's history may not hold).
  z.object({ type: z.literal("retry"), draw: z.number().int().min(1).optional() }),
  z.object({ type: z.literal("alter"), text: z.string(), by: z.string().max(200).optional() }),
  z.object({ type: z.literal("rewind"), turn: z.number().int().nonnegative() }),
  z.object({
    type: z.literal("branch"),
    op: z.enum(["switch", "name", "delete"]),
    branch: z.string().max(200),
    name: z.string().max(200).optional(),
  }),
]);
export type GameInput = z.infer<typeof GameInput>;

/** What starts a game; a cassette keeps it in its header so that a replay starts the same game. */
export interface GameSetup {
  seed: number;
  storyStart?: string;
  players?: PlayerSpec[];
  gameMode: string | null;
  /** A save to resume instead of starting anew. */
  load?: string;
  /**
   * `load` is this program's own save, read back from where only it writes (a server's store): not
   * checked again when this engine wrote it on this world (readSave's `trusted`). Never for an import.
   */
  trustedLoad?: boolean;
}

/** How many steps /undo can take back in a row (after a rewind or a switch: the steps before it, up to this). */
export const UNDO_DEPTH = 50;

/** What a retry changed in what fired: the triggers the new draw fired that the first did not, and back. */
export interface FiredChange {
  before: string[];
  after: string[];
  gained: string[];
  lost: string[];
}

export type Outcome =
  | { type: "turn"; result: TurnResult }
  | { type: "answer"; result: QuestAnswerResult }
  /** `actions`: what the undone turn's players typed, for their input boxes (empty for a quest answer). */
  | { type: "undo"; undone: boolean; actions: { player: string; text: string }[] }
  | { type: "load" }
  | { type: "retry"; result: TurnResult; draw: number; replaced: number; fired: FiredChange }
  | { type: "alter"; turn: number; original: string; text: string; by: string }
  | { type: "rewind"; turn: number; from: number }
  | { type: "branch"; op: "switch" | "name" | "delete"; branch: BranchInfo | null; removed?: number };

export class Game {
  /** The last turn played (for /trace); null after the opening, an undo or a load. */
  last: TurnResult | null;
  /** The game's history: every step, every branch (history.ts). */
  history: History;
  /** Why a loaded save's history could not be read (the game loaded as one branch); null otherwise. */
  historyNote: string | null = null;
  private undoable = 0;
  /** Nodes whose state came from a save and was not checked against the world yet. */
  private unchecked = new Set<number>();

  private constructor(
    private readonly world: World,
    private readonly ports: { ai: AiPorts; scripts: ScriptRunner | undefined },
    public session: Session,
    private readonly tape: { input(value: unknown): void } | undefined,
    private readonly tap: AnswerTap,
    openingAnswers: AiAnswer[],
  ) {
    this.last = null;
    this.history = this.historyOf(session, openingAnswers);
    this.undoable = this.stepsBehind();
  }

  /** Starts (or resumes, with `setup.load`) a game. The world must have passed validateWorld. */
  static async start(
    world: World,
    ports: { ai: AiPorts; scripts: ScriptRunner | undefined },
    setup: GameSetup,
    tape?: { input(value: unknown): void },
    hooks: TurnHooks = {},
  ): Promise<Game> {
    // What the narrator answers (the model's text, the world's text it tells) is cleaned as it enters,
    // and so is the world's own text (names, descriptions) for what is shown of it beside the story.
    const tap = new AnswerTap(cleanPorts(ports.ai));
    ports = { ...ports, ai: tap };
    const answers = tap.begin();
    world = cleanWorld(world);
    const session =
      setup.load !== undefined
        ? await restoreSession(world, setup.load, {
            ...ports,
            validate: false,
            trustedSave: setup.trustedLoad === true,
          })
        : await createSession(
            world,
            {
              ...ports,
              validate: false,
              seed: setup.seed,
              ...(setup.storyStart !== undefined ? { storyStart: setup.storyStart } : {}),
              ...(setup.players !== undefined ? { players: setup.players } : {}),
            },
            hooks,
          );
    return new Game(world, ports, session, tape, tap, answers);
  }

  get players(): string[] {
    return this.session.state.party.filter((c) => c.kind === "player").map((c) => c.name);
  }

  /** Applies one input; the session and the history are unchanged when it throws (an engine or AI error). */
  async apply(input: GameInput, hooks: TurnHooks = {}): Promise<Outcome> {
    this.tape?.input(input);
    switch (input.type) {
      case "turn": {
        // A player's text is outside text too: no control character reaches the story or a prompt.
        const actions = input.actions.map((a) => ({ player: a.player, text: cleanText(a.text) }));
        const { result } = await this.playTurn(this.history.head, actions, 0, hooks);
        this.undoable = Math.min(UNDO_DEPTH, this.undoable + 1);
        return { type: "turn", result };
      }
      case "answer":
        return { type: "answer", result: this.answer(input.quest, input.answer, input.by) };
      case "undo":
        return this.undo();
      case "load": {
        this.session = await restoreSession(this.world, input.save, { ...this.ports, validate: false });
        this.history = this.historyOf(this.session, []);
        this.undoable = this.stepsBehind();
        this.last = null;
        return { type: "load" };
      }
      case "retry":
        return await this.retry(hooks, input.draw);
      case "alter":
        return this.alter(input.text, input.by);
      case "rewind":
        return this.rewind(input.turn);
      case "branch":
        return this.branch(input.op, input.branch, input.name);
    }
  }

  /** The game as a save: the current state, and the history with every branch (history.ts). */
  save(): string {
    return this.session.save(saveHistory(this.history));
  }

  /** Every branch of the history, oldest first. */
  branches(): BranchInfo[] {
    return listBranches(this.history);
  }

  /**
   * What differs in the world between two points of the history (findPoint: "7", "#2", "2:7",
   * a branch's name). Throws a coded error naming a point that is not there.
   */
  diff(a: string, b: string): WorldDiff {
    return diffWorld(this.pointState(a), this.pointState(b));
  }

  /**
   * Plays a step of the history again from its parent's state with the AI answers it recorded,
   * away from the game (which stays as it is): the state and result it gives equal the step's,
   * byte for byte, when the game is deterministic (the property test checks it).
   */
  async replayStep(id: number): Promise<{ state: SessionState; result: TurnResult | QuestAnswerResult }> {
    const node = nodeOf(this.history, id);
    if (node.parent === null) throw new Error("the opening is not replayed");
    const parent = this.stateOf(nodeOf(this.history, node.parent));
    const session = await restoreSession(this.world, this.session.save(), {
      ai: this.tap,
      scripts: this.ports.scripts,
      validate: false,
    });
    session.resetTo(parent);
    this.tap.replayFrom(node.answers);
    try {
      if (node.input.type === "turn") {
        const result = await session.turn({ actions: node.input.actions, draw: node.input.draw });
        return { state: session.read((s) => s), result };
      }
      if (node.input.type === "answer") {
        const result = answerOn(session, node.input.quest, node.input.answer, node.input.by);
        return { state: session.read((s) => s), result };
      }
      throw new Error(`a ${node.input.type} step is not replayed`);
    } finally {
      this.tap.end();
    }
  }

  private async playTurn(
    parent: number,
    actions: { player: string; text: string }[],
    draw: number,
    hooks: TurnHooks,
  ): Promise<{ result: TurnResult; node: HistoryNode }> {
    const answers = this.tap.begin();
    const result = await this.session.turn({ actions, ...(draw > 0 ? { draw } : {}) }, hooks);
    const node = addStep(this.history, parent, {
      input: { type: "turn", actions, draw },
      tick: result.tick,
      story: result.story,
      answers,
      fired: [...result.fired],
      state: this.session.read((s) => s),
      result,
    });
    this.last = result;
    return { result, node };
  }

  private answer(
    quest: string,
    answer: "accept" | "reject" | "abandon",
    by: string | undefined,
  ): QuestAnswerResult {
    const result = answerOn(this.session, quest, answer, by);
    addStep(this.history, this.history.head, {
      input: { type: "answer", quest: result.quest, answer, ...(by !== undefined ? { by } : {}) },
      tick: this.session.tick,
      story: null,
      answers: [],
      fired: [],
      state: this.session.read((s) => s),
    });
    this.undoable = Math.min(UNDO_DEPTH, this.undoable + 1);
    return result;
  }

  private undo(): Outcome {
    const node = headOf(this.history);
    if (this.undoable === 0 || node.parent === null) return { type: "undo", undone: false, actions: [] };
    const parent = nodeOf(this.history, node.parent);
    const undoable = this.undoable;
    this.moveTo(parent);
    this.undoable = undoable;
    // An undone step is dropped, unless a branch goes on from it or it was named: then it stays a branch.
    if (node.children.length === 0 && !this.history.names.has(node.id)) {
      parent.children = parent.children.filter((c) => c !== node.id);
      this.history.nodes.delete(node.id);
    }
    this.undoable--;
    this.last = null;
    return { type: "undo", undone: true, actions: node.input.type === "turn" ? node.input.actions : [] };
  }

  private async retry(hooks: TurnHooks, least = 0): Promise<Outcome> {
    const old = headOf(this.history);
    if (old.input.type === "answer") throw new HostError("history/refused", "retry-answer");
    if (old.input.type !== "turn" || old.parent === null)
      throw new HostError("history/refused", "retry-none", { what: stepWords(old) });
    const parent = nodeOf(this.history, old.parent);
    const actions = old.input.actions;
    // The next draw of these actions here: one past every draw of them tried so far.
    let draw = 0;
    for (const id of parent.children) {
      const sibling = nodeOf(this.history, id);
      if (sibling.input.type === "turn" && sameActions(sibling.input.actions, actions))
        draw = Math.max(draw, sibling.input.draw);
    }
    draw = Math.max(draw + 1, least);
    this.session.resetTo(this.stateOf(parent));
    let played: { result: TurnResult; node: HistoryNode };
    try {
      played = await this.playTurn(parent.id, actions, draw, hooks);
    } catch (error) {
      this.session.resetTo(old.state);
      throw error;
    }
    const after = played.result.fired;
    return {
      type: "retry",
      result: played.result,
      draw,
      replaced: old.id,
      fired: {
        before: [...old.fired],
        after: [...after],
        gained: after.filter((k) => !old.fired.includes(k)),
        lost: old.fired.filter((k) => !after.includes(k)),
      },
    };
  }

  /**
   * The last narration of the branch gets the player's text. Quest answers given since then are
   * kept: their states get the new text too. The head's state logs who altered what.
   */
  private alter(given: string, who: string | undefined): Outcome {
    const head = headOf(this.history);
    // The last narration: the head, or the turn before the quest answers that followed it.
    const chain = [head];
    let node = head;
    while (node.input.type === "answer" && node.parent !== null) {
      node = nodeOf(this.history, node.parent);
      chain.unshift(node);
    }
    if (node.story === null) throw new HostError("history/refused", "alter-none", { what: stepWords(node) });
    if (chain.some((n) => n.children.length > (n === head ? 0 : 1)))
      throw new HostError("history/refused", "alter-later", { turn: node.tick });
    const text = cleanText(given).trim();
    if (text === "") throw new HostError("history/refused", "alter-empty");
    if (text.length > MAX_ALTERED)
      throw new HostError("history/refused", "alter-long", { length: text.length, max: MAX_ALTERED });
    const by =
      cleanText(who ?? SOMEONE)
        .trim()
        .slice(0, 200) || SOMEONE;
    const original = node.altered?.original ?? node.story;
    const tick = node.tick;
    for (const step of chain) {
      const notice = step === head ? { by, original } : undefined;
      step.state = withAlteredNarration(this.stateOf(step), tick, text, notice);
      // Its delta from the parent changed with it (saveHistory works it out again).
      delete step.saved;
    }
    this.session.resetTo(head.state);
    node.altered = { original, by };
    node.story = text;
    return { type: "alter", turn: tick, original, text, by };
  }

  private rewind(turn: number): Outcome {
    const head = headOf(this.history);
    const path = pathTo(this.history, head.id);
    const node = turnOnPath(this.history, turn);
    if (node === undefined)
      throw new HostError("history/refused", "rewind-none", {
        turn,
        first: path[0]!.tick,
        last: head.tick,
      });
    if (node.id === head.id) throw new HostError("history/refused", "rewind-here", { turn });
    this.moveTo(node);
    return { type: "rewind", turn: node.tick, from: head.tick };
  }

  private branch(op: "switch" | "name" | "delete", ref: string, name: string | undefined): Outcome {
    const found = findBranch(this.history, ref);
    if (typeof found === "string") throw new HostError("history/refused", "branch", { reason: found });
    if (op === "switch") {
      this.moveTo(nodeOf(this.history, found.tip));
      return { type: "branch", op, branch: found };
    }
    if (op === "name") {
      const problem = nameBranch(this.history, found, cleanText(name ?? ""));
      if (problem !== null) throw new HostError("history/refused", "branch", { reason: problem });
      return { type: "branch", op, branch: listBranches(this.history)[found.number - 1] ?? found };
    }
    const removed = deleteBranch(this.history, found);
    if (typeof removed === "string") throw new HostError("history/refused", "branch", { reason: removed });
    return { type: "branch", op, branch: found, removed };
  }

  /** The game goes to a node of its history: its state, its last result, what can be undone from there. */
  private moveTo(node: HistoryNode): void {
    this.session.resetTo(this.stateOf(node));
    this.history.head = node.id;
    this.last = node.result ?? null;
    this.undoable = this.stepsBehind();
  }

  /** How many steps /undo can take back from the head: the saved history's too, after a load. */
  private stepsBehind(): number {
    return Math.min(UNDO_DEPTH, pathTo(this.history, this.history.head).length - 1);
  }

  /** A node's state; one from a saved history is checked against the world the first time. */
  private stateOf(node: HistoryNode): SessionState {
    if (!this.unchecked.has(node.id)) return node.state;
    try {
      node.state = this.session.checkState(node.state);
    } catch (error) {
      throw new HostError("history/refused", "bad-state", {
        turn: node.tick,
        reason: (error as Error)?.message ?? String(error),
      });
    }
    this.unchecked.delete(node.id);
    return node.state;
  }

  private pointState(ref: string): SessionState {
    const node = findPoint(this.history, ref);
    if (typeof node === "string") throw new HostError("history/refused", "point", { reason: node });
    return this.stateOf(node);
  }

  /** The history a session starts with: its saved one, or a tree of one step (the opening, or an old save). */
  private historyOf(session: Session, openingAnswers: AiAnswer[]): History {
    const state = session.read((s) => s);
    this.unchecked = new Set();
    this.historyNote = null;
    if (session.opening !== null) {
      const history = newHistory({ type: "opening" }, state, session.opening.story);
      const root = headOf(history);
      root.answers = openingAnswers;
      root.fired = [...session.opening.fired];
      return history;
    }
    if (session.savedHistory !== undefined) {
      // A save read trusted (the server's own) has its history read the same way: no schema check.
      const read = readHistory(session.savedHistory, { trusted: session.savedHistoryTrusted });
      if (typeof read !== "string") {
        // The head's state is the save's own, checked as it loaded; the others are checked when the game goes to them.
        const head = headOf(read);
        head.state = state;
        for (const id of read.nodes.keys()) if (id !== head.id) this.unchecked.add(id);
        return read;
      }
      this.historyNote = `The save's history could not be read (${read}); the game goes on from the saved turn as one branch.`;
    }
    return newHistory({ type: "loaded" }, state, state.history.story.at(-1)?.text ?? null);
  }
}

function answerOn(
  session: Session,
  quest: string,
  answer: "accept" | "reject" | "abandon",
  by: string | undefined,
): QuestAnswerResult {
  return answer === "accept"
    ? session.acceptQuest(quest, by)
    : answer === "reject"
      ? session.rejectQuest(quest, by)
      : session.abandonQuest(quest, by);
}

function sameActions(
  a: readonly { player: string; text: string }[],
  b: readonly { player: string; text: string }[],
) {
  return a.length === b.length && a.every((x, i) => x.player === b[i]!.player && x.text === b[i]!.text);
}

/** A step in words, for a refusal ("the opening", "a quest answer"). */
function stepWords(node: HistoryNode): string {
  switch (node.input.type) {
    case "opening":
      return "the opening";
    case "loaded":
      return "the loaded save";
    case "answer":
      return "a quest answer";
    case "turn":
      return `turn ${node.tick}`;
  }
}
