import { obj } from "./request.ts";

/**
 * The world's spelling of its proper names, put back into a player's words
 * when they are echoed ("ask mara about the gutted eel" -> "You ask Mara about
 * the Gutted Eel."): issue 14, a player's words echoed in lower case read as
 * a careless narrator. Only the case of a word changes, never its letters.
 *
 * - A full name of an NPC, a premade character, a location, an area or a
 *   region (a one-word location or region only when the world never writes
 *   it in lower case: "Brinewick"; a one-word area never: "Stairwell"), matched word by word whatever its case ("the" in front of it is
 *   left as typed: "walk to the gutted eel" -> "the Gutted Eel").
 * - One word of a person's name ("mara", "slade") when it is capitalised in
 *   the name and the world's public texts never write it in lower case: so
 *   "salt" stays lower case although "The Salt Widow" is an NPC, and a place
 *   word ("lighthouse") only counts inside the whole name.
 *
 * Reads names and public descriptions only (never hiddenInfo), each once.
 * Matching is a walk over the words (no regular expression is built from a
 * world's names), so it is linear in the text.
 */
export interface ProperNames {
  /** First word (lower case) -> the names that start with it, each as its words in the world's spelling. */
  phrases: Map<string, string[][]>;
  /** A lone word (lower case) -> its spelling. */
  words: Map<string, string>;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;
const MAX_NAMES = 5000;
const MAX_TEXT = 2_000_000;

export function properNames(world: unknown): ProperNames {
  const w = obj(world);
  const people = [
    ...Object.keys(obj(w.npcs)),
    ...(Array.isArray(w.premadeCharacters) ? w.premadeCharacters : []).map((p) => obj(p).name),
  ].filter((n): n is string => typeof n === "string");
  const places: string[] = [...Object.keys(obj(w.regions))];
  const areas: string[] = [];
  const texts: unknown[] = [];
  for (const [name, location] of Object.entries(obj(w.locations))) {
    places.push(name);
    texts.push(obj(location).basicInfo);
    for (const [area, value] of Object.entries(obj(obj(location).areas))) {
      areas.push(area);
      texts.push(obj(value).description);
    }
  }
  for (const npc of Object.values(obj(w.npcs))) texts.push(obj(npc).basicInfo);
  for (const start of Object.values(obj(w.storyStarts))) texts.push(obj(start).text, obj(start).description);
  // Words the world's public texts write in lower case are common words, not names.
  const lower = new Set<string>();
  let read = 0;
  for (const text of texts) {
    if (typeof text !== "string" || read > MAX_TEXT) continue;
    read += text.length;
    for (const m of text.slice(0, MAX_TEXT).matchAll(WORD)) if (/^\p{Ll}/u.test(m[0])) lower.add(fold(m[0]));
  }
  const phrases = new Map<string, string[][]>();
  const words = new Map<string, string>();
  const areaSet = new Set(areas);
  const placeSet = new Set(places);
  for (const name of [...people, ...places, ...areas].slice(0, MAX_NAMES)) {
    const spelled = [...name.matchAll(WORD)].map((m) => m[0]).slice(0, 12);
    if (spelled.length > 1 && fold(spelled[0]!) === "the") spelled.shift();
    if (spelled.length === 0 || !spelled.some((s) => /^\p{Lu}/u.test(s))) continue;
    if (spelled.length === 1) {
      // A one-word area is mostly a common noun ("Stairwell", "Nave"): it counts only inside longer names.
      if (areaSet.has(name) && !placeSet.has(name)) continue;
      // A one-word place the world also writes as a common noun ("Stairwell", "the stairwell") is not capitalised.
      if (!lower.has(fold(spelled[0]!))) words.set(fold(spelled[0]!), spelled[0]!);
      continue;
    }
    const list = phrases.get(fold(spelled[0]!)) ?? [];
    list.push(spelled);
    phrases.set(fold(spelled[0]!), list);
  }
  for (const list of phrases.values()) list.sort((a, b) => b.length - a.length);
  for (const name of people.slice(0, MAX_NAMES))
    for (const m of name.matchAll(WORD)) {
      const word = m[0];
      if (word.length >= 3 && /^\p{Lu}/u.test(word) && !lower.has(fold(word)) && fold(word) !== "the")
        if (!words.has(fold(word))) words.set(fold(word), word);
    }
  return { phrases, words };
}

/** The text with the world's proper names in the world's case. */
export function withProperNames(text: string, names: ProperNames): string {
  const tokens = [...text.matchAll(WORD)].map((m) => ({ start: m.index, word: m[0] }));
  const out: string[] = [];
  let at = 0;
  const put = (i: number, spelled: string) => {
    const token = tokens[i]!;
    // Only the case changes: a possessive or a different spelling keeps what was typed.
    const core = token.word.slice(0, spelled.length);
    if (fold(core) !== fold(spelled)) return;
    out.push(text.slice(at, token.start), spelled);
    at = token.start + spelled.length;
  };
  for (let i = 0; i < tokens.length; i++) {
    const key = base(tokens[i]!.word);
    const phrase = names.phrases.get(key)?.find((words) => matchesAt(text, tokens, i, words));
    if (phrase) {
      for (const [j, spelled] of phrase.entries()) put(i + j, spelled);
      i += phrase.length - 1;
      continue;
    }
    const word = names.words.get(key);
    if (word) put(i, word);
  }
  out.push(text.slice(at));
  return out.join("");
}

/** Do the name's words follow one another at token i, apart only by spaces (after a plural possessive's apostrophe too; the last word may be possessive)? */
function matchesAt(
  text: string,
  tokens: { start: number; word: string }[],
  i: number,
  words: string[],
): boolean {
  if (i + words.length > tokens.length) return false;
  for (let j = 0; j < words.length; j++) {
    const token = tokens[i + j]!;
    const last = j === words.length - 1;
    if ((last ? base(token.word) : fold(token.word)) !== fold(words[j]!)) return false;
    if (j > 0) {
      const previous = tokens[i + j - 1]!;
      if (!/^['’]?[ \t]+$/.test(text.slice(previous.start + previous.word.length, token.start))) return false;
    }
  }
  return true;
}

function fold(word: string): string {
  return word.toLowerCase().replace(/’/g, "'");
}

/** A word without a possessive "'s" ("mara's" -> "mara"). */
function base(word: string): string {
  return fold(word).replace(/'s$/, "");
}
