import { isDeepStrictEqual } from "node:util";
import type {
  Character,
  LogEntry,
  LogType,
  QuestPrompt,
  SessionState,
  TurnResult,
  WorldIndex,
} from "../../engine/index.ts";
import { isKnown, normaliseKey } from "../../engine/index.ts";
import type { JsonPath } from "../../world/diagnostic.ts";
import { didYouMean } from "../../world/suggest.ts";
import { onTurn } from "../paint.ts";
import type { Expect, PlayerExpect } from "./schema.ts";
import type { ScriptTriggerNames } from "./script-triggers.ts";
import { whyNotFired } from "./why.ts";

/** What a step left behind, as the checkers see it. */
export interface Observed {
  state: SessionState;
  index: WorldIndex;
  /** The turn the step played; null for a quest answer (and, before any turn, the opening). */
  turn: TurnResult | null;
  /** Triggers fired by the step (a quest answer fires none). */
  fired: readonly string[];
  logs: readonly LogEntry[];
  prompts: readonly QuestPrompt[];
  /** Trigger keys live now or earlier in the test: the world's, engine-made, script-added. */
  triggers: ReadonlySet<string>;
  /** Keys some script of the world may add (src/author/playtest/script-triggers.ts); absent: none. */
  scriptNames?: ScriptTriggerNames;
  /** The state's `consumed` map before the step: why a spent trigger did not fire. */
  consumedBefore: Readonly<Record<string, number>>;
}

/** An expectation that did not hold, at its path in the file. */
export interface Mismatch {
  path: JsonPath;
  message: string;
  /** Report at the key (a map entry) rather than at its value. */
  atKey?: boolean;
}

type Checker<K extends keyof Expect> = (
  value: NonNullable<Expect[K]>,
  seen: Observed,
  at: JsonPath,
) => Mismatch[];

/** One checker per expectation kind, each pure. */
export const CHECKERS: { [K in keyof Required<Expect>]: Checker<K> } = {
  fired: checkFired,
  notFired: checkNotFired,
  firedOnly: checkFiredOnly,
  quests: checkQuests,
  events: checkEvents,
  storage: checkStorage,
  party: checkParty,
  known: checkKnown,
  players: checkPlayers,
  log: checkLog,
  prompts: checkPrompts,
};

/** Checks every expectation of a step; `at` is the path of its `expect`. */
export function checkExpect(expect: Expect, seen: Observed, at: JsonPath): Mismatch[] {
  const out: Mismatch[] = [];
  for (const key of Object.keys(CHECKERS) as (keyof Expect)[]) {
    const value = expect[key];
    if (value === undefined) continue;
    const checker = CHECKERS[key] as Checker<typeof key>;
    out.push(...checker(value as never, seen, [...at, key]));
  }
  return out;
}

/**
 * A key that nothing can produce: not a live trigger, not a key a script of
 * the world may add, and (for `notFired`, which may name any key when some
 * script writes to `triggers` under a computed key) not possibly added.
 */
function unknownTrigger(
  key: string,
  seen: Observed,
  path: JsonPath,
  anyNameGoes = false,
): Mismatch | undefined {
  if (seen.triggers.has(key) || seen.scriptNames?.names.has(key)) return undefined;
  if (anyNameGoes && seen.scriptNames?.anyName) return undefined;
  const known = [...seen.triggers, ...(seen.scriptNames?.names ?? [])];
  return {
    path,
    message: `No trigger "${key}" in the world, no script has added one so far, and no script of the world names it as a key of \`triggers\`.${didYouMean(key, known)}`,
  };
}

function firedList(seen: Observed): string {
  return seen.fired.length > 0 ? seen.fired.join(", ") : "nothing";
}

export function checkFired(keys: string[], seen: Observed, at: JsonPath): Mismatch[] {
  const out: Mismatch[] = [];
  keys.forEach((key, i) => {
    const unknown = unknownTrigger(key, seen, [...at, i]);
    if (unknown) out.push(unknown);
    else if (!seen.fired.includes(key)) {
      const why = whyNotFired(key, seen.turn, seen.consumedBefore);
      out.push({
        path: [...at, i],
        message: `expected "${key}" to fire; it did not${why ? ` (${why})` : ""}. Fired: ${firedList(seen)}.`,
      });
    }
  });
  return out;
}

export function checkNotFired(keys: string[], seen: Observed, at: JsonPath): Mismatch[] {
  const out: Mismatch[] = [];
  keys.forEach((key, i) => {
    const unknown = unknownTrigger(key, seen, [...at, i], true);
    if (unknown) out.push(unknown);
    else if (seen.fired.includes(key))
      out.push({
        path: [...at, i],
        message: `expected "${key}" not to fire; it fired. Fired: ${firedList(seen)}.`,
      });
  });
  return out;
}

/** `firedOnly`: each listed trigger fired (as `fired` says why not), and no other did. */
export function checkFiredOnly(keys: string[], seen: Observed, at: JsonPath): Mismatch[] {
  const out = checkFired(keys, seen, at);
  const extra = [...new Set(seen.fired)].filter((key) => !keys.includes(key));
  if (extra.length > 0)
    out.push({
      path: at,
      atKey: true,
      message: `expected only ${keys.length > 0 ? keys.map((k) => `"${k}"`).join(", ") : "no trigger"} to fire; ${extra.map((k) => `"${k}"`).join(", ")} fired too. Fired: ${firedList(seen)}.`,
    });
  return out;
}

