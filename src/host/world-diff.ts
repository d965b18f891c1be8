import type { SessionState } from "../engine/index.ts";

type Position = SessionState["position"];

/**
 * What differs in the world between two points of a game's history (issue 33),
 * as typed data: where the party is and who is in it, quests and objectives,
 * narrative events, known flags, storage, traits and items, and the triggers
 * consumed. `renderWorldDiff` says it in lines; the web shows the same data
 * its own way. A difference is from `a` (before) to `b` (after).
 */
export type WorldChange =
  | { kind: "position"; before: Position; after: Position }
  | { kind: "party"; member: string; change: "joined" | "left" }
  | { kind: "quest"; quest: string; before: string; after: string }
  | { kind: "objective"; quest: string; objective: string; before: string; after: string }
  | { kind: "event"; event: string; before: string; after: string }
  | { kind: "flag"; entity: string; before: boolean | null; after: boolean | null }
  | { kind: "storage"; key: string; before?: unknown; after?: unknown }
  | { kind: "trait"; member: string; trait: string; change: "gained" | "lost" }
  | { kind: "item"; member: string; item: string; before: number; after: number }
  | { kind: "trigger"; trigger: string; before: number | null; after: number | null };

export interface WorldDiff {
  /** The turns compared. */
  from: number;
  to: number;
  changes: WorldChange[];
}

/**
 * What a player is shown of a diff: the party's place and members, quests and objectives, traits and
 * items, as their journal, map and party show them. Narrative events, flags, storage and the triggers
 * consumed are the world's workings (an author's secrets, a spoiler to a player): the host's to see.
 */
export const PARTY_CHANGE_KINDS: ReadonlySet<WorldChange["kind"]> = new Set([
  "position",
  "party",
  "quest",
  "objective",
  "trait",
  "item",
]);

/** A diff as a player is shown it (`PARTY_CHANGE_KINDS`). */
export function diffForParty(diff: WorldDiff): WorldDiff {
  return { ...diff, changes: diff.changes.filter((change) => PARTY_CHANGE_KINDS.has(change.kind)) };
}

export function diffWorld(a: Readonly<SessionState>, b: Readonly<SessionState>): WorldDiff {
  const changes: WorldChange[] = [];
  const pa = a.position;
  const pb = b.position;
  if (pa.realm !== pb.realm || pa.region !== pb.region || pa.location !== pb.location || pa.area !== pb.area)
    changes.push({ kind: "position", before: { ...pa }, after: { ...pb } });
  const membersA = new Map(a.party.map((c) => [c.name, c]));
  const membersB = new Map(b.party.map((c) => [c.name, c]));
  for (const name of membersB.keys())
    if (!membersA.has(name)) changes.push({ kind: "party", member: name, change: "joined" });
  for (const name of membersA.keys())
    if (!membersB.has(name)) changes.push({ kind: "party", member: name, change: "left" });

  for (const quest of keysOf(a.quests, b.quests)) {
    const qa = a.quests[quest];
    const qb = b.quests[quest];
    const sa = qa?.status ?? "hidden";
    const sb = qb?.status ?? "hidden";
    if (sa !== sb) changes.push({ kind: "quest", quest, before: sa, after: sb });
    for (const objective of keysOf(qa?.objectives ?? {}, qb?.objectives ?? {})) {
      const oa = qa?.objectives[objective] ?? "hidden";
      const ob = qb?.objectives[objective] ?? "hidden";
      if (oa !== ob) changes.push({ kind: "objective", quest, objective, before: oa, after: ob });
    }
  }
  for (const event of keysOf(a.events, b.events)) {
    const ea = a.events[event]?.status ?? "inactive";
    const eb = b.events[event]?.status ?? "inactive";
    if (ea !== eb) changes.push({ kind: "event", event, before: ea, after: eb });
  }
  for (const entity of keysOf(a.known, b.known)) {
    const ka = Object.hasOwn(a.known, entity) ? a.known[entity]! : null;
    const kb = Object.hasOwn(b.known, entity) ? b.known[entity]! : null;
    if (ka !== kb) changes.push({ kind: "flag", entity, before: ka, after: kb });
  }
  for (const key of keysOf(a.storage, b.storage)) {
    const inA = Object.hasOwn(a.storage, key);
    const inB = Object.hasOwn(b.storage, key);
    const va = inA ? a.storage[key] : undefined;
    const vb = inB ? b.storage[key] : undefined;
    if (inA && inB && JSON.stringify(va) === JSON.stringify(vb)) continue;
    changes.push({ kind: "storage", key, ...(inA ? { before: va } : {}), ...(inB ? { after: vb } : {}) });
  }
  for (const [name, cb] of membersB) {
    const ca = membersA.get(name);
    if (!ca) continue;
    for (const trait of cb.traits)
      if (!ca.traits.includes(trait)) changes.push({ kind: "trait", member: name, trait, change: "gained" });
    for (const trait of ca.traits)
      if (!cb.traits.includes(trait)) changes.push({ kind: "trait", member: name, trait, change: "lost" });
    for (const item of keysOf(ca.items, cb.items)) {
      const before = ca.items[item] ?? 0;
      const after = cb.items[item] ?? 0;
      if (before !== after) changes.push({ kind: "item", member: name, item, before, after });
    }
  }
  for (const trigger of keysOf(a.consumed, b.consumed)) {
    const ta = Object.hasOwn(a.consumed, trigger) ? a.consumed[trigger]! : null;
    const tb = Object.hasOwn(b.consumed, trigger) ? b.consumed[trigger]! : null;
    if (ta !== tb) changes.push({ kind: "trigger", trigger, before: ta, after: tb });
  }
  return { from: a.tick, to: b.tick, changes };
}

