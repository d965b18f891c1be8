import type { World } from "../world/schema/index.ts";
import { hashText } from "./hash.ts";
import type { JsonObject } from "./ports.ts";
import type { SessionState } from "./state.ts";
import { editProblems } from "./trigger-edits.ts";
import type { WorldIndex } from "./world-index.ts";

/**
 * A saved state checked against the world it is resumed on (issue 15 item 12,
 * issue 16 item 9). A save can parse and still describe an impossible game:
 * a party in a place the world lacks, a resource above its maximum, two
 * players of one name, a trigger a script left malformed. Each such problem
 * is one `problems` entry, and the save is refused.
 *
 * When the world was edited since the save (its hash differs), what the edit
 * made stale is reconciled where the game stays sound: quests, objectives and
 * events the world no longer has are dropped, a consumed trigger that is gone
 * is forgotten, a renamed area falls back to the location's first; each is
 * one `changes` entry, which the player is shown. What cannot be reconciled
 * (the party's region or location is gone, …) stays a problem. On the very
 * world of the save, every inconsistency is a problem: nothing can have
 * changed, so the save was damaged or forged.
 */
export interface SaveCheck {
  /** Why the save cannot be resumed, one sentence each; empty when it can. */
  problems: string[];
  /** What the world's edit changed that matters to this game, one sentence each. */
  changes: string[];
  /** The state, reconciled with the world (a copy when anything was changed). */
  state: SessionState;
}

/** Fingerprints of the world parts a save depends on, to tell an edited trigger or quest from an unchanged one. */
export interface WorldParts {
  triggers: Record<string, string>;
  quests: Record<string, string>;
}

const partHashes = new WeakMap<object, string>();

function partHash(value: object): string {
  let hash = partHashes.get(value);
  if (hash === undefined) {
    hash = hashText(JSON.stringify(value)).slice(0, 16);
    partHashes.set(value, hash);
  }
  return hash;
}

/** What a save records of the world: the triggers it consumed or scripts edited, the quests it touched. */
export function worldPartsOf(index: WorldIndex, state: SessionState): WorldParts {
  const triggers: Record<string, string> = {};
  const keys = new Set([...Object.keys(state.consumed), ...Object.keys(state.triggerEdits.overrides)]);
  for (const key of keys) {
    const trigger = Object.hasOwn(index.baseTriggers, key) ? index.baseTriggers[key] : undefined;
    if (trigger) define(triggers, key, partHash(trigger));
  }
  const quests: Record<string, string> = {};
  for (const name of Object.keys(state.quests)) {
    const quest = Object.hasOwn(index.world.quests, name) ? index.world.quests[name] : undefined;
    if (quest) define(quests, name, partHash(quest));
  }
  return { triggers, quests };
}

