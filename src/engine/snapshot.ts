import { flatKnown, knownMap } from "./known.ts";
import { setOwn } from "./own.ts";
import type { CheckSnapshot } from "./ports.ts";
import type { SessionState } from "./state.ts";
import type { WorldIndex } from "./world-index.ts";

/**
 * The view of the state that conditions and script `check()` read (spec 2.2,
 * 4). Taken at the start of a phase for conditions, and afresh before each
 * script so that later scripts see earlier effects.
 */
export function takeSnapshot(
  state: SessionState,
  index: WorldIndex,
  actions: readonly string[],
): CheckSnapshot {
  const world = index.world;
  const questStatus: Record<string, string> = {};
  const questsCompleted: string[] = [];
  for (const key of Object.keys(world.quests)) {
    const status = Object.hasOwn(state.quests, key) ? state.quests[key]!.status : "hidden";
    setOwn(questStatus, key, status);
    if (status === "completed") questsCompleted.push(key);
  }
  const eventStatus: Record<string, string> = {};
  for (const key of Object.keys(world.narrativeEvents ?? {})) {
    setOwn(eventStatus, key, Object.hasOwn(state.events, key) ? state.events[key]!.status : "inactive");
  }
  const { realm, region, location, area } = state.position;
  return {
    tick: state.tick,
    position: { realm, region, location, area },
    characters: state.party.map((c) => ({
      name: c.name,
      level: c.level,
      resources: Object.fromEntries(Object.entries(c.resources).map(([k, v]) => [k, v.current])),
      traits: [...c.traits],
    })),
    known: knownMap(state, index),
    questsCompleted,
    questStatus,
    eventStatus,
    storyText: latestStory(state),
    actions: [...actions],
  };
}

/** A snapshot for a script call: plain data only (the known map flattened), the script's own copy. */
export function scriptSnapshot(
  state: SessionState,
  index: WorldIndex,
  actions: readonly string[],
): CheckSnapshot {
  return { ...takeSnapshot(state, index, actions), known: flatKnown(state, index) };
}

export function latestStory(state: SessionState): string {
  return state.history.story.at(-1)?.text ?? "";
}
