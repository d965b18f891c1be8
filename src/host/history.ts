import { z } from "zod";
import type { SessionState, TurnResult } from "../engine/index.ts";
import { codePointStart, type Parting, type PartingStep, partBranches } from "./branch-parting.ts";
import { cleanText } from "./outside-text.ts";
import { applyPatch, diffValue, type Patch } from "./state-delta.ts";

/**
 * A game's history as a tree of steps (issue 33). Each node is one step (the
 * opening, a turn, a quest answer): its input, the AI's answers to it, its
 * narration and the state after it. The game is at one node, the head; the
 * current branch is the path from the opening to it. Nothing here does I/O:
 * the host's Game (game.ts) runs the steps and keeps the tree with these
 * functions.
 *
 * Branches: at a node with several children, the first child (the oldest)
 * goes on with the parent's branch and each later child starts a branch of
 * its own. So a branch is a start node (the opening, or a later child) and
 * the path of first children down to a leaf, its tip. Branches are numbered
 * by their start, oldest first, from 1: playing on never renumbers them.
 */

/** What a step was asked to do. */
export type StepInput =
  | { type: "opening" }
  /** A save of a version without history (or another game's save) loaded as the start of the tree. */
  | { type: "loaded" }
  | { type: "turn"; actions: { player: string; text: string }[]; draw: number }
  | { type: "answer"; quest: string; answer: "accept" | "reject" | "abandon"; by?: string };

/** One answer of the AI to a step, in the order asked: a replay of the step answers from these. */
export interface AiAnswer {
  call: "classify" | "narrate" | "judge" | "summarise" | "embed";
  answer: unknown;
  /** The call failed with this message (the step went on without it, as a summary may). */
  error?: string;
  /** The streamed chunks of a narration, so that a replay streams as the game did. */
  chunks?: string[];
}

export interface HistoryNode {
  id: number;
  parent: number | null;
  /** Oldest first: the first one goes on with this node's branch. */
  children: number[];
  input: StepInput;
  /** The tick after the step: a turn's number (0 for the opening). */
  tick: number;
  /** The narration of the step (null for a quest answer), as the story now holds it. */
  story: string | null;
  /** Set when the narration was altered: the text the narrator wrote and who replaced it. */
  altered?: { original: string; by: string };
  answers: AiAnswer[];
  /** The trigger keys that fired on the step, in order (what a retry compares). */
  fired: string[];
  /** The state after the step. Shared with its neighbours where unchanged: never changed in place. */
  state: SessionState;
  /** The step's result while the game runs (for /trace); not saved. */
  result?: TurnResult;
  /**
   * The state's delta from the parent's, once worked out (saveHistory): a save after every turn
   * compares only the new turn's state. Dropped when the state is replaced (an alteration).
   */
  saved?: { delta: Patch | undefined };
}

export interface History {
  nodes: Map<number, HistoryNode>;
  /** The node the game is at. */
  head: number;
  /** The root: the opening (or the loaded save). */
  root: number;
  nextId: number;
  /** Branch names, by the id of the branch's start node. */
  names: Map<number, string>;
}

/** What a branch listing says of one branch. */
export interface BranchInfo {
  /** 1 for the first story, then in the order the branches were made. */
  number: number;
  name: string | null;
  /** The branch's name, or a few words of its first step. */
  title: string;
  start: number;
  tip: number;
  /** The turn the branch left its parent branch after (null for the first story). */
  splitAt: number | null;
  /** The branch it split from (null for the first story). */
  splitFrom: number | null;
  /** The turn its tip is at. */
  turns: number;
  /** The game is on this branch (its head is on the branch's path). */
  current: boolean;
  /**
   * Where it parts from the branches that list alike (the same title as a listing shows it, split
   * from the same branch after the same turn, to the same turn): null when none does.
   */
  parting: Parting | null;
}

/** At most this many characters of a title in a listing (the terminal's: a line stays within 80 columns). */
export const LISTED_TITLE = 36;

