/**
 * The narrative voice a world sets (issue 39): the person and tense its
 * author asks for, read from what the author wrote for the narrator (the
 * story instructions, the story start, the style). A real world's story
 * instructions can be long enough that the paragraph setting the voice does
 * not fit in the prompt; the voice found here is stated in the rules, so it
 * reaches the model whatever is cut. Pure: the same texts give the same voice.
 */

export type Person = "first" | "second" | "third";
export type Tense = "present" | "past";

export interface Voice {
  person: Person | null;
  tense: Tense | null;
}

const PERSON = /\b(first|second|third|1st|2nd|3rd)[-\s]person\b/gi;
const TENSE = /\b(present|past)[-\s]tense\b/gi;
const NEGATED = /\b(?:not|never|avoid|no|don't|do not)\b[^.\n]{0,30}$/i;

/**
 * The voice the texts ask for: the first person and tense named without a
 * negation before it ("third person, present tense"; not "never second
 * person"), texts in order of authority. Where no text names a person, a
 * story start written as prose ("You stand at the palisade…") sets it by its
 * pronouns.
 */
export function voiceOf(instructions: readonly string[], storyStart: string): Voice {
  let person: Person | null = null;
  let tense: Tense | null = null;
  for (const text of [...instructions, storyStart]) {
    person ??= named(text, PERSON, personOf);
    tense ??= named(text, TENSE, (w) => w.toLowerCase() as Tense);
  }
  person ??= personOfProse(storyStart);
  return { person, tense };
}

function named<T>(text: string, pattern: RegExp, read: (word: string) => T): T | null {
  for (const match of text.matchAll(pattern)) {
    const before = text.slice(Math.max(0, match.index - 40), match.index);
    if (NEGATED.test(before)) continue;
    return read(match[1]!);
  }
  return null;
}

function personOf(word: string): Person {
  const w = word.toLowerCase();
  if (w === "first" || w === "1st") return "first";
  if (w === "second" || w === "2nd") return "second";
  return "third";
}

/** Prose addressed to "you" is second person; prose in "I" is first; instructions ("Generate a story…") set none. */
function personOfProse(text: string): Person | null {
  const words = text.toLowerCase().match(/[a-z']+/g) ?? [];
  if (words.length < 12) return null;
  const count = (set: Set<string>) => words.filter((w) => set.has(w)).length;
  const you = count(new Set(["you", "your", "you're", "yours", "yourself"]));
  const me = count(new Set(["i", "my", "me", "i'm", "myself"]));
  if (you >= 2 && you > me) return "second";
  if (me >= 2 && me > you) return "first";
  return null;
}

/**
 * The rule that tells the narrator the voice: the world's when it sets one, else second person. A
 * party (several players) is never one "you": a second person, the world's or the default, becomes
 * the third (the player characters by name), and the rule says why.
 */
export function voiceRule(voice: Voice, party = false): string {
  const asked = voice.person ?? "second";
  const person = party && asked === "second" ? "third" : asked;
  const how =
    person === "second"
      ? 'in the second person ("you")'
      : person === "first"
        ? 'in the first person ("I", the player character speaking)'
        : "in the third person (the player characters by name)";
  const tense = voice.tense === null ? "" : `, ${voice.tense} tense`;
  if (person !== asked)
    return (
      `Write ${how}${tense}: several players share this game, so none of them is "you"` +
      `${voice.person === "second" ? " (the second person this world's author set is for one player)" : ""}` +
      ': tell each character by name and the party as "the party", and turn any "you" of the world\'s texts into them.'
    );
  const source =
    voice.person === null && voice.tense === null
      ? " (the world sets no voice)"
      : " (the voice this world's author set: keep it for the whole game)";
  return `Write ${how}${tense}${source}.`;
}