/** Keys of either record, `a`'s first, each once. */
function keysOf(a: object, b: object): string[] {
  const keys = Object.keys(a);
  const seen = new Set(keys);
  for (const key of Object.keys(b)) if (!seen.has(key)) keys.push(key);
  return keys;
}

/** At most this many characters of a stored value in a line. */
const VALUE_CHARS = 60;

/**
 * The diff in lines, one change each, grouped in the order of WorldChange. `clean` makes outside
 * text (keys and values come from the world and its scripts) safe to print.
 */
export function renderWorldDiff(diff: WorldDiff, clean: (text: string) => string = (t) => t): string[] {
  if (diff.changes.length === 0) return ["Nothing differs in the world."];
  return diff.changes.map((c) => changeLine(c, clean));
}

function changeLine(c: WorldChange, clean: (text: string) => string): string {
  const q = (text: string) => `"${clean(text)}"`;
  switch (c.kind) {
    case "position":
      return `Place: ${clean(placeOf(c.before))} -> ${clean(placeOf(c.after))}`;
    case "party":
      return `Party: ${clean(c.member)} ${c.change === "joined" ? "is in the party" : "is not in the party"}`;
    case "quest":
      return `Quest ${q(c.quest)}: ${c.before} -> ${c.after}`;
    case "objective":
      return `Objective ${q(c.objective)} of ${q(c.quest)}: ${c.before} -> ${c.after}`;
    case "event":
      return `Event ${q(c.event)}: ${c.before} -> ${c.after}`;
    case "flag":
      return `Known ${q(c.entity)}: ${flag(c.before)} -> ${flag(c.after)}`;
    case "storage":
      return `Storage ${q(c.key)}: ${value(c.before, clean)} -> ${value(c.after, clean)}`;
    case "trait":
      return `${clean(c.member)} ${c.change === "gained" ? "has" : "lacks"} trait ${q(c.trait)}`;
    case "item":
      return `${clean(c.member)}: ${q(c.item)} ${c.before} -> ${c.after}`;
    case "trigger":
      return `Trigger ${q(c.trigger)}: ${fired(c.before)} -> ${fired(c.after)}`;
  }
}

function placeOf(p: Position): string {
  return p.area && p.area !== p.location ? `${p.location} (${p.area})` : p.location;
}

function flag(value: boolean | null): string {
  return value === null ? "default" : value ? "known" : "unknown";
}

function fired(tick: number | null): string {
  return tick === null ? "not fired" : `fired on turn ${tick}`;
}

function value(v: unknown, clean: (text: string) => string): string {
  if (v === undefined) return "(none)";
  const text = JSON.stringify(v) ?? String(v);
  return clean(text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS - 1)}…` : text);
}