export function checkSave(
  index: WorldIndex,
  given: SessionState,
  edited: boolean,
  parts: Partial<WorldParts> | undefined,
): SaveCheck {
  const world = index.world;
  const problems: string[] = [];
  const changes: string[] = [];
  const state = structuredClone(given);
  /** A stale reference: a change to reconcile on an edited world, a problem on the save's own world. */
  const stale = (problem: string, change: string, fix: () => void) => {
    if (edited) {
      changes.push(change);
      fix();
    } else problems.push(problem);
  };
  const has = (map: object | undefined, key: string) => map !== undefined && Object.hasOwn(map, key);

  if (!has(world.storyStarts, state.storyStart))
    stale(
      `The story start "${state.storyStart}" is not in the world.`,
      `The story start "${state.storyStart}" is gone from the world (the game goes on without it).`,
      () => {},
    );

  checkParty(world, state, problems, stale);
  checkPosition(world, state, problems, stale);

  for (const [name, quest] of Object.entries(state.quests)) {
    const defined = has(world.quests, name) ? world.quests[name]! : undefined;
    if (!defined) {
      stale(
        `The save holds quest "${name}", which the world does not define.`,
        `Quest "${name}" (${quest.status} in this game) is gone from the world; its progress is dropped.`,
        () => delete state.quests[name],
      );
      continue;
    }
    const objectives = defined.objectives ?? {};
    for (const id of Object.keys(quest.objectives)) {
      if (has(objectives, id)) continue;
      stale(
        `Quest "${name}" has objective "${id}" in the save, which the world does not define.`,
        `Objective "${id}" of quest "${name}" is gone from the world; its status is dropped.`,
        () => delete state.quests[name]!.objectives[id],
      );
    }
    const active = quest.activeObjectiveId;
    if (active !== null && !has(objectives, active))
      stale(
        `Quest "${name}" has active objective "${active}", which the world does not define.`,
        `The active objective "${active}" of quest "${name}" is gone; the quest has no active objective now.`,
        () => {
          state.quests[name]!.activeObjectiveId = null;
        },
      );
    const before = parts?.quests?.[name];
    if (edited && before !== undefined && before !== partHash(defined) && quest.status !== "hidden")
      changes.push(`Quest "${name}" (${quest.status} in this game) was edited in the world.`);
  }

  for (const key of Object.keys(state.events)) {
    if (has(world.narrativeEvents, key)) continue;
    stale(
      `The save holds narrative event "${key}", which the world does not define.`,
      `Narrative event "${key}" is gone from the world; its state is dropped.`,
      () => delete state.events[key],
    );
  }

  checkTriggers(index, state, problems, changes, stale, edited, parts);
  return { problems, changes, state };
}

type Stale = (problem: string, change: string, fix: () => void) => void;

function checkParty(world: World, state: SessionState, problems: string[], stale: Stale): void {
  const seen = new Set<string>();
  for (const character of state.party) {
    const who = `${character.kind === "npc" ? "Companion" : "Player"} "${character.name}"`;
    if (seen.has(character.name))
      problems.push(`Two party members are named "${character.name}"; names must be unique.`);
    seen.add(character.name);
    if (character.kind === "npc" && !Object.hasOwn(world.npcs, character.name))
      stale(
        `${who} is not an NPC of the world.`,
        `${who} is no longer an NPC of the world; they stay in the party.`,
        () => {},
      );
    for (const [key, value] of Object.entries(character.resources)) {
      if (value.current > value.max)
        problems.push(`${who} has ${key} ${value.current}, above its maximum ${value.max}.`);
      if (!Object.hasOwn(world.resourceSettings, key))
        stale(
          `${who} has resource "${key}", which the world does not define.`,
          `Resource "${key}" is gone from the world; ${who} keeps the value.`,
          () => {},
        );
    }
    for (const trait of character.traits)
      if (!Object.hasOwn(world.traits, trait))
        stale(
          `${who} has trait "${trait}", which the world does not define.`,
          `Trait "${trait}" of ${who} is gone from the world; the character keeps its effects.`,
          () => {},
        );
    for (const item of Object.keys(character.items))
      if (!Object.hasOwn(world.items, item))
        stale(
          `${who} carries item "${item}", which the world does not define.`,
          `Item "${item}" carried by ${who} is gone from the world; it stays in the inventory as a name.`,
          () => {},
        );
  }
}

