import { contentWords } from "../../engine/relevance.ts";
import { stem } from "./text.ts";

/**
 * How an AI-judged query is phrased, read for the offline judge: what act it
 * asks about (verbs, by synonym group) and about what (nouns, the head noun
 * of each phrase weighing more), for each alternative of a list ("asks
 * about their guild rank, guild standing, dues, or what they need to reach
 * the next rank"). Players phrase one act in many ways ("read the logbook",
 * "light the lamp with the brass key", "I ask the clerk what my rank is");
 * a query's wording is only one of them.
 */

/** Verb groups: every word of a group stands for the first. Small and hand-written on purpose. */
const VERB_GROUPS: string[][] = [
  ["read", "peruse", "study", "skim", "decipher", "leaf"],
  ["look", "examine", "inspect", "search", "check", "investigate", "observe", "view", "scan", "watch", "see"],
  [
    "take",
    "grab",
    "pick",
    "collect",
    "gather",
    "get",
    "obtain",
    "fetch",
    "retrieve",
    "pocket",
    "steal",
    "snatch",
    "seize",
  ],
  ["give", "hand", "deliver", "return", "bring", "offer", "present", "pass"],
  [
    "ask",
    "inquire",
    "enquire",
    "question",
    "talk",
    "speak",
    "chat",
    "converse",
    "discuss",
    "tell",
    "say",
    "mention",
    "greet",
    "address",
    "request",
    "consult",
  ],
  ["attack", "hit", "strike", "fight", "stab", "punch", "slash", "assault", "kill", "slay"],
  ["light", "lit", "ignite", "kindle", "burn", "relight"],
  ["open", "unlock", "unseal", "unbar"],
  ["use", "apply", "employ", "wield"],
  ["pay", "settle", "repay", "reimburse"],
  ["buy", "purchase", "acquire"],
  ["sell", "trade", "barter", "pawn"],
  ["ring", "toll", "sound", "chime", "strike"],
  ["climb", "ascend", "scale", "clamber"],
  ["enter", "go", "walk", "head", "travel", "visit", "reach", "arrive", "come"],
  ["leave", "exit", "depart"],
  ["help", "aid", "assist", "support"],
  ["accept", "agree", "take"],
  ["threaten", "menace", "intimidate", "bully"],
  ["confront", "challenge", "accuse", "face"],
  ["lay", "place", "put", "set", "leave"],
  ["pray", "bless", "worship"],
  ["rest", "sleep", "nap", "camp"],
  ["repair", "fix", "mend", "patch"],
  ["free", "release", "rescue", "save", "untie"],
  ["hide", "conceal", "stash"],
  ["follow", "track", "trail", "shadow", "tail"],
  ["drink", "sip", "quaff"],
  ["eat", "devour", "consume"],
  ["rehang", "hang", "mount", "install", "attach", "fit"],
  ["find", "discover", "locate", "uncover", "spot"],
  ["join", "enlist", "enrol", "enroll", "sign"],
  ["promise", "swear", "vow", "pledge"],
  ["persuade", "convince", "coax", "bargain", "negotiate", "haggle"],
  ["apologise", "apologize"],
  ["thank"],
  ["cross"],
  ["swim", "dive"],
];

/** Noun groups: a few common nouns players swap. */
const NOUN_GROUPS: string[][] = [
  ["logbook", "log", "journal", "diary", "ledger", "book"],
  ["tavern", "inn", "alehouse", "pub"],
  ["money", "coin", "silver", "gold", "payment", "fee", "dues", "due"],
  ["boat", "ship", "vessel", "skiff"],
  ["rank", "standing", "grade", "status"],
  ["lamp", "lantern", "beacon"],
  ["guard", "watchman", "sentry"],
  ["debt", "loan"],
  ["flower", "bloom", "sprig"],
  ["clapper", "tongue"],
];

function groupIndex(groups: string[][]): Map<string, string> {
  const index = new Map<string, string>();
  for (const group of groups)
    for (const word of group) if (!index.has(stem(word))) index.set(stem(word), stem(group[0]!));
  return index;
}

const VERBS = groupIndex(VERB_GROUPS);
const NOUNS = groupIndex(NOUN_GROUPS);

/** Words of a query that say who, or that only carry the question: never what the act is about. */
const FILLER = new Set(
  "player party character characters group someone something anyone anything everyone their them they his her him she has have had any one ever now currently does did doing done whether try tries trying attempt attempts want wants need needs way ways thing things next what which who whom".split(
    " ",
  ),
);

const DETERMINERS = new Set(
  "the a an his her their its my your our this that these those some any no every each".split(" "),
);

/** Words that end a noun phrase: a head noun is the last noun before one of them. */
const PHRASE_ENDS = new Set(
  "to with at in on from about of for into onto by toward towards near under over through across and or that who which while".split(
    " ",
  ),
);

/** A stemmed word, with its synonym group's first word in its place. */
export function canonical(word: string): string {
  const s = stem(word);
  return VERBS.get(s) ?? NOUNS.get(s) ?? s;
}

