import { Document, isMap, isScalar, isSeq, visit } from "yaml";
import type { PlayerSpec, TurnResult } from "../../engine/index.ts";
import { ExportError, type GameRecord, type RecordedStep, type Tracked } from "./record.ts";
import type { Expect, PlayerSetup, PlaytestFile, Step } from "./schema.ts";

/**
 * `taleforge export-test`: a played game (a GameRecord, from a cassette or a
 * save) as a play-test file. Each turn pins what the AI answered (intent,
 * story, verdicts, the event's verdict), so the test replays offline and
 * exactly; its expectations are what the turn did and changed (fired
 * triggers, quests, events, place, storage, known entities), only what
 * changed, so that a world edit that sends the game another way fails at the
 * first turn that differs. docs/playtests.md "From a played game".
 */
export interface ExportOptions {
  /** The world as the play-test names it: relative to the play-test file (or absolute). */
  world: string;
  /** The first turn to check; the turns before it are played as recorded, unchecked. Default 1. */
  fromTurn?: number;
  /** The last turn to export; later steps are left out. Default: the last turn. */
  toTurn?: number;
  /** Only the final expectations (the state at the end of the slice), none per turn. */
  loose?: boolean;
  /** Named in the file's heading comment: where the game came from. */
  source?: string;
}

export interface ExportedPlaytest {
  /** The play-test, as YAML text. */
  text: string;
  /** The steps written, each with the turn it is (an answer: the turn it came after). */
  steps: { kind: RecordedStep["kind"]; turn: number; checked: boolean }[];
}

export function exportPlaytest(record: GameRecord, options: ExportOptions): ExportedPlaytest {
  const source = options.source ?? "the game";
  const from = options.fromTurn ?? 1;
  const to = options.toTurn ?? Number.POSITIVE_INFINITY;
  if (from > to) throw new ExportError("slice", { from, to });
  // An answer belongs to the turn it comes before: it is given at the tick of the turn before.
  const turnOf = (step: RecordedStep) => (step.kind === "turn" ? step.result.tick : step.tick + 1);
  const kept = record.steps.filter((s) => turnOf(s) <= to);
  const checked = (s: RecordedStep) => turnOf(s) >= from;
  const sliceTurns = kept.filter((s) => s.kind === "turn" && checked(s)).length;
  if (sliceTurns === 0)
    throw new ExportError("no-turns", {
      source,
      slice: options.fromTurn !== undefined || options.toTurn !== undefined ? " in the slice asked for" : "",
    });
  const lastChecked = kept.findLastIndex(checked);
  let before = record.opening;
  let sliceStart: Tracked = record.opening;
  const steps: Step[] = [];
  kept.forEach((step, i) => {
    if (!checked(step)) sliceStart = step.tracked;
    const out = stepOf(step, record);
    if (checked(step)) {
      const expect: Expect = options.loose
        ? i === lastChecked
          ? changes(sliceStart, step.tracked)
          : {}
        : { ...playedOf(step), ...changes(before, step.tracked) };
      if (Object.keys(expect).length > 0) out.expect = expect;
    }
    before = step.tracked;
    steps.push(out);
  });
  if (options.loose && steps[lastChecked]!.expect === undefined) steps[lastChecked]!.expect = {};

  const file: PlaytestFile = {
    world: options.world,
    storyStart: record.storyStart,
    seed: record.seed,
    ...(record.gameMode !== null ? { gameMode: record.gameMode } : {}),
    ...(record.players.length > 0 ? { players: record.players.map(playerSetup) } : {}),
    turns: steps,
  };
  const doc = new Document(file);
  const turnsTotal = record.steps.filter((s) => s.kind === "turn").length;
  const first = kept.find((s) => s.kind === "turn");
  const last = kept.findLast((s) => s.kind === "turn");
  doc.commentBefore = [
    ` Exported by taleforge export-test from ${oneLine(source)}:`,
    ` turns ${first ? turnOf(first) : 0}-${last ? turnOf(last) : 0} of ${turnsTotal}${from > 1 ? `, checked from turn ${from}` : ""}${options.loose ? ", final expectations only (--loose)" : ""}.`,
    " Each turn pins what the AI answered, so it replays offline and exactly.",
  ].join("\n");
  const seq = isMap(doc.contents) ? doc.contents.get("turns", true) : undefined;
  if (isSeq(seq))
    seq.items.forEach((node, i) => {
      const step = kept[i]!;
      const turn = turnOf(step);
      const what = step.kind === "turn" ? `turn ${turn}` : `before turn ${turn}: the quest answer`;
      (node as { commentBefore?: string }).commentBefore =
        ` ${what}${checked(step) ? "" : " (played as recorded, not checked)"}`;
    });
  visit(doc, {
    Seq: (_key, node) => {
      if (node.items.every(isShort)) node.flow = true;
    },
    Map: (_key, node) => {
      if (node.items.length <= 4 && node.items.every((pair) => isShort(pair.value))) node.flow = true;
    },
  });
  return {
    text: doc.toString({ lineWidth: 100, minContentWidth: 40, blockQuote: "literal" }),
    steps: kept.map((s) => ({ kind: s.kind, turn: turnOf(s), checked: checked(s) })),
  };
}

