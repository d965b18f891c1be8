import type { DiffEntry, SessionState, TurnResult } from "../engine/index.ts";
import { nextStepOf } from "../engine/index.ts";
import type { World } from "../world/schema/index.ts";

/**
 * What players may see, built field by field from allow-lists: a field the
 * world or the state adds later is not shown until it is listed here. So
 * `hiddenInfo`, trigger maps, storage and the author's log never reach a
 * player (the host's routes return those on purpose).
 */

export function worldSummary(world: World, hash: string, name: string) {
  return {
    hash,
    name,
    background: world.storySettings.worldBackground,
    storyStarts: Object.values(world.storyStarts).map((s) => ({ name: s.name, description: s.description })),
    premadeCharacters: world.premadeCharacters.map((p) => p.name),
    gameModes: Object.values(world.gameModes).map((m) => ({
      name: m.name,
      description: m.description,
      ...(m.difficulty !== undefined ? { difficulty: m.difficulty } : {}),
    })),
    realms: Object.keys(world.realms),
    traitCategories: Object.values(world.traitCategories).map((c) => ({
      name: c.name,
      maxSelections: c.maxSelections,
      traits: c.traits.map((t) => ({ name: t, description: world.traits[t]?.description ?? "" })),
    })),
  };
}

export function premades(world: World) {
  return world.premadeCharacters.map((p) => ({
    name: p.name,
    gender: p.gender,
    description: p.description,
    traits: p.traits,
    attributes: p.attributes,
    ...(p.backstory !== undefined ? { backstory: p.backstory } : {}),
  }));
}

export function storyStarts(world: World) {
  return Object.values(world.storyStarts).map((s) => ({
    name: s.name,
    description: s.description,
    ...(s.isDefault !== undefined ? { isDefault: s.isDefault } : {}),
  }));
}

/** The state as the party knows it: where it is, who is in it, its journal. */
export function playerState(state: SessionState, world: World) {
  return {
    tick: state.tick,
    position: {
      realm: state.position.realm,
      region: state.position.region,
      location: state.position.location,
      area: state.position.area,
    },
    party: state.party.map((c) => ({
      name: c.name,
      kind: c.kind,
      level: c.level,
      xp: c.xp,
      resources: c.resources,
      traits: c.traits,
      abilities: c.abilities,
      items: c.items,
      attributes: c.attributes,
      skills: c.skills,
    })),
    quests: Object.entries(state.quests)
      .filter(([, q]) => q.status !== "hidden")
      .map(([key, q]) => {
        const record = world.quests[key];
        return {
          quest: key,
          status: q.status,
          statement: record?.questStatement ?? "",
          mainObjective: record?.mainObjective ?? "",
          objectives: Object.entries(q.objectives)
            .filter(([, status]) => status !== "hidden")
            .map(([id, status]) => ({ id, status, text: record?.objectives?.[id]?.text ?? id })),
          nextStep: q.nextStep?.text ?? null,
        };
      }),
    /** What the party should do next, as the game stands (next-step.ts): the story never says it. */
    nextStep: nextStepOf(state, world),
  };
}

/** The parts of a state diff players see: the party, its position, its journal and what it came to know. */
const VISIBLE_DIFF = new Set(["party", "position", "quests", "partyNextStep", "known"]);

/** A character's fields players see (as in `playerState`): never its storage or an author's notes. */
const PARTY_FIELDS = [
  "name",
  "kind",
  "level",
  "xp",
  "resources",
  "traits",
  "abilities",
  "items",
  "attributes",
  "skills",
];

/** The quests of a state as far as the projection needs them: each one's status and its objectives'. */
export type QuestStatuses = Record<string, { status: string; objectives: Record<string, string> }>;

/**
 * A turn's result as players see it: the one projection every player route and event uses (the turn
 * event, the transcript, the state). `quests` is the state after the turn: a change to a quest or an
 * objective hidden then is not shown, nor is a hidden one's id or name inside a changed value.
 */
export function playerResult(result: TurnResult, quests?: QuestStatuses) {
  return {
    tick: result.tick,
    story: result.story,
    intent: result.intent?.intent ?? null,
    fired: result.trace.phases.flatMap((phase) =>
      phase.triggers
        .filter((t) => t.fired)
        .map((t) => ({ trigger: t.trigger, phase: phase.phase, players: t.targets })),
    ),
    prompts: result.prompts,
    changes: visibleDiff(result.diff, quests),
    tip: result.tip,
    /** The next step after all of the turn's changes (the narration is written before some of them). */
    next: result.next,
    /** In a party: the story's paragraphs with the character each tells of (a page marks its viewer's). */
    segments: result.segments ?? null,
  };
}

/**
 * A stored step's result as players see it: results stored by an older version may hold changes of
 * hidden quests and objectives, so their `changes` are projected again (without the state, by what
 * the changes themselves say).
 */
export function storedPlayerResult(result: unknown): unknown {
  if (!result || typeof result !== "object" || !Array.isArray((result as { changes?: unknown }).changes))
    return result;
  const r = result as { changes: DiffEntry[] };
  return { ...r, changes: visibleDiff(r.changes) };
}

export function visibleDiff(diff: DiffEntry[], quests?: QuestStatuses): DiffEntry[] {
  const out: DiffEntry[] = [];
  for (const d of diff) {
    const root = String(d.path[0]);
    if (!VISIBLE_DIFF.has(root)) continue;
    const seen =
      root === "quests" ? visibleQuestChange(d, quests) : root === "party" ? visiblePartyChange(d) : d;
    if (seen) out.push(seen);
  }
  return out;
}

