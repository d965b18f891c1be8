import type { WorldFacts } from "./facts.ts";
import type { NameIndex } from "./names.ts";
import type { Position } from "./request.ts";
import { placeName, placePhrase } from "./templates.ts";
import { capitalise, tokenize } from "./text.ts";

/**
 * A stranger's first questions, answered from the map (what `/map` and the browser's map show,
 * never a hidden field): "where am I" says where the party stands, "where is the Gutted Eel" in
 * which region a place the player named lies and how to go there. Null for any other words.
 * `here`: the answer stands for the words ("where am I" is answered, not said); else it follows them.
 */
const HERE =
  /^(?:so\s+)?(?:where\s+(?:am\s+i|are\s+we|is\s+this(?:\s+place)?)|what\s+is\s+this\s+place|what\s+place\s+is\s+this)\s*[?!.]*$/i;
const WHERE_IS =
  /^(?:so\s+)?(?:where(?:'s|\s+is|\s+are|\s+can\s+i\s+find|\s+do\s+i\s+find)|how\s+do\s+(?:i|we)\s+(?:get|go)\s+to)\b/i;

export function whereAnswer(
  action: string,
  position: Position,
  facts: WorldFacts,
  locations: NameIndex,
): { text: string; here: boolean } | null {
  const text = action.trim();
  if (HERE.test(text)) {
    if (position.area === "" && position.location === "") return null;
    return { text: `You are at ${placePhrase(position, facts.proper)}.`, here: true };
  }
  if (!WHERE_IS.test(text)) return null;
  const named = locations.match(tokenize(text))[0];
  if (!named) return null;
  const place = named.name;
  if (place === position.location)
    return { text: `You are at ${placeName(place, facts.proper)}.`, here: true };
  const region = [...facts.regionLocations.entries()].find(([, list]) => list.includes(place))?.[0];
  const lies = region
    ? `${capitalise(placeName(place, facts.proper))} is in the ${region} region${region === position.region ? ", where you are" : ""}.`
    : "";
  return { text: `${lies} “Walk to ${placeName(place, facts.proper)}” takes you there.`.trim(), here: false };
}

const WHO_HERE =
  /^(?:so\s+)?(?:who(?:'s|\s+is|\s+else\s+is|\s+are)\s+(?:here|around|in\s+here|there)|is\s+(?:there\s+)?(?:anyone|anybody|someone|somebody)\s+(?:else\s+)?(?:here|around|in\s+here)|(?:anyone|anybody)\s+(?:here|around))\s*[?!.]*$/i;

/**
 * "who is here?", "is anyone here?": a look around, not words said to the air ("You say: “who is
 * here?”"). Who is here follows in the NPC paragraph; with no one, the answer says so. Null for any
 * other words.
 */
export function whoAnswer(action: string, present: number, party: number): string | null {
  if (!WHO_HERE.test(action.trim())) return null;
  if (present > 0) return "You look around.";
  return `You look around: there is no one here but ${party > 1 ? "your party" : "you"}.`;
}

const LOOK_AROUND =
  /^(?:(?:i|we)\s+)?(?:look|looks|glance|peer|gaze)(?:\s+(?:around|about|round))?(?:\s+(?:here|the\s+(?:place|room|area)))?\s*[.!]*$|^(?:(?:i|we)\s+)?(?:examine|survey|study|take\s+in)\s+(?:the|my|our)\s+surroundings\s*[.!]*$/i;

/**
 * "look around", "look", "survey the surroundings": the player asks what the place is, so it is
 * described and its ways on are named (it was one sentence picked for the turn, or none, and
 * never where one could go).
 */
export function looksAround(action: string): boolean {
  return LOOK_AROUND.test(action.trim()) || asksTheWays(action);
}

const THE_WAYS =
  /^(?:so\s+)?(?:where\s+can\s+(?:i|we)\s+go(?:\s+from\s+here)?|which\s+ways?(?:\s+can\s+(?:i|we)\s+go)?|(?:what\s+are\s+the\s+|any\s+)?exits|ways?\s+out)\s*[?!.]*$/i;

/**
 * "where can I go?", "exits": answered as a look around, with the ways on (it was the journal's
 * next step, or "You exits."). "where should I go?" asks what to do, and stays the hint's.
 */
export function asksTheWays(action: string): boolean {
  return THE_WAYS.test(action.trim());
}
