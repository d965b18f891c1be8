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

/** A turn's result as players see it. */
export function playerResult(result: TurnResult) {
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
    changes: visibleDiff(result.diff),
    tip: result.tip,
    /** The next step after all of the turn's changes (the narration is written before some of them). */
    next: result.next,
  };
}

export function visibleDiff(diff: DiffEntry[]): DiffEntry[] {
  return diff.filter((d) => VISIBLE_DIFF.has(String(d.path[0])) && !isHiddenQuestPath(d));
}

/** Objectives that stay hidden are not news. */
function isHiddenQuestPath(d: DiffEntry): boolean {
  return d.path[0] === "quests" && (d.after === "hidden" || d.path.includes("transitions"));
}

/**
 * The player characters of a started game's party that nobody has joined as (an imported game's, until
 * its players claim them). A kicked player's character is not among them: their seat is not reopened.
 */
export function unclaimed(
  party: readonly { kind: string; name: string }[],
  players: readonly { name: string }[],
) {
  const taken = new Set(players.map((p) => p.name));
  return party.filter((c) => c.kind === "player" && !taken.has(c.name)).map((c) => c.name);
}