/** A title as a listing shows it: cut to LISTED_TITLE characters. */
export function listedTitle(title: string): string {
  return title.length > LISTED_TITLE ? `${title.slice(0, LISTED_TITLE - 1)}…` : title;
}

/**
 * At most this many steps in a history. Past it the oldest branches the game is not on go first,
 * then the oldest steps of the first story (pruneHistory): the game never stops, its far past
 * can no longer be rewound to.
 */
export const MAX_NODES = 20_000;
/** A branch name's longest form. */
export const MAX_NAME = 60;

export function newHistory(input: StepInput, state: SessionState, story: string | null): History {
  const root: HistoryNode = {
    id: 1,
    parent: null,
    children: [],
    input,
    tick: state.tick,
    story,
    answers: [],
    fired: [],
    state,
  };
  return { nodes: new Map([[1, root]]), head: 1, root: 1, nextId: 2, names: new Map() };
}

export function headOf(history: History): HistoryNode {
  return nodeOf(history, history.head);
}

export function nodeOf(history: History, id: number): HistoryNode {
  const node = history.nodes.get(id);
  if (node === undefined) throw new Error(`history: no node ${id}`);
  return node;
}

/** Adds a step after `parent` and moves the head to it. A named branch's tip grows: the name stays with the branch. */
export function addStep(
  history: History,
  parent: number,
  step: Omit<HistoryNode, "id" | "parent" | "children">,
): HistoryNode {
  const node: HistoryNode = { ...step, id: history.nextId++, parent, children: [] };
  nodeOf(history, parent).children.push(node.id);
  history.nodes.set(node.id, node);
  history.head = node.id;
  if (history.nodes.size > MAX_NODES) pruneHistory(history);
  return node;
}

/** Keeps the history within `limit` steps (MAX_NODES): see MAX_NODES for what goes first. */
export function pruneHistory(history: History, limit = MAX_NODES): void {
  while (history.nodes.size > limit) {
    const victim = branchList(history).find((b) => b.start !== history.root && !b.current);
    if (victim) {
      deleteBranch(history, victim);
      continue;
    }
    // The game's own line goes back to the start: its oldest step goes (with what split off
    // there), and the next step of the line is the new start.
    const path = pathTo(history, history.head);
    if (path.length < 2) return;
    const root = path[0]!;
    const child = path[1]!;
    for (const other of root.children) if (other !== child.id) removeSubtree(history, other);
    history.nodes.delete(root.id);
    const name = history.names.get(root.id);
    history.names.delete(root.id);
    if (name !== undefined) history.names.set(child.id, name);
    child.parent = null;
    // A root's state is saved whole, never as a delta.
    delete child.saved;
    history.root = child.id;
  }
}

function removeSubtree(history: History, id: number): void {
  for (const child of nodeOf(history, id).children) removeSubtree(history, child);
  history.nodes.delete(id);
  history.names.delete(id);
}

/** The nodes from the root to `id`, root first. */
export function pathTo(history: History, id: number): HistoryNode[] {
  const path: HistoryNode[] = [];
  for (let node: HistoryNode | undefined = nodeOf(history, id); node; ) {
    path.push(node);
    node = node.parent === null ? undefined : history.nodes.get(node.parent);
  }
  return path.reverse();
}

/**
 * The node at the end of turn `turn` on the current branch: after the turn and the quest answers
 * given before the next one. Undefined when the branch has no such turn.
 */
export function turnOnPath(history: History, turn: number, from = history.head): HistoryNode | undefined {
  let found: HistoryNode | undefined;
  for (const node of pathTo(history, from)) if (node.tick === turn) found = node;
  return found;
}

/** The starts of every branch, in branch order. */
function branchStarts(history: History): number[] {
  const starts = [history.root];
  for (const node of history.nodes.values()) starts.push(...node.children.slice(1));
  return starts.sort((a, b) => a - b);
}