export function checkQuests(quests: NonNullable<Expect["quests"]>, seen: Observed, at: JsonPath): Mismatch[] {
  const out: Mismatch[] = [];
  for (const [quest, expected] of Object.entries(quests)) {
    const entry = Object.hasOwn(seen.state.quests, quest) ? seen.state.quests[quest] : undefined;
    const status = entry?.status ?? "hidden";
    const wanted = typeof expected === "string" ? { status: expected, objectives: undefined } : expected;
    if (wanted.status !== undefined && wanted.status !== status)
      out.push({
        path: [...at, quest],
        atKey: true,
        message: `quest "${quest}": expected ${wanted.status}, got ${status}${history(entry?.transitions)}.`,
      });
    for (const [id, want] of Object.entries(wanted.objectives ?? {})) {
      const world = seen.index.world.quests[quest]?.objectives?.[id]?.status ?? "hidden";
      const got = entry?.objectives?.[id] ?? world;
      if (got !== want)
        out.push({
          path: [...at, quest, "objectives", id],
          atKey: true,
          message: `quest "${quest}", objective ${id}: expected ${want}, got ${got}.`,
        });
    }
  }
  return out;
}

function history(transitions: { status: string; tick: number }[] | undefined): string {
  if (!transitions || transitions.length === 0) return "";
  return ` (${transitions.map((t) => `${t.status} ${onTurn(t.tick)}`).join(", ")})`;
}

export function checkEvents(events: NonNullable<Expect["events"]>, seen: Observed, at: JsonPath): Mismatch[] {
  const out: Mismatch[] = [];
  for (const [event, want] of Object.entries(events)) {
    const entry = Object.hasOwn(seen.state.events, event) ? seen.state.events[event] : undefined;
    const got = entry?.status ?? "inactive";
    if (got !== want)
      out.push({
        path: [...at, event],
        atKey: true,
        message: `event "${event}": expected ${want}, got ${got}${entry ? ` (active for ${entry.activeTurns} turns)` : ""}.`,
      });
  }
  return out;
}

export function checkStorage(storage: Record<string, unknown>, seen: Observed, at: JsonPath): Mismatch[] {
  const out: Mismatch[] = [];
  for (const [key, want] of Object.entries(storage)) {
    const present = Object.hasOwn(seen.state.storage, key);
    const got = present ? seen.state.storage[key] : undefined;
    // null stands for "absent" as well: YAML has no undefined.
    if (want === null ? got === undefined || got === null : isDeepStrictEqual(got, want)) continue;
    out.push({
      path: [...at, key],
      atKey: true,
      message: `storage.${key}: expected ${show(want)}, got ${present ? show(got) : "nothing (the key is not set)"}.`,
    });
  }
  return out;
}

export function checkParty(party: NonNullable<Expect["party"]>, seen: Observed, at: JsonPath): Mismatch[] {
  const out: Mismatch[] = [];
  const position = seen.state.position;
  for (const level of ["realm", "region", "location", "area"] as const) {
    const want = party[level];
    if (want === undefined || want === position[level]) continue;
    out.push({
      path: [...at, level],
      message: `party ${level}: expected "${want}", got "${position[level]}" (the party is at ${position.location} / ${position.area}).`,
    });
  }
  return out;
}

export function checkKnown(known: Record<string, boolean>, seen: Observed, at: JsonPath): Mismatch[] {
  const out: Mismatch[] = [];
  for (const [entity, want] of Object.entries(known)) {
    const got = isKnown(seen.state, seen.index, entity);
    if (got !== want)
      out.push({
        path: [...at, entity],
        atKey: true,
        message: `"${entity}" should be ${want ? "known" : "unknown"}; it is ${got ? "known" : "unknown"}.`,
      });
  }
  return out;
}

export function checkPlayers(
  players: Record<string, PlayerExpect>,
  seen: Observed,
  at: JsonPath,
): Mismatch[] {
  const out: Mismatch[] = [];
  for (const [name, want] of Object.entries(players)) {
    const character = seen.state.party.find((c) => c.name === name);
    const path = [...at, name];
    if (!character) {
      out.push({
        path,
        atKey: true,
        message: `"${name}" is not in the party (${seen.state.party.map((c) => c.name).join(", ")}).`,
      });
      continue;
    }
    out.push(...checkCharacter(character, want, path));
  }
  return out;
}

