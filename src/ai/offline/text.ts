import { contentWords, singular } from "../../engine/relevance.ts";

/**
 * Text helpers shared by the offline provider's rules: tokens for matching,
 * quote-aware sentences for composing, a tiny stemmer for lexical judging and
 * a stable hash (FNV-1a) for every "varied but deterministic" choice. Pure
 * functions of their input: no clock, no Math.random.
 */

/** Inputs longer than this are cut before any rule runs (a player's action is a sentence or two). */
export const MAX_INPUT_CHARS = 4000;

const APOSTROPHES = /['’‘ʼ`´]/g;

/** Lower-cased, NFKC, diacritics removed, apostrophes dropped ("Widows'" -> "widows", "keeper's" -> "keepers"). */
function foldText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(APOSTROPHES, "");
}

/**
 * British spellings and their American twins, as word beginnings: "harbour", "harbours" and
 * "harbourmaster" read as "harbor…", "grey" as "gray". Names and words are matched on this fold,
 * so "go back to the harbor" finds the world's "harbour" and "the colour of the sea" its "color".
 * A short hand-written list: only words whose two spellings are the same word.
 */
const BRITISH: [string, string][] = (() => {
  const words = (
    "harbour harbor colour color honour honor favour favor armour armor parlour parlor rumour rumor " +
    "neighbour neighbor labour labor valour valor vapour vapor odour odor splendour splendor clamour clamor " +
    "humour humor arbour arbor ardour ardor vigour vigor saviour savior flavour flavor endeavour endeavor " +
    "behaviour behavior candour candor rancour rancor grey gray centre center theatre theater metre meter " +
    "sombre somber fibre fiber lustre luster spectre specter sabre saber meagre meager sepulchre sepulcher " +
    "calibre caliber mitre miter plough plow mould mold smoulder smolder moult molt moustache mustache " +
    "cosy cozy defence defense offence offense pretence pretense licence license jewellery jewelry gaol jail " +
    "kerb curb pyjama pajama aluminium aluminum catalogue catalog"
  ).split(" ");
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < words.length; i += 2) pairs.push([words[i]!, words[i + 1]!]);
  return pairs;
})();

/** A folded word with its British beginning spelled the American way ("harbours" -> "harbors", "grey" -> "gray"). */
export function spelling(word: string): string {
  if (word.length < 4) return word;
  // Only the few pairs that share the word's first three letters are tried (tokenize folds every word).
  for (const [british, american] of BRITISH_BY_START.get(word.slice(0, 3)) ?? [])
    if (word.startsWith(british)) return american + word.slice(british.length);
  return word;
}

const BRITISH_BY_START = new Map<string, [string, string][]>();
for (const pair of BRITISH) {
  const list = BRITISH_BY_START.get(pair[0].slice(0, 3)) ?? [];
  list.push(pair);
  BRITISH_BY_START.set(pair[0].slice(0, 3), list);
}

export interface Token {
  /** The folded word ("dont", "keepers"). */
  raw: string;
  /** singular(raw) (relevance.ts), spelled the American way: what names are matched on ("keepers" -> "keeper", "harbours" -> "harbor"). */
  fold: string;
  /** Clauses are separated by . ; ! ? and "but". */
  clause: number;
  /** Phrases are smaller: commas, colons and "and", "then", "or", "so", "while" also separate them. */
  phrase: number;
  /** True when the clause this token belongs to ends with a question mark. */
  question: boolean;
}

const PHRASE_BREAKS = new Set(["and", "then", "or", "so", "while", "but"]);

/** Words and clause breaks of a text, after folding ("but" itself is kept as a word of the new clause). */
export function tokenize(text: string, max = MAX_INPUT_CHARS): Token[] {
  const tokens: Token[] = [];
  const marks: { clause: number; question: boolean }[] = [];
  let clause = 0;
  let phrase = 0;
  for (const match of foldText(text.slice(0, max)).matchAll(/[\p{L}\p{N}]+|[.;!?,:]/gu)) {
    const piece = match[0];
    if (piece === "." || piece === ";" || piece === "!" || piece === "?") {
      marks[clause] = { clause, question: piece === "?" };
      clause++;
      phrase++;
      continue;
    }
    if (piece === "," || piece === ":" || PHRASE_BREAKS.has(piece)) {
      phrase++;
      if (piece === "but") clause++;
      if (piece === "," || piece === ":") continue;
    }
    tokens.push({ raw: piece, fold: spelling(singular(piece)), clause, phrase, question: false });
  }
  for (const token of tokens) token.question = marks[token.clause]?.question ?? false;
  return tokens;
}