/** The tip of the branch that starts at `start`: first children down to a leaf. */
function tipOf(history: History, start: number): number {
  let node = nodeOf(history, start);
  while (node.children.length > 0) node = nodeOf(history, node.children[0]!);
  return node.id;
}

/** The start of the branch a node is on: up while the node is its parent's first child. */
export function branchStartOf(history: History, id: number): number {
  let node = nodeOf(history, id);
  while (node.parent !== null && nodeOf(history, node.parent).children[0] === node.id)
    node = nodeOf(history, node.parent);
  return node.id;
}

/** The branches, each with where it parts from those that list alike. */
export function listBranches(history: History): BranchInfo[] {
  const branches = branchList(history);
  const keys = branches.map((b) => JSON.stringify([listedTitle(b.title), b.splitFrom, b.splitAt, b.turns]));
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  // Only branches that list alike are walked step by step.
  const partings = partBranches(
    branches.map((b, i) => ({ key: keys[i]!, steps: counts.get(keys[i]!)! > 1 ? ownSteps(history, b) : [] })),
  );
  for (const [i, parting] of partings.entries()) branches[i]!.parting = parting;
  return branches;
}

/** The branches without their partings (what pruning and deleting need). */
function branchList(history: History): BranchInfo[] {
  const starts = branchStarts(history);
  const onPath = new Set(pathTo(history, history.head).map((n) => n.id));
  return starts.map((start, i): BranchInfo => {
    const tip = tipOf(history, start);
    const node = nodeOf(history, start);
    const parent = node.parent === null ? null : nodeOf(history, node.parent);
    const name = history.names.get(start) ?? null;
    // The branch the game is on: its start is on the head's path and the head is on its path.
    const current = onPath.has(start) && branchStartOf(history, history.head) === start;
    return {
      number: i + 1,
      name,
      title: name ?? titleOf(node),
      start,
      tip,
      splitAt: parent === null ? null : parent.tick,
      splitFrom: parent === null ? null : starts.indexOf(branchStartOf(history, parent.id)) + 1,
      turns: nodeOf(history, tip).tick,
      current,
      parting: null,
    };
  });
}

/** A branch's steps from its start to its tip, as a parting compares them. */
function ownSteps(history: History, branch: BranchInfo): PartingStep[] {
  const steps: PartingStep[] = [];
  for (let node: HistoryNode | undefined = nodeOf(history, branch.start); node; ) {
    steps.push({
      tick: node.tick,
      action: actionOf(node.input),
      draw: drawOf(node.input),
      story: node.story,
    });
    const next: number | undefined = node.children[0];
    node = next === undefined ? undefined : nodeOf(history, next);
  }
  return steps;
}

/** What a step was asked to do, in a few words: a turn's actions, a quest answer; null for the opening or a load. */
function actionOf(input: StepInput): string | null {
  if (input.type === "turn") return input.actions.map((a) => a.text).join(" / ");
  if (input.type === "answer") return `${input.answer} ${input.quest}`;
  return null;
}

function drawOf(input: StepInput): number {
  return input.type === "turn" ? input.draw : 0;
}

/** A few words of a branch's first step: its first action, or what the step was. */
function titleOf(node: HistoryNode): string {
  switch (node.input.type) {
    case "opening":
      return "the first story";
    case "loaded":
      return "the loaded game";
    case "answer":
      return actionOf(node.input)!;
    case "turn": {
      const text = actionOf(node.input)!;
      const draw = node.input.draw > 0 ? ` (draw ${node.input.draw + 1})` : "";
      // Short enough that a listing at 80 columns keeps the draw's mark.
      return `${text.length > 26 ? `${cutAtWord(text, 25)}…` : text}${draw}`;
    }
  }
}

/** The text's first `max` characters, back to the end of a word when one ends past the middle. */
function cutAtWord(text: string, max: number): string {
  const cut = text.slice(0, codePointStart(text, max));
  const space = cut.lastIndexOf(" ");
  return space > max / 2 ? cut.slice(0, space) : cut;
}

