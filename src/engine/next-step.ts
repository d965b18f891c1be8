import type { World } from "../world/schema/index.ts";
import { own } from "./own.ts";
import type { SessionState } from "./state.ts";

/**
 * What the party should do next, read from a state: the party's next step,
 * else the next step of an accepted quest, else of an available one; null
 * when there is none. A turn's result carries it computed after all the
 * turn's changes (spec 2.2 runs the state phase after the narration, so a
 * narrator cannot know it: issue 14 item 5), and front ends show it from there.
 *
 * A step that names an objective already completed is never the next one:
 * the party's next step is set by a trigger and may still name what the party
 * has just done (an arrival trigger completing "Travel to the Old Lighthouse").
 */
export function nextStepOf(state: SessionState, world: World): string | null {
  // Plain loops, no closures: this runs once per turn, mostly before V8 has optimised it.
  const done: string[] = [];
  for (const key in state.quests) {
    if (!Object.hasOwn(state.quests, key)) continue;
    const objectives = own(world.quests, key)?.objectives;
    const statuses = state.quests[key]!.objectives;
    for (const id in statuses) {
      if (!Object.hasOwn(statuses, id) || statuses[id] !== "completed") continue;
      const text = own(objectives, id)?.text;
      if (text) done.push(stepKey(text));
    }
  }
  if (isOpen(state.partyNextStep?.text, done)) return state.partyNextStep!.text;
  for (const status of ["accepted", "available"]) {
    for (const key in state.quests) {
      if (!Object.hasOwn(state.quests, key)) continue;
      const quest = state.quests[key]!;
      if (quest.status === status && isOpen(quest.nextStep?.text, done)) return quest.nextStep!.text;
    }
  }
  return null;
}

/**
 * Whether a step is still to do: not blank, and not an objective already completed, that is the
 * same step or one reworded longer or shorter ("Travel to the Old Lighthouse" and "... on the Gull
 * Coast"); a short common start ("Travel") is not enough.
 */
function isOpen(text: string | undefined, done: readonly string[]): text is string {
  if (!text?.trim()) return false;
  const key = stepKey(text);
  for (const d of done) {
    if (key === d) return false;
    if (Math.min(d.length, key.length) >= 12 && (key.startsWith(d) || d.startsWith(key))) return false;
  }
  return true;
}

/**
 * Whether `next` only repeats the start of a step already shown ("Find Mara Venn at the Gutted
 * Eel." after "Find Mara Venn at the Gutted Eel: she is asking after her father."), so a front end
 * need not show it again. A short common start ("Travel") is not enough.
 */
export function restatesStep(next: string, shown: string | null): boolean {
  if (shown === null) return false;
  const key = stepKey(next);
  return key.length >= 12 && stepKey(shown).startsWith(key);
}

/** A step's words for comparison: lower case, single spaces, no closing punctuation. */
function stepKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[.!\s]+$/, "")
    .trim();
}
