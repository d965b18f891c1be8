/**
 * Room descriptions are written once, for the world as it starts ("everyone
 * has an opinion about the dark lighthouse"); after the party lit the lamp
 * that sentence is stale. The offline narrator cannot rewrite it, so it
 * leaves out a place sentence whose state word the story since contradicts:
 * "dark <thing>", "cold brass <thing>" or "<thing> has been dark" once the
 * known text (recent story, summary, and this turn's own changes: its
 * instructions, its event beat and its outcomes) says the thing is lit or burning;
 * silent or stolen things once they ring or are back.
 */

const FLIPS: { was: RegExp; now: RegExp }[] = [
  { was: /^(?:dark|unlit|cold)$/, now: /^(?:lit|burning|burns|alight|blazing|beam)$/ },
  { was: /^(?:silent|tongueless|mute|quiet)$/, now: /^(?:rings|ringing|rang|speaks|tolls|rehung|rehangs)$/ },
  { was: /^(?:stolen|missing|gone)$/, now: /^(?:returned|recovered|rehangs|rehung|back|restored)$/ },
];

/** Words that are never the thing a state word is about ("dark the bell" is not about "the"). */
const NOT_THINGS = new Set(
  "the and but for with its his her their our your this that these those all any was were has have had from into onto".split(
    " ",
  ),
);

/** The flip whose earlier state the word is ("dark"), if any. */
function flipWas(word: string): { was: RegExp; now: RegExp } | undefined {
  for (const flip of FLIPS) if (flip.was.test(word)) return flip;
  return undefined;
}

/** Whether the word is a later state of any flip ("lit"). */
function isNowWord(word: string): boolean {
  for (const flip of FLIPS) if (flip.now.test(word)) return true;
  return false;
}

const STATE_VERB = /^(?:is|was|been|stays|stands|remains|still)$/;

/** The (state word, thing) pairs a sentence asserts: "the dark lighthouse", "its lamp has been dark". */
function claims(sentence: string): { word: string; thing: string }[] {
  const words: string[] = sentence.toLowerCase().match(/[a-z]+/g) ?? [];
  const out: { word: string; thing: string }[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (flipWas(w) === undefined) continue;
    // "the dark lighthouse", and past one more word: "a cold brass lamp" is about the lamp.
    for (const next of words.slice(i + 1, i + 3))
      if (next.length >= 3 && !NOT_THINGS.has(next)) out.push({ word: w, thing: next });
    // "with the lighthouse dark": the state of things as they stand (not "left the lamp dark", which is history).
    if (words[i - 2] === "with" || (words[i - 2] === "the" && words[i - 3] === "with"))
      out.push({ word: w, thing: words[i - 1]! });
    // "<thing> has been / is / stays dark", "the lamp still dark"
    const before = words.slice(Math.max(0, i - 4), i);
    let verb = -1;
    for (let j = 0; j < before.length && verb < 0; j++) if (STATE_VERB.test(before[j]!)) verb = j;
    if (verb > 0)
      out.push({
        word: w,
        thing: before[verb - 1]! === "has" ? (before[verb - 2] ?? "") : before[verb - 1]!,
      });
  }
  const kept: { word: string; thing: string }[] = [];
  for (const c of out) if (c.thing.length >= 3 && !NOT_THINGS.has(c.thing)) kept.push(c);
  return kept;
}

/**
 * Words that name one thing in world prose ("the dark tower" is the lighthouse whose lamp now
 * burns): a small built-in list, so that a description is not kept stale by a synonym.
 */
const KIN: string[][] = [
  ["lighthouse", "tower", "light", "lamp", "beacon", "wick", "lens"],
  ["bell", "clapper", "belfry"],
];

/** The stems that stand for a thing: its own, and those of its kin. */
function stemsOf(thing: string): string[] {
  const stem = thing.replace(/s$/, "");
  for (const group of KIN)
    for (const w of group) if (stem.startsWith(w) || w.startsWith(stem)) return [stem, ...group];
  return [stem];
}

/** Whether a word of the list starts with one of the stems. */
function hasStem(words: readonly string[], stems: readonly string[]): boolean {
  for (const w of words) for (const stem of stems) if (w.startsWith(stem)) return true;
  return false;
}