function playerSetup(spec: PlayerSpec): PlayerSetup {
  if ("premade" in spec) return { premade: spec.premade };
  return {
    name: spec.name,
    ...(spec.traits !== undefined ? { traits: spec.traits } : {}),
    ...(spec.attributes !== undefined ? { attributes: spec.attributes } : {}),
  };
}

/** A step's action and its pins: everything the AI answered that turn. */
function stepOf(step: RecordedStep, record: GameRecord): Step {
  if (step.kind === "answer") return { [step.answer]: step.quest };
  const { result, actions } = step;
  const out: Step = {};
  if (actions.length === 1) {
    out.act = actions[0]!.text;
    if (actions[0]!.player !== step.players[0]) out.player = actions[0]!.player;
  } else out.acts = actions.map((a) => ({ player: a.player, act: a.text }));
  if (result.intent !== null && result.trace.intent.source !== "none") {
    out.intent = result.intent.intent;
    if (result.intent.target !== undefined) out.target = result.intent.target;
  }
  out.story = result.story;
  const judge = verdictsOf(result);
  if (Object.keys(judge).length > 0) out.judge = judge;
  const event = result.trace.event?.verdict;
  if (event === "completed" || event === "stopped" || event === "neither") out.event = event;
  void record;
  return out;
}

/** The AI's verdict on each candidate trigger of the turn: passed is true; failed, unsent or unanswered is false. */
function verdictsOf(result: TurnResult): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const phase of result.trace.phases)
    for (const t of phase.triggers) if (t.verdict !== undefined) out[t.trigger] = t.verdict === "passed";
  return out;
}

/** What the turn did: exactly the triggers that fired (none is a list too: a trigger firing there is a change). */
function playedOf(step: RecordedStep): Expect {
  if (step.kind !== "turn") return {};
  return { firedOnly: [...new Set(step.result.fired)] };
}

/** The expectations that say what changed from one state to the next: only what changed. */
export function changes(before: Tracked, after: Tracked): Expect {
  const out: Expect = {};
  const party: NonNullable<Expect["party"]> = {};
  for (const key of ["realm", "region", "location", "area"] as const)
    if (before.party[key] !== after.party[key]) party[key] = after.party[key];
  if (Object.keys(party).length > 0) out.party = party;

  const quests: NonNullable<Expect["quests"]> = {};
  for (const [key, quest] of Object.entries(after.quests)) {
    const old = before.quests[key];
    const objectives: Record<string, string> = {};
    for (const [id, status] of Object.entries(quest.objectives)) {
      const was = old?.objectives[id] ?? "hidden";
      if (was !== status) objectives[id] = status;
    }
    const statusChanged = old?.status !== quest.status;
    if (Object.keys(objectives).length === 0) {
      if (statusChanged) quests[key] = quest.status as never;
    } else
      quests[key] = {
        ...(statusChanged ? { status: quest.status } : {}),
        objectives,
      } as never;
  }
  if (Object.keys(quests).length > 0) out.quests = quests;

  const events: Record<string, string> = {};
  for (const [key, status] of Object.entries(after.events))
    if (before.events[key] !== status) events[key] = status;
  if (Object.keys(events).length > 0) out.events = events as Expect["events"];

  const storage: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before.storage), ...Object.keys(after.storage)])) {
    const was = Object.hasOwn(before.storage, key) ? before.storage[key] : undefined;
    const now = Object.hasOwn(after.storage, key) ? after.storage[key] : undefined;
    if (JSON.stringify(was) !== JSON.stringify(now)) storage[key] = now ?? null;
  }
  if (Object.keys(storage).length > 0) out.storage = storage;

  const known: Record<string, boolean> = {};
  for (const key of new Set([...Object.keys(before.known), ...Object.keys(after.known)]))
    if ((before.known[key] ?? null) !== (after.known[key] ?? null) && after.known[key] !== undefined)
      known[key] = after.known[key];
  if (Object.keys(known).length > 0) out.known = known;
  return out;
}

/** A value short enough to sit in a flow collection: a scalar of one short line. */
function isShort(node: unknown): boolean {
  if (!isScalar(node)) return false;
  const value = node.value;
  return typeof value !== "string" || (value.length <= 60 && !/[\n\r]/.test(value));
}

/** Text from outside (a file name) in a one-line comment. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ");
}