/** Words of a name for matching: folded, without a leading "the". */
export function nameTokens(name: string): string[] {
  const words: string[] = [];
  for (const m of foldText(name).matchAll(/[\p{L}\p{N}]+/gu)) words.push(spelling(singular(m[0])));
  return words.length > 1 && words[0] === "the" ? words.slice(1) : words;
}

// ---------------------------------------------------------------------------
// Sentences
// ---------------------------------------------------------------------------

/**
 * Splits prose into sentences without breaking inside quotations: a sentence
 * ends at . ! ? (and any closing quotes after it) followed by white space,
 * outside quotes. Single quotes count as quotation marks only where they open
 * (after a space, colon or start, before a letter) or close (after . , ! ?),
 * so the apostrophes of "party's" and "wreckers' lanterns" are left alone.
 */
export function sentences(text: string): string[] {
  // The world's own texts (a place's description, its area's) are split again at every turn: remembered.
  if (text.length > SPLIT_TEXT_MAX) return splitSentences(text);
  let split = splitTexts.get(text);
  if (split === undefined) {
    if (splitTexts.size >= SPLIT_TEXTS) splitTexts.clear();
    split = splitSentences(text);
    splitTexts.set(text, split);
  }
  // A copy: callers may change the list they get.
  return split.slice();
}

/** Texts whose sentences are remembered, at most (the map starts again past it), and their longest. */
const SPLIT_TEXTS = 256;
const SPLIT_TEXT_MAX = 4000;
const splitTexts = new Map<string, readonly string[]>();