function checkPosition(world: World, state: SessionState, problems: string[], stale: Stale): void {
  const at = state.position;
  const place = [at.area, at.location, at.region, at.realm].filter((p) => p !== "").join(", ");
  // A world without places (minimal worlds, mods) starts the party nowhere: all four are "".
  if (at.region === "" && at.location === "" && at.area === "") return;
  const region = Object.hasOwn(world.regions, at.region) ? world.regions[at.region]! : undefined;
  if (!region) {
    problems.push(
      `The party is in region "${at.region}" (at ${place}), which the world does not define; there is nowhere to resume.`,
    );
    return;
  }
  const realm = region.realm ?? "";
  if (at.realm !== realm)
    stale(
      `The party's realm "${at.realm}" is not the realm of region "${at.region}" ("${realm}").`,
      `Region "${at.region}" now belongs to realm "${realm}" (was "${at.realm}").`,
      () => {
        state.position.realm = realm;
      },
    );
  if (at.location === "") {
    if (at.area !== "") problems.push(`The party is in area "${at.area}" but in no location.`);
    return;
  }
  const location = Object.hasOwn(world.locations, at.location) ? world.locations[at.location]! : undefined;
  if (!location || location.region !== at.region) {
    problems.push(
      location
        ? `The party is at location "${at.location}", which is in region "${location.region}", not "${at.region}".`
        : `The party is at location "${at.location}" (${place}), which the world does not define; there is nowhere to resume.`,
    );
    return;
  }
  const areas = Object.keys(location.areas ?? {});
  if (at.area === "" ? areas.length === 0 : areas.includes(at.area)) return;
  const fallback = areas[0] ?? "";
  stale(
    `The party is in area "${at.area}", which location "${at.location}" does not have.`,
    `Area "${at.area}" of "${at.location}" is gone; the party is now at ${fallback === "" ? "the location itself" : `"${fallback}"`}.`,
    () => {
      state.position.area = fallback;
    },
  );
}

function checkTriggers(
  index: WorldIndex,
  state: SessionState,
  problems: string[],
  changes: string[],
  stale: Stale,
  edited: boolean,
  parts: Partial<WorldParts> | undefined,
): void {
  const base = index.baseTriggers;
  const edits = state.triggerEdits;
  const added = new Set(edits.added);
  for (const key of edits.added)
    if (!Object.hasOwn(edits.overrides, key))
      problems.push(
        `Trigger "${key}" is listed as added by a script, but the save holds no definition of it.`,
      );
  for (const key of Object.keys(edits.overrides)) {
    if (added.has(key) || Object.hasOwn(base, key)) continue;
    stale(
      `The save holds a script's version of trigger "${key}", which the world does not define.`,
      `Trigger "${key}", which a script had changed in this game, is gone from the world; the script's version is dropped.`,
      () => delete edits.overrides[key],
    );
  }
  // Script-made triggers go through the same checks as when a script first wrote them.
  const overridden = Object.keys(edits.overrides).length > 0;
  for (const problem of overridden ? editProblems(index, edits.overrides as JsonObject) : [])
    problems.push(`A trigger a script changed in this game is invalid: ${problem}`);
  edits.deleted = edits.deleted.filter((key) => {
    if (Object.hasOwn(base, key) || added.has(key)) return true;
    stale(
      `Trigger "${key}" is listed as deleted by a script, but the world does not define it.`,
      `Trigger "${key}", which a script had deleted, is gone from the world too.`,
      () => {},
    );
    return !edited;
  });
  for (const key of Object.keys(state.consumed)) {
    const trigger = Object.hasOwn(base, key) ? base[key] : undefined;
    if (!trigger && !added.has(key)) {
      stale(
        `The save marks trigger "${key}" as fired, but the world does not define it.`,
        `Trigger "${key}", which fired in this game, is gone from the world.`,
        () => delete state.consumed[key],
      );
      continue;
    }
    const before = parts?.triggers?.[key];
    if (edited && trigger && before !== undefined && before !== partHash(trigger))
      changes.push(`Trigger "${key}" was edited in the world after it fired in this game; it stays spent.`);
  }
  for (const key of Object.keys(edits.overrides)) {
    const trigger = Object.hasOwn(base, key) ? base[key] : undefined;
    const before = parts?.triggers?.[key];
    if (edited && trigger && !added.has(key) && before !== undefined && before !== partHash(trigger))
      changes.push(
        `Trigger "${key}" was edited in the world, but a script had changed it in this game: the script's version stays.`,
      );
  }
}

function define(map: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
}