function checkCharacter(c: Character, want: PlayerExpect, at: JsonPath): Mismatch[] {
  const out: Mismatch[] = [];
  const who = c.name;
  if (want.level !== undefined && want.level !== c.level)
    out.push({ path: [...at, "level"], message: `${who}: expected level ${want.level}, got ${c.level}.` });
  if (want.xp !== undefined && want.xp !== c.xp)
    out.push({ path: [...at, "xp"], message: `${who}: expected ${want.xp} xp, got ${c.xp}.` });
  for (const [name, expected] of Object.entries(want.resources ?? {})) {
    const key = Object.keys(c.resources).find((k) => normaliseKey(k) === normaliseKey(name));
    const value = key !== undefined ? c.resources[key] : undefined;
    const path = [...at, "resources", name];
    if (!value) {
      out.push({ path, atKey: true, message: `${who} has no resource "${name}".` });
      continue;
    }
    const wanted = typeof expected === "number" ? { current: expected, max: undefined } : expected;
    if (wanted.current !== undefined && wanted.current !== value.current)
      out.push({
        path,
        atKey: true,
        message: `${who}'s ${name}: expected ${wanted.current}, got ${value.current} (max ${value.max}).`,
      });
    if (wanted.max !== undefined && wanted.max !== value.max)
      out.push({
        path,
        atKey: true,
        message: `${who}'s ${name} max: expected ${wanted.max}, got ${value.max}.`,
      });
  }
  for (const [name, expected] of Object.entries(want.attributes ?? {})) {
    const key = Object.keys(c.attributes).find((k) => normaliseKey(k) === normaliseKey(name));
    const got = key !== undefined ? c.attributes[key] : undefined;
    if (got !== expected)
      out.push({
        path: [...at, "attributes", name],
        atKey: true,
        message: `${who}'s ${name}: expected ${expected}, got ${got ?? "nothing"}.`,
      });
  }
  if (want.traits !== undefined) {
    const missing = want.traits.filter((t) => !c.traits.includes(t));
    const extra = c.traits.filter((t) => !want.traits!.includes(t));
    if (missing.length > 0 || extra.length > 0) {
      const parts = [
        missing.length > 0 ? `missing ${missing.join(", ")}` : "",
        extra.length > 0 ? `also has ${extra.join(", ")}` : "",
      ].filter(Boolean);
      out.push({
        path: [...at, "traits"],
        message: `${who}'s traits: expected exactly [${want.traits.join(", ")}], got [${c.traits.join(", ")}] (${parts.join("; ")}). Use hasTraits/lacksTraits to check some traits only.`,
      });
    }
  }
  want.hasTraits?.forEach((t, i) => {
    if (!c.traits.includes(t))
      out.push({
        path: [...at, "hasTraits", i],
        message: `${who} should have the trait ${t}; traits: [${c.traits.join(", ")}].`,
      });
  });
  want.lacksTraits?.forEach((t, i) => {
    if (c.traits.includes(t))
      out.push({
        path: [...at, "lacksTraits", i],
        message: `${who} should not have the trait ${t}; traits: [${c.traits.join(", ")}].`,
      });
  });
  for (const [item, expected] of Object.entries(want.items ?? {})) {
    const got = Object.hasOwn(c.items, item) ? c.items[item]! : 0;
    if (got !== expected)
      out.push({
        path: [...at, "items", item],
        atKey: true,
        message: `${who} should hold ${expected} × ${item}; holds ${got}.`,
      });
  }
  return out;
}

const LOG_TYPES: readonly LogType[] = ["trigger-script-error", "script-log", "notice"];

/** A log type matches entries of that type; any other text, entries whose message contains it. */
function logMatches(entry: LogEntry, wanted: string): boolean {
  return (LOG_TYPES as readonly string[]).includes(wanted)
    ? entry.type === wanted
    : entry.message.includes(wanted);
}

export function checkLog(log: NonNullable<Expect["log"]>, seen: Observed, at: JsonPath): Mismatch[] {
  const out: Mismatch[] = [];
  const summary =
    seen.logs.length === 0
      ? "the step wrote no log entry"
      : `entries: ${seen.logs.map((l) => `${l.type} "${clip(l.message)}"`).join("; ")}`;
  log.contains?.forEach((wanted, i) => {
    if (!seen.logs.some((l) => logMatches(l, wanted)))
      out.push({
        path: [...at, "contains", i],
        message: `expected a log entry ${describeLog(wanted)}; ${summary}.`,
      });
  });
  log.notContains?.forEach((wanted, i) => {
    const hit = seen.logs.find((l) => logMatches(l, wanted));
    if (hit)
      out.push({
        path: [...at, "notContains", i],
        message: `expected no log entry ${describeLog(wanted)}; found ${hit.type} "${clip(hit.message)}".`,
      });
  });
  return out;
}

function describeLog(wanted: string): string {
  return (LOG_TYPES as readonly string[]).includes(wanted) ? `of type ${wanted}` : `containing "${wanted}"`;
}

export function checkPrompts(prompts: string[], seen: Observed, at: JsonPath): Mismatch[] {
  const got = seen.prompts.map((p) => p.quest);
  const same = prompts.length === got.length && prompts.every((q) => got.includes(q));
  if (same) return [];
  return [
    {
      path: at,
      message: `expected acceptance prompts for [${prompts.join(", ")}], got [${got.join(", ")}].`,
    },
  ];
}

function show(value: unknown): string {
  try {
    return clip(JSON.stringify(value) ?? String(value), 120);
  } catch {
    return String(value);
  }
}

function clip(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