function splitSentences(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "“" || (c === "‘" && /\p{L}/u.test(text.charAt(i + 1)))) depth++;
    else if (c === "”" || (c === "’" && depth > 0 && /[.,!?]/.test(text.charAt(i - 1))))
      depth = Math.max(0, depth - 1);
    else if (c === '"') depth = depth > 0 && /[^\s(]/.test(text.charAt(i - 1)) ? depth - 1 : depth + 1;
    else if (c === "'") {
      if ((i === 0 || /[\s:(—-]/.test(text.charAt(i - 1))) && /\p{L}/u.test(text.charAt(i + 1))) depth++;
      else if (depth > 0 && /[.,!?]/.test(text.charAt(i - 1))) depth--;
    } else if ((c === "." || c === "!" || c === "?") && depth === 0) {
      let end = i + 1;
      while (end < text.length && /["'”’)]/.test(text[end]!)) end++;
      if ((end >= text.length || /\s/.test(text[end]!)) && !(c === "." && abbreviation(text, i))) {
        const sentence = text.slice(start, end).trim();
        if (sentence) out.push(sentence);
        start = end;
        i = end - 1;
      }
    }
    if (depth > 0 && (c === "\n" || i - start > 2000)) depth = 0;
  }
  const rest = text.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

const ABBREVIATIONS = /^(?:mr|mrs|ms|dr|st|mt|jr|sr|capt|lt|col|gen|prof|rev|no|vs|etc|e\.g|i\.e|approx)$/i;

/**
 * Is the full stop at `i` part of an abbreviation rather than a sentence end:
 * a known short form ("Mr.", "St."), a single capital (an initial: "A. VENN"),
 * or an all-capitals word followed by another ("SLADE & CO. LOANS")?
 */
function abbreviation(text: string, i: number): boolean {
  const before = /([\p{L}.]+)$/u.exec(text.slice(Math.max(0, i - 12), i))?.[1] ?? "";
  if (ABBREVIATIONS.test(before) || /^\p{Lu}$/u.test(before)) return true;
  const after = /^\s+(\p{L}+)/u.exec(text.slice(i + 1, i + 40))?.[1] ?? "";
  return (
    before.length >= 2 &&
    after.length >= 2 &&
    before === before.toUpperCase() &&
    after === after.toUpperCase() &&
    /\p{Lu}/u.test(before)
  );
}

/** The first `count` sentences of a text, joined by a space. */
export function firstSentences(text: string, count: number): string {
  return sentences(text).slice(0, count).join(" ");
}

/** Cuts a text at a word boundary to at most `max` characters, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, "")}…`;
}

export function capitalise(text: string): string {
  return text.replace(
    /^(\s*["'“‘(]*)(\p{Ll})/u,
    (_, lead: string, letter: string) => lead + letter.toUpperCase(),
  );
}

export function lowerFirst(text: string): string {
  // Keep proper nouns ("Ansel", "Brinewick") and acronyms as they are: only a capital followed by a lower-case word is lowered.
  return text.replace(/^(\p{Lu})(\p{Ll}*)/u, (whole, letter: string, rest: string) =>
    COMMON_OPENERS.has(whole.toLowerCase()) ? letter.toLowerCase() + rest : whole,
  );
}

const COMMON_OPENERS = new Set(
  "a an the this that these those his her their its our my your some every each one two three find travel climb read confront return search bring gather lay light go walk visit speak talk ask hurry meet follow take".split(
    " ",
  ),
);

/** Ends a sentence with a full stop unless it already ends with . ! ? or a closing quote after one. */
export function endSentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  return /[.!?…]["'”’)]*$/.test(trimmed) ? trimmed : `${trimmed.replace(/[,;:]+$/, "")}.`;
}

// ---------------------------------------------------------------------------
// Stable choices
// ---------------------------------------------------------------------------

/** FNV-1a, 32 bits, over the UTF-16 code units of a string: stable across runs and platforms. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** A stable pick from a non-empty list, keyed by a string (e.g. the tick and the place). */
export function pickStable<T>(items: readonly T[], key: string): T {
  return items[fnv1a(key) % items.length]!;
}

// ---------------------------------------------------------------------------
// Lexical comparison
// ---------------------------------------------------------------------------

const IRREGULAR: Record<string, string> = {
  lit: "light",
  went: "go",
  gone: "go",
  spoke: "speak",
  spoken: "speak",
  told: "tell",
  took: "take",
  taken: "take",
  rang: "ring",
  rung: "ring",
  ran: "run",
  rode: "ride",
  fought: "fight",
  struck: "strike",
  slept: "sleep",
  found: "find",
  left: "leave",
  burnt: "burn",
  climbed: "climb",
  brought: "bring",
  caught: "catch",
  thought: "think",
  said: "say",
  held: "hold",
  knew: "know",
  known: "know",
  saw: "see",
  seen: "see",
  wrote: "write",
  written: "write",
  stole: "steal",
  stolen: "steal",
  hid: "hide",
  hidden: "hide",
  fled: "flee",
  paid: "pay",
  laid: "lay",
  fell: "fall",
  fallen: "fall",
  men: "man",
  women: "woman",
};

/**
 * A deliberately small stemmer for lexical judging, applied on top of
 * contentWords (which already dropped a plural "s"): "-ing" and "-ed" are
 * removed from longer words, a doubled final consonant is undone
 * ("stopped" -> "stop"), "-ie" becomes "-y" ("carries" -> "carry") and a final
 * "e" is dropped from words of four letters or more, so "settle"/"settled"
 * and "write"/"writing" meet. A handful of irregular verbs map to their base
 * ("lit" -> "light", "spoke" -> "speak"); British spellings read as American
 * ("harbour" -> "harbor", spelling()).
 */
export function stem(given: string): string {
  // "harbour" and "harbor" are one word to the judge and the event's coverage too.
  const word = spelling(given);
  const irregular = IRREGULAR[word];
  if (irregular) return stem(irregular);
  let base = word;
  if (base.length > 5 && base.endsWith("ing")) base = base.slice(0, -3);
  else if (base.length > 4 && base.endsWith("ed") && !base.endsWith("eed")) base = base.slice(0, -2);
  else if (base.length > 4 && base.endsWith("ie")) base = `${base.slice(0, -2)}y`;
  if (base !== word && /([bdgkmnprt])\1$/.test(base)) base = base.slice(0, -1);
  if (base.length > 3 && base.endsWith("e")) base = base.slice(0, -1);
  return base;
}

/** A stemmed set of words. */
export function stems(words: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const word of words) out.add(stem(word));
  return out;
}

/** The stemmed content words of a text (relevance.ts contentWords, then stem()). */
export function stemmedWords(text: string): Set<string> {
  return stems(contentWords(text));
}