/**
 * A branch named by its number ("2", "#2") or its name (case-insensitive): the branch, or a
 * sentence saying what there is.
 */
export function findBranch(history: History, ref: string): BranchInfo | string {
  const branches = listBranches(history);
  const text = ref.trim();
  const number = /^#?(\d{1,6})$/.exec(text);
  if (number) {
    const found = branches[Number(number[1]) - 1];
    if (found) return found;
    return `There is no branch ${number[1]}: ${branches.length === 1 ? "there is one" : `there are ${branches.length}`}.`;
  }
  const folded = text.toLowerCase();
  const named = branches.find((b) => b.name !== null && b.name.toLowerCase() === folded);
  if (named) return named;
  return `No branch is named "${text.slice(0, MAX_NAME)}".`;
}

/**
 * Removes a branch and every branch that split from it. Refused (a sentence) for the first
 * story and for the branch the game is on. The number of branches removed otherwise.
 */
export function deleteBranch(history: History, branch: BranchInfo): number | string {
  if (branch.start === history.root) return "The first story cannot be deleted.";
  const doomed: number[] = [];
  const walk = (id: number) => {
    doomed.push(id);
    for (const child of nodeOf(history, id).children) walk(child);
  };
  walk(branch.start);
  if (doomed.includes(history.head))
    return "The game is on this branch: switch to another one (/branch) before deleting it.";
  const before = branchList(history).length;
  const parent = nodeOf(history, nodeOf(history, branch.start).parent!);
  parent.children = parent.children.filter((c) => c !== branch.start);
  for (const id of doomed) {
    history.nodes.delete(id);
    history.names.delete(id);
  }
  return before - branchList(history).length;
}

/**
 * A branch name as kept (the terminal's and the server's): control characters and escape sequences
 * dropped, white space collapsed. Or why it cannot be one: longer than MAX_NAME, or a number (numbers
 * name branches already). An empty name removes a branch's name.
 */
