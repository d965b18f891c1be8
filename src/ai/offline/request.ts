import type { CheckSnapshot, Intent, JudgeQuestion, Outcome } from "../../engine/ports.ts";
import { INTENTS } from "../../engine/ports.ts";

/**
 * Requests reach the provider as plain JSON that a host (or a hostile test)
 * may have built by hand. The rules read them only through these readers,
 * which fill missing fields with empty values and bound every list and
 * string, so a malformed request gives an answer, never a TypeError.
 */

const MAX_TEXT = 20_000;
const MAX_LIST = 200;

export function str(value: unknown, max = MAX_TEXT): string {
  return typeof value === "string" ? value.slice(0, max) : "";
}

export function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

export function list(value: unknown, max = MAX_LIST): unknown[] {
  return Array.isArray(value) ? value.slice(0, max) : [];
}

/** A plain object's fields; {} for anything else (null, arrays, strings...). */
export function obj(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export type Position = CheckSnapshot["position"];

function position(value: unknown): Position {
  const p = obj(value);
  return {
    realm: str(p.realm, 500),
    region: str(p.region, 500),
    location: str(p.location, 500),
    area: str(p.area, 500),
  };
}

export interface Place {
  name: string;
  kind: string;
}

export interface IntentInput {
  tick: number;
  text: string;
  places: Place[];
  position: Position;
  npcsPresent: string[];
  /** Every action of the turn when several players acted (IntentRequest.actions). */
  actions?: Action[];
}

export function intentInput(request: unknown): IntentInput {
  const r = obj(request);
  return {
    tick: num(r.tick),
    text: str(r.text),
    places: list(r.places, 5000).map(placeOf).filter(named),
    position: position(r.position),
    npcsPresent: list(r.npcsPresent).map(nameOf).filter(nonEmpty),
    actions: actions(r.actions),
  };
}

// The readers of list items below are module functions, not closures made per request: a request
// lists up to thousands of places, and V8 then optimises each reader once, not once per request.

function placeOf(p: unknown): Place {
  return { name: str(obj(p).name, 500), kind: str(obj(p).kind, 20) };
}

function named(item: { name: string }): boolean {
  return item.name !== "";
}

function nameOf(value: unknown): string {
  return str(value, 500);
}

function textOf(value: unknown): string {
  return str(value);
}

function nonEmpty(text: string): boolean {
  return text !== "";
}

export interface Action {
  player: string;
  text: string;
}

function actions(value: unknown): Action[] {
  return list(value, 50).map(actionOf);
}

function actionOf(a: unknown): Action {
  return { player: str(obj(a).player, 500), text: str(obj(a).text) };
}

export interface NarrationInput {
  tick: number;
  /** A retried turn's draw (NarrationRequest.draw): 0 for the first. */
  draw: number;
  /** The game's session id (the request's `game`): seeds the order of the place's sentences. */
  session: string;
  opening: boolean;
  actions: Action[];
  /**
   * The player characters of the game (the request's context sheets of kind "player"; without
   * them, the scene's party): several make a party game, told in the third person every turn,
   * whoever acted this one.
   */
  players: string[];
  intent: { intent: Intent; target: string; leader?: string } | null;
  instructions: string[];
  event: { key: string; title: string; beats: string; activeTurns: number } | null;
  scene: {
    position: Position;
    locationInfo: string;
    areaDescription: string;
    npcsPresent: { name: string; info: string }[];
    party: { name: string }[];
    recentStory: string[];
    openingText: string;
  };
  outcomes: Outcome[];
  /** A trigger fired on the actions this turn (its story comes next turn): NarrationRequest.actionsAnswered. */
  actionsAnswered: boolean;
  summary: string;
  summarise: { tick: number; text: string }[] | null;
  journal: { quest: string; status: string; nextStep: string }[];
  partyNextStep: string;
}

export function narrationInput(request: unknown): NarrationInput {
  const r = obj(request);
  const scene = obj(r.scene);
  const intent = obj(r.intent);
  const event = r.event === null || r.event === undefined ? null : obj(r.event);
  return {
    tick: num(r.tick),
    draw: Math.max(0, Math.min(1000, Math.floor(num(r.draw)))),
    session: str(r.game, 200),
    opening: r.opening === true,
    actions: actions(r.actions),
    players: playersOf(r, scene),
    intent:
      typeof intent.intent === "string" && INTENTS.includes(intent.intent as Intent)
        ? {
            intent: intent.intent as Intent,
            target: str(intent.target, 500),
            ...(typeof intent.leader === "string" && intent.leader !== ""
              ? { leader: str(intent.leader, 500) }
              : {}),
          }
        : null,
    instructions: list(r.instructions, 50).map(textOf).filter(notBlank),
    event: event
      ? {
          key: str(event.key, 500),
          title: str(event.title, 500) || str(event.key, 500),
          beats: str(event.beats),
          activeTurns: Math.max(0, Math.floor(num(event.activeTurns))),
        }
      : null,
    scene: {
      position: position(scene.position),
      locationInfo: str(scene.locationInfo),
      areaDescription: str(scene.areaDescription),
      npcsPresent: list(scene.npcsPresent, 50).map(npcOf).filter(named),
      party: list(scene.party, 50).map(memberOf).filter(named),
      recentStory: list(scene.recentStory, 50).map(textOf),
      openingText: str(scene.openingText),
    },
    outcomes: list(r.outcomes)
      .map(outcomeOf)
      .filter((o): o is Outcome => o !== null),
    actionsAnswered: r.actionsAnswered === true,
    summary: str(r.summary),
    summarise:
      r.summarise === null || r.summarise === undefined ? null : list(r.summarise, 100).map(storyLineOf),
    journal: list(r.journal, 100).map(journalEntryOf),
    partyNextStep: str(r.partyNextStep, 2000),
  };
}

function playersOf(r: Record<string, unknown>, scene: Record<string, unknown>): string[] {
  const sheets = obj(r.context).sheets;
  const members = Array.isArray(sheets)
    ? list(sheets, 50).filter((c) => obj(c).kind === "player")
    : list(scene.party, 50);
  return members.map((c) => str(obj(c).name, 500)).filter((n) => n !== "");
}

function notBlank(text: string): boolean {
  return text.trim() !== "";
}

function npcOf(n: unknown): { name: string; info: string } {
  return { name: str(obj(n).name, 500), info: str(obj(n).info) };
}

function memberOf(c: unknown): { name: string } {
  return { name: str(obj(c).name, 500) };
}

/** An outcome as data (engine/outcome.ts), checked field by field; null for anything else (a line of text too). */
function outcomeOf(value: unknown): Outcome | null {
  const o = obj(value);
  const name = (v: unknown) => str(v, 500);
  const actor = typeof o.actor === "string" && o.actor !== "" ? name(o.actor) : null;
  const one = <T extends string>(v: unknown, options: readonly T[]): T | null =>
    options.includes(v as T) ? (v as T) : null;
  switch (o.type) {
    case "moved": {
      const how = one(o.how, ["travelled", "teleported", "area"] as const);
      return how && { type: "moved", actor, how, location: name(o.location), area: name(o.area) };
    }
    case "placed":
      return { type: "placed", actor: null, location: name(o.location), area: name(o.area) };
    case "followed":
      return actor === null ? null : { type: "followed", actor, leader: name(o.leader) };
    case "refused": {
      const base = {
        type: "refused",
        actor,
        act: "move",
        target: name(o.target),
        place: name(o.place),
      } as const;
      if (o.why === "unknown-realm") return { ...base, why: o.why, realm: name(o.realm) };
      if (o.why === "no-area") return { ...base, why: o.why, area: name(o.area) };
      const why = one(o.why, [
        "no-destination",
        "unknown-place",
        "no-region",
        "already-at",
        "already-in",
      ] as const);
      return why && { ...base, why };
    }
    case "quest": {
      const status = one(o.status, QUEST_STATUSES);
      const from = one(o.from, QUEST_STATUSES) ?? "hidden";
      return status && { type: "quest", actor: null, quest: name(o.quest), from, status };
    }
    case "objective": {
      const change = one(o.change, ["revealed", "completed"] as const);
      return (
        change && { type: "objective", actor: null, quest: name(o.quest), text: str(o.text, 2000), change }
      );
    }
    case "event": {
      const change = one(o.change, ["began", "completed"] as const);
      return change && { type: "event", actor: null, key: name(o.key), change };
    }
    case "resource":
      return actor === null
        ? null
        : { type: "resource", actor, resource: name(o.resource), from: num(o.from), to: num(o.to) };
    case "item":
      return actor === null ? null : { type: "item", actor, item: name(o.item), change: num(o.change) };
    default:
      return null;
  }
}

const QUEST_STATUSES = [
  "hidden",
  "available",
  "accepted",
  "completed",
  "abandoned",
  "rejected",
  "expired",
] as const;

function storyLineOf(s: unknown): { tick: number; text: string } {
  return { tick: num(obj(s).tick), text: str(obj(s).text) };
}

function journalEntryOf(j: unknown): NarrationInput["journal"][number] {
  return {
    quest: str(obj(j).quest, 500),
    status: str(obj(j).status, 50),
    nextStep: str(obj(j).nextStep, 2000),
  };
}

export interface JudgeInput {
  questions: JudgeQuestion[];
  storyText: string;
  actions: Action[];
  players: string[];
}

export function judgeInput(request: unknown): JudgeInput {
  const r = obj(request);
  return {
    questions: list(r.questions, 10_000).map(questionOf),
    storyText: str(r.storyText, 100_000),
    actions: actions(r.actions),
    players: list(r.players, 50).map(nameOf).filter(nonEmpty),
  };
}

function questionOf(q: unknown): JudgeQuestion {
  const o = obj(q);
  return {
    trigger: str(o.trigger, 500),
    conditionIndex: Math.floor(num(o.conditionIndex)),
    kind: o.kind === "story" ? "story" : "action",
    query: str(o.query, 2000),
  };
}