/** The canonical words of a text (content words, stemmed, synonyms folded), including every verb group a word may stand for. */
export function canonicalWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of contentWords(text)) {
    const s = stem(w);
    out.add(s);
    out.add(canonical(w));
  }
  return out;
}

export interface Alternative {
  /** The act (canonical verbs); empty when the alternative names none. */
  verbs: Set<string>;
  /** The nouns, each with its weight (3 for the head noun of the first phrase, 2 for later heads, else 1). */
  nouns: Map<string, number>;
}

/**
 * The alternatives of a query: split at commas, semicolons and "or" (a list
 * of things asked about). An alternative that names no act takes the act of
 * the one before it ("asks about their rank, dues, or credentials": ask).
 */
export function alternativesOf(query: string): Alternative[] {
  const body = query.replace(/^\s*(?:does|did|has|is|was|will|do|have)\s+/i, "").replace(/\?+\s*$/, "");
  const pieces = body
    .split(/\s*[,;]\s*|\s+or\s+|\s+and\/or\s+/i)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const out: Alternative[] = [];
  let lastVerbs = new Set<string>();
  for (const piece of pieces) {
    const alternative = readPiece(piece);
    if (alternative.verbs.size === 0) alternative.verbs = new Set(lastVerbs);
    else lastVerbs = alternative.verbs;
    if (alternative.verbs.size > 0 || alternative.nouns.size > 0) out.push(alternative);
  }
  return out;
}

function readPiece(piece: string): Alternative {
  const verbs = new Set<string>();
  const nouns = new Map<string, number>();
  const words: string[] = [];
  for (const m of piece.toLowerCase().matchAll(/[\p{L}\p{N}']+/gu)) words.push(m[0].replace(/'s?$/, ""));
  let lastNoun: string | null = null;
  let previous = "";
  // The head noun of the first phrase (the direct object, or the subject of a story question) weighs 3, later heads 2.
  let heads = 0;
  const endPhrase = () => {
    if (lastNoun !== null) nouns.set(lastNoun, Math.max(nouns.get(lastNoun) ?? 0, heads++ === 0 ? 3 : 2));
    lastNoun = null;
  };
  for (const word of words) {
    const after = previous;
    previous = word;
    if (PHRASE_ENDS.has(word) || DETERMINERS.has(word)) {
      endPhrase();
      continue;
    }
    const content = [...contentWords(word)][0];
    if (content === undefined || FILLER.has(content) || FILLER.has(word)) continue;
    const s = stem(content);
    const verb = VERBS.get(s);
    // The first word of a verb group is the act, unless a determiner makes it a noun ("the light"):
    // "light the lighthouse lamp", "Corvin Slade threatens the player" (the subject's phrase ends there).
    if (verb !== undefined && verbs.size === 0 && !DETERMINERS.has(after)) {
      endPhrase();
      verbs.add(verb);
      continue;
    }
    const noun = NOUNS.get(s) ?? s;
    if (!nouns.has(noun)) nouns.set(noun, 1);
    lastNoun = noun;
  }
  endPhrase();
  return { verbs, nouns };
}

/** The share of an alternative's noun weight that a text covers (1 when it has no nouns). */
export function nounCoverage(alternative: Alternative, words: ReadonlySet<string>): number {
  let total = 0;
  let covered = 0;
  for (const [noun, weight] of alternative.nouns) {
    total += weight;
    if (words.has(noun)) covered += weight;
  }
  return total === 0 ? 1 : covered / total;
}

/** At least this share of an alternative's noun weight must be covered (the head noun weighs double). */
export const NOUN_THRESHOLD = 0.5;

/**
 * Does a text do the act of one alternative? The act's verb (or a synonym)
 * must be there when the alternative names one, and the nouns covered at
 * NOUN_THRESHOLD, weighted. An alternative with neither never passes.
 */
export function alternativePasses(alternative: Alternative, words: ReadonlySet<string>): boolean {
  if (alternative.nouns.size === 0) return alternative.verbs.size > 0 && sharesWord(alternative.verbs, words);
  if (alternative.verbs.size > 0 && !sharesWord(alternative.verbs, words)) return false;
  return nounCoverage(alternative, words) >= NOUN_THRESHOLD;
}

/** Whether any of the words is in the set. */
export function sharesWord(words: Iterable<string>, set: ReadonlySet<string>): boolean {
  for (const w of words) if (set.has(w)) return true;
  return false;
}

/** The best alternative's noun coverage for a text that has the act (0 when none has it): how near a player is. */
export function nearness(alternatives: Alternative[], words: ReadonlySet<string>): number {
  let best = 0;
  for (const a of alternatives) {
    const verbOk = a.verbs.size === 0 || sharesWord(a.verbs, words);
    const nouns = nounCoverage(a, words);
    best = Math.max(best, verbOk ? nouns : nouns / 2);
  }
  return best;
}