export function cleanBranchName(name: string): { name: string } | { problem: "too-long" | "number" } {
  const clean = cleanText(name).trim().replace(/\s+/g, " ");
  if (clean.length > MAX_NAME) return { problem: "too-long" };
  if (/^#?\d+$/.test(clean)) return { problem: "number" };
  return { name: clean };
}

/** Names a branch (an empty name removes it); a sentence when the name is taken or too long. */
export function nameBranch(history: History, branch: BranchInfo, name: string): string | null {
  const cleaned = cleanBranchName(name);
  if ("problem" in cleaned)
    return cleaned.problem === "too-long"
      ? `A branch name is at most ${MAX_NAME} characters.`
      : "A branch name cannot be a number (numbers name branches already).";
  const clean = cleaned.name;
  if (clean === "") {
    history.names.delete(branch.start);
    return null;
  }
  for (const [start, other] of history.names)
    if (start !== branch.start && other.toLowerCase() === clean.toLowerCase())
      return `Another branch is named "${other}".`;
  history.names.set(branch.start, clean);
  return null;
}

// ---------------------------------------------------------------------------
// Saved form
// ---------------------------------------------------------------------------

/** The history as a save keeps it: the root's state whole, every other state as a delta from its parent's. */
export interface SavedHistory {
  version: 1;
  head: number;
  names: [number, string][];
  /**
   * Every distinct embedding vector the AI answered, once: the same texts (trigger queries) are
   * embedded every turn, and a vector is the largest part of a turn's answers.
   */
  vectors?: number[][];
  nodes: SavedNode[];
}

/** An answer as saved: an embedding's vectors as indexes into SavedHistory.vectors. */
type SavedAnswer = Omit<AiAnswer, "answer"> & { answer?: unknown; refs?: number[] };

interface SavedNode {
  id: number;
  parent: number | null;
  input: StepInput;
  tick: number;
  story: string | null;
  altered?: { original: string; by: string };
  answers: SavedAnswer[];
  fired: string[];
  /** The root's state. */
  state?: unknown;
  /** Every other node's state, as a patch of its parent's. */
  delta?: Patch;
}

/** Parents before children (ids grow down the tree), so a reader rebuilds states in one pass. */
export function saveHistory(history: History): SavedHistory {
  const nodes: SavedNode[] = [];
  const vectors: number[][] = [];
  // By identity: the game keeps one copy of each distinct vector (answer-tap.ts, readHistory), and
  // keying by content would turn every vector into text on every save.
  const vectorIndex = new Map<number[], number>();
  const refOf = (vector: number[]): number => {
    let index = vectorIndex.get(vector);
    if (index === undefined) {
      index = vectors.push(vector) - 1;
      vectorIndex.set(vector, index);
    }
    return index;
  };
  const answerOf = (answer: AiAnswer): SavedAnswer => {
    if (answer.call !== "embed" || !isVectorList(answer.answer)) return answer;
    const { answer: list, ...rest } = answer;
    return { ...rest, refs: list.map(refOf) };
  };
  const ids = [...history.nodes.keys()].sort((a, b) => a - b);
  for (const id of ids) {
    const node = nodeOf(history, id);
    const saved: SavedNode = {
      id,
      parent: node.parent,
      input: node.input,
      tick: node.tick,
      story: node.story,
      answers: node.answers.map(answerOf),
      fired: node.fired,
    };
    if (node.altered) saved.altered = node.altered;
    if (node.parent === null) saved.state = node.state;
    else {
      node.saved ??= { delta: diffValue(nodeOf(history, node.parent).state, node.state) };
      if (node.saved.delta !== undefined) saved.delta = node.saved.delta;
    }
    nodes.push(saved);
  }
  return {
    version: 1,
    head: history.head,
    names: [...history.names],
    ...(vectors.length > 0 ? { vectors } : {}),
    nodes,
  };
}

function isVectorList(value: unknown): value is number[][] {
  return Array.isArray(value) && value.every((v) => Array.isArray(v));
}

const action = z.object({ player: z.string(), text: z.string() });
const stepInput = z.discriminatedUnion("type", [
  z.object({ type: z.literal("opening") }),
  z.object({ type: z.literal("loaded") }),
  z.object({ type: z.literal("turn"), actions: z.array(action).min(1), draw: z.number().int().min(0) }),
  z.object({
    type: z.literal("answer"),
    quest: z.string(),
    answer: z.enum(["accept", "reject", "abandon"]),
    by: z.string().optional(),
  }),
]);
/**
 * A delta's shape, checked by hand: zod over every delta of a long game took most of a load. A
 * sentence saying what is wrong, or null.
 */
function patchProblem(value: unknown, depth = 0): string | null {
  if (depth > 64) return "it nests too deep";
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "a patch is an object";
  const patch = value as Record<string, unknown>;
  if ("s" in patch) return Object.keys(patch).length === 1 ? null : "a set patch holds s alone";
  if ("a" in patch)
    return Array.isArray(patch.a) && Object.keys(patch).length === 1 ? null : "a list patch holds a list";
  if (!("o" in patch) || patch.o === null || typeof patch.o !== "object" || Array.isArray(patch.o))
    return "a patch holds s, a or o";
  if (patch.k !== undefined && !(Array.isArray(patch.k) && patch.k.every((k) => typeof k === "string")))
    return "k lists keys";
  for (const inner of Object.values(patch.o)) {
    const problem = patchProblem(inner, depth + 1);
    if (problem !== null) return problem;
  }
  return null;
}

const SavedHistorySchema = z.object({
  version: z.literal(1),
  head: z.number().int(),
  names: z.array(z.tuple([z.number().int(), z.string().max(MAX_NAME)])),
  vectors: z.array(z.array(z.number())).optional(),
  nodes: z
    .array(
      z.object({
        id: z.number().int().positive(),
        parent: z.number().int().positive().nullable(),
        input: stepInput,
        tick: z.number().int().nonnegative(),
        story: z.string().nullable(),
        altered: z.object({ original: z.string(), by: z.string() }).optional(),
        answers: z.array(
          z.object({
            call: z.enum(["classify", "narrate", "judge", "summarise", "embed"]),
            answer: z.unknown().optional(),
            refs: z.array(z.number().int().nonnegative()).optional(),
            error: z.string().optional(),
            chunks: z.array(z.string()).optional(),
          }),
        ),
        fired: z.array(z.string()),
        state: z.unknown().optional(),
        delta: z.unknown().optional(),
      }),
    )
    .min(1)
    .max(MAX_NODES),
});

type ParsedHistory = z.infer<typeof SavedHistorySchema>;
type ParsedNode = ParsedHistory["nodes"][number];

/**
 * A history this program saved and kept where nothing else writes (a server's own store, read with
 * `trusted`), as SavedHistorySchema would give it, without zod's checks (some 4 % of a server's
 * step): the objects readHistory keeps are made in the schema's key order, with the keys it strips
 * left out, so the history saves again byte for byte as after zod. Null for anything of another
 * shape than this version writes: the caller then checks it with zod, as any other save.
 */
function trustedHistory(value: unknown): ParsedHistory | null {
  const saved = value as Partial<ParsedHistory> | null;
  if (saved === null || typeof saved !== "object" || saved.version !== 1) return null;
  const { head, names, vectors, nodes } = saved;
  if (typeof head !== "number" || !Array.isArray(names) || !Array.isArray(nodes)) return null;
  if (vectors !== undefined && !Array.isArray(vectors)) return null;
  const out: ParsedNode[] = [];
  for (const n of nodes as ParsedNode[]) {
    const node = trustedNode(n);
    if (node === null) return null;
    out.push(node);
  }
  return { version: 1, head, names, ...(vectors !== undefined ? { vectors } : {}), nodes: out };
}

/** One node as the schema gives it (its key order; `state` and `delta` as they are: z.unknown). */
function trustedNode(n: ParsedNode): ParsedNode | null {
  if (n === null || typeof n !== "object" || !Array.isArray(n.answers) || !Array.isArray(n.fired))
    return null;
  const input = trustedInput(n.input);
  if (input === null) return null;
  const answers: ParsedNode["answers"] = [];
  for (const a of n.answers) {
    if (a === null || typeof a !== "object") return null;
    const answer: ParsedNode["answers"][number] = { call: a.call };
    if (a.answer !== undefined) answer.answer = a.answer;
    if (a.refs !== undefined) answer.refs = [...a.refs];
    if (a.error !== undefined) answer.error = a.error;
    if (a.chunks !== undefined) answer.chunks = [...a.chunks];
    answers.push(answer);
  }
  // Key by key in the schema's order (altered between story and answers), as zod makes its copy.
  const node: Record<string, unknown> = { id: n.id, parent: n.parent, input, tick: n.tick, story: n.story };
  if (n.altered !== undefined) node.altered = { original: n.altered.original, by: n.altered.by };
  node.answers = answers;
  node.fired = [...n.fired];
  if (n.state !== undefined) node.state = n.state;
  if (n.delta !== undefined) node.delta = n.delta;
  return node as unknown as ParsedNode;
}

/** A step's input as stepInput gives it: its variant's keys, in order. */
function trustedInput(input: ParsedNode["input"]): ParsedNode["input"] | null {
  if (input === null || typeof input !== "object") return null;
  switch (input.type) {
    case "opening":
    case "loaded":
      return { type: input.type };
    case "turn":
      if (!Array.isArray(input.actions)) return null;
      return {
        type: "turn",
        actions: input.actions.map((a) => ({ player: a.player, text: a.text })),
        draw: input.draw,
      };
    case "answer":
      return {
        type: "answer",
        quest: input.quest,
        answer: input.answer,
        ...(input.by !== undefined ? { by: input.by } : {}),
      };
    default:
      return null;
  }
}

/**
 * Rebuilds a history from its saved form; a sentence naming what is wrong when it cannot be.
 * The states are rebuilt, not checked: the game checks a state against the world before it
 * resumes from it (Game.rewind and switch), as a load does.
 */
export function readHistory(value: unknown, options: { trusted?: boolean } = {}): History | string {
  let saved = options.trusted === true ? trustedHistory(value) : null;
  if (saved === null) {
    const parsed = SavedHistorySchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return `history.${issue.path.join(".")}: ${issue.message}`;
    }
    saved = parsed.data;
  }
  const nodes = new Map<number, HistoryNode>();
  let root: number | null = null;
  try {
    for (const [i, n] of saved.nodes.entries()) {
      if (nodes.has(n.id)) return `history.nodes.${i}: the id ${n.id} is used twice`;
      let state: unknown;
      if (n.parent === null) {
        if (root !== null) return `history.nodes.${i}: a second root`;
        if (n.state === undefined) return `history.nodes.${i}: the root holds no state`;
        root = n.id;
        state = n.state;
      } else {
        const parent = nodes.get(n.parent);
        if (!parent) return `history.nodes.${i}: its parent ${n.parent} is not before it`;
        const problem = n.delta === undefined ? null : patchProblem(n.delta);
        if (problem !== null) return `history.nodes.${i}.delta: ${problem}`;
        state = applyPatch(parent.state, n.delta as Patch | undefined);
        parent.children.push(n.id);
      }
      const node: HistoryNode = {
        id: n.id,
        parent: n.parent,
        children: [],
        input: n.input as StepInput,
        tick: n.tick,
        story: n.story,
        answers: n.answers.map(({ refs, ...answer }) => {
          if (refs === undefined) return answer as AiAnswer;
          const list = refs.map((r) => saved.vectors?.[r]);
          if (list.some((v) => v === undefined))
            throw new Error("an embedding refers to a vector the save lacks");
          return { ...answer, answer: list } as AiAnswer;
        }),
        fired: n.fired,
        state: state as SessionState,
        ...(n.parent !== null ? { saved: { delta: n.delta as Patch | undefined } } : {}),
      };
      if (n.altered) node.altered = n.altered;
      nodes.set(n.id, node);
    }
  } catch (error) {
    return `history: a state does not rebuild (${(error as Error).message})`;
  }
  if (root === null) return "history: no root";
  if (!nodes.has(saved.head)) return `history.head: no node ${saved.head}`;
  const names = new Map<number, string>();
  for (const [start, name] of saved.names) if (nodes.has(start)) names.set(start, name);
  const nextId = Math.max(...nodes.keys()) + 1;
  return { nodes, head: saved.head, root, nextId, names };
}

/**
 * A point of the history, as a player names it: "7" (turn 7 on the current branch), "#2" or a
 * branch's name (that branch's last turn), "2:7" or "name:7" (turn 7 on branch 2). The node,
 * or a sentence saying why there is none.
 */
export function findPoint(history: History, ref: string): HistoryNode | string {
  const text = ref.trim();
  // Said as a refused rewind says it (errors.ts rewind-none): the turns the branch goes through.
  const first = nodeOf(history, history.root).tick;
  if (/^\d{1,7}$/.test(text)) {
    const node = turnOnPath(history, Number(text));
    return (
      node ??
      `Turn ${Number(text)} is not on this branch: it goes from turn ${first} to turn ${headOf(history).tick}.`
    );
  }
  const at = /^(.+):(\d{1,7})$/.exec(text);
  const branch = findBranch(history, at ? at[1]! : text);
  if (typeof branch === "string") return branch;
  if (!at) return nodeOf(history, branch.tip);
  const node = turnOnPath(history, Number(at[2]), branch.tip);
  return (
    node ??
    `Turn ${Number(at[2])} is not on branch ${branch.number}: it goes from turn ${first} to turn ${branch.turns}.`
  );
}