/** A change of the journal, without hidden quests and objectives; null when nothing of it is visible. */
function visibleQuestChange(d: DiffEntry, quests: QuestStatuses | undefined): DiffEntry | null {
  const [, quest, field, objective] = d.path;
  const redact = (value: unknown, redactor: (v: unknown) => unknown) =>
    value === undefined ? undefined : redactor(value);
  if (quest === undefined) return withValues(d, (v) => redact(v, (all) => visibleQuestMap(all, quests)));
  const key = String(quest);
  const now = quests?.[key];
  if (now?.status === "hidden" || d.path.includes("transitions")) return null;
  if (field === undefined) {
    if (isHiddenQuest(d.after) || (d.after === undefined && isHiddenQuest(d.before))) return null;
    return withValues(d, (v) => redact(v, (q) => visibleQuest(q, now)));
  }
  if (field === "status") return d.after === "hidden" ? null : d;
  if (field === "objectives") {
    if (objective === undefined) return withValues(d, (v) => redact(v, (o) => visibleObjectives(o, now)));
    if (d.after === "hidden" || now?.objectives[String(objective)] === "hidden") return null;
    if (d.after === undefined && d.before === "hidden") return null;
    return d;
  }
  return d.after === "hidden" ? null : d;
}

function withValues(d: DiffEntry, f: (value: unknown) => unknown): DiffEntry | null {
  const out: DiffEntry = { path: d.path };
  if ("before" in d) out.before = f(d.before);
  if ("after" in d) out.after = f(d.after);
  if (out.after === HIDDEN && (out.before === HIDDEN || out.before === undefined)) return null;
  if (out.after === HIDDEN) delete out.after;
  if (out.before === HIDDEN) delete out.before;
  return out;
}

/** Marks a value that is wholly hidden. */
const HIDDEN = Symbol("hidden");

function isHiddenQuest(value: unknown): boolean {
  return isRecord(value) && value.status === "hidden";
}

function visibleQuestMap(value: unknown, quests: QuestStatuses | undefined): unknown {
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, quest] of Object.entries(value)) {
    if (isHiddenQuest(quest) || quests?.[key]?.status === "hidden") continue;
    out[key] = visibleQuest(quest, quests?.[key]);
  }
  return out;
}

function visibleQuest(value: unknown, now: QuestStatuses[string] | undefined): unknown {
  if (!isRecord(value)) return value;
  if (value.status === "hidden") return HIDDEN;
  const { transitions: _transitions, ...rest } = value;
  return "objectives" in rest ? { ...rest, objectives: visibleObjectives(rest.objectives, now) } : rest;
}

function visibleObjectives(value: unknown, now: QuestStatuses[string] | undefined): unknown {
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).filter(([id, status]) => status !== "hidden" && now?.objectives[id] !== "hidden"),
  );
}

/** A change of the party, with only the fields players see of a character. */
function visiblePartyChange(d: DiffEntry): DiffEntry | null {
  const [, , field] = d.path;
  if (field !== undefined) return PARTY_FIELDS.includes(String(field)) ? d : null;
  const character = (value: unknown) =>
    isRecord(value)
      ? Object.fromEntries(PARTY_FIELDS.filter((f) => f in value).map((f) => [f, value[f]]))
      : value;
  if (d.path.length === 2) return withValues(d, (v) => (v === undefined ? undefined : character(v)));
  return withValues(d, (v) => (Array.isArray(v) ? v.map(character) : v));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The quests of a state as the projection reads them. */
export function questStatuses(state: SessionState): QuestStatuses {
  return Object.fromEntries(
    Object.entries(state.quests).map(([key, q]) => [
      key,
      { status: q.status, objectives: { ...q.objectives } },
    ]),
  ) as QuestStatuses;
}

/**
 * The player characters of a started game's party that nobody has joined as (an imported game's, until
 * its players claim them). A kicked player's character is not among them: their seat is not reopened.
 */
export function unclaimed(
  party: readonly { kind: string; name: string }[],
  players: readonly { name: string; status?: string }[],
) {
  // A seat the host freed ("open") is free to take again.
  const taken = new Set(players.filter((p) => p.status !== "open").map((p) => p.name));
  return party.filter((c) => c.kind === "player" && !taken.has(c.name)).map((c) => c.name);
}

/** The narrative events a step started or ended (from its whole diff): the notes players see between turns. */
export function narrativeNotes(diff: readonly DiffEntry[], world: World, tick: number) {
  const notes: { tick: number; event: string; status: "active" | "completed" | "stopped" }[] = [];
  for (const entry of diff) {
    const status = eventStatus(entry);
    if (status === undefined) continue;
    const key = String(entry.path[1]);
    notes.push({ tick, event: world.narrativeEvents?.[key]?.title ?? key, status });
  }
  return notes;
}

/** A diff entry that moved a narrative event to active, completed or stopped. */
function eventStatus(entry: DiffEntry): "active" | "completed" | "stopped" | undefined {
  if (entry.path[0] !== "events") return undefined;
  const after =
    entry.path.length === 2
      ? (entry.after as { status?: unknown } | undefined)?.status
      : entry.path[2] === "status"
        ? entry.after
        : undefined;
  return after === "active" || after === "completed" || after === "stopped" ? after : undefined;
}