/** Sentences' claims by text: the same place and area sentences are checked at every turn. */
const claimCache = new Map<string, readonly { word: string; thing: string }[]>();
/** Claims remembered at most (the map starts again past it). */
const CLAIMS_KEPT = 2048;

/** claims(), remembered by sentence (a pure function of it); callers only read the answer. */
function claimsOf(sentence: string): readonly { word: string; thing: string }[] {
  let found = claimCache.get(sentence);
  if (found === undefined) {
    if (claimCache.size >= CLAIMS_KEPT) claimCache.clear();
    found = claims(sentence);
    claimCache.set(sentence, found);
  }
  return found;
}

/** The last known text's words: a turn checks many sentences against the same known text. */
let lastKnown: { text: string; words: readonly string[] } | null = null;

function wordsOf(known: string): readonly string[] {
  if (lastKnown?.text !== known)
    lastKnown = { text: known, words: known.toLowerCase().match(/[a-z]+/g) ?? [] };
  return lastKnown.words;
}

/** Does the known text say the thing changed (the thing's word, or a kin word, near a word of the other state)? */
export function isStale(sentence: string, known: string): boolean {
  const found = claimsOf(sentence);
  // Most sentences claim no state: the known text (the recent story, some KB) is then not split at all.
  if (found.length === 0) return false;
  const text = wordsOf(known);
  for (const { word, thing } of found) {
    const flip = flipWas(word)!;
    const stems = stemsOf(thing);
    for (let i = 0; i < text.length; i++) {
      if (!flip.now.test(text[i]!)) continue;
      const near = text.slice(Math.max(0, i - 15), i + 6);
      if (hasStem(near, stems) && !near.includes("try")) return true;
    }
  }
  return false;
}

/** Sentences of a story worth keeping in the running summary: a thing's state that changed. */
export function statesChange(sentence: string): boolean {
  const words: string[] = sentence.toLowerCase().match(/[a-z]+/g) ?? [];
  if (words.includes("try")) return false;
  for (const w of words) if (isNowWord(w)) return true;
  return false;
}

/**
 * A sentence without its clauses that the known text contradicts: "the clapper was stolen three
 * nights ago, and with the lighthouse dark the bell is all the boats have" once the lamp burns is
 * "the clapper was stolen three nights ago." Clauses part at ", and", ", but" and ";". When the
 * first clause is stale the whole sentence is (""); a sentence with nothing stale comes back as it was.
 */
export function withoutStaleClauses(sentence: string, known: string): string {
  if (!isStale(sentence, known)) return sentence;
  const clauses = sentence.split(/(?:,\s+(?=(?:and|but)\s)|;\s+)/);
  if (clauses.length < 2 || isStale(clauses[0]!, known)) return "";
  const kept = clauses.filter((c, i) => i === 0 || !isStale(c, known));
  const joined = kept
    .map((c, i) => (i === 0 ? c : `, ${c}`))
    .join("")
    .replace(/[,;\s]+$/, "");
  return /[.!?]["'”’)]*$/.test(joined) ? joined : `${joined.replace(/[.!?]+$/, "")}.`;
}

/** What a completed objective says of the world: "light the lamp" done is "the lamp lit" (read by isStale). */
const DONE: [RegExp, string][] = [
  [/^(?:light|ignite|kindle|relight|rekindle)$/, "lit"],
  [/^(?:ring|toll|sound)$/, "rings"],
  [/^(?:return|recover|restore|rehang|bring)$/, "returned"],
];

/**
 * The states a completed objective's text implies, as known text for isStale: "Return to the Old
 * Lighthouse and light the lamp." -> "the lamp lit". A verb followed by a preposition ("return to")
 * names a journey, not a thing, and says nothing.
 */
export function doneStates(objective: string): string {
  const words: string[] = objective.toLowerCase().match(/[a-z]+/g) ?? [];
  const out: string[] = [];
  words.forEach((w, i) => {
    const done = DONE.find(([verb]) => verb.test(w));
    if (!done) return;
    const thing: string[] = [];
    for (const next of words.slice(i + 1, i + 5)) {
      if (/^(?:to|at|in|on|from|into|and|then|with|for|of|by)$/.test(next)) break;
      thing.push(next);
    }
    if (thing.length > 0) out.push(`${thing.join(" ")} ${done[1]}.`);
  });
  return out.join(" ");
}
