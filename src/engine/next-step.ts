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
  const done: string[] = [];
  for (const [key, quest] of Object.entries(state.quests)) {
    const objectives = own(world.quests, key)?.objectives;
    for (const [id, status] of Object.entries(quest.objectives)) {
      const text = status === "completed" ? own(objectives, id)?.text : undefined;
      if (text) done.push(stepKey(text));
    }
  }
  const open = (text: string | undefined): text is string => {
    if (!text?.trim()) return false;
    const key = stepKey(text);
    // The same step, or one reworded longer or shorter ("Travel to the Old Lighthouse" and "... on
    // the Gull Coast"); a short common start ("Travel") is not enough.
    const same = (d: string) =>
      Math.min(d.length, key.length) >= 12 && (key.startsWith(d) || d.startsWith(key));
    return !done.some((d) => key === d || same(d));
  };
  const quests = Object.values(state.quests);
  const step = [
    state.partyNextStep?.text,
    ...quests.filter((q) => q.status === "accepted").map((q) => q.nextStep?.text),
    ...quests.filter((q) => q.status === "available").map((q) => q.nextStep?.text),
  ].find(open);
  return step ?? null;
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
