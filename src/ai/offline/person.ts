import { plural } from "./lexicon.ts";

/**
 * World texts written for a narrator speak of "the party", "the character"
 * and "they"; the offline narration speaks to the player ("you"). This
 * rewrites the third person to the second, outside quotations only (what a
 * character says stays as written):
 * - "the party's" / "the character's" / "the player's" -> "your";
 * - "the party" / "the character(s)" / "the player(s)" -> "you", and the verb
 *   right after (an adverb may sit between) agrees: "the party now knows" ->
 *   "you now know", "the party has" -> "you have";
 * - "them" -> "you", "their" -> "your", "theirs" -> "yours", "themselves" ->
 *   "yourselves";
 * - "they" -> "you" only when the text has named the party ("the party",
 *   "the character" ...: `theyIsParty`), and not in a clause that also says
 *   "them" ("they know them now": the gulls know the party). Clauses are cut
 *   at punctuation and at "and", "or", "but", "whether", "while".
 * A sentence that does not name the party and opens on a plural subject of its
 * own ("Two of Slade's salvagers drift in ..., hands in their coats") keeps its
 * "they", "their" and "them": they are that subject's, not the party's.
 */

export interface Span {
  text: string;
  quoted: boolean;
}

/** Splits a text into quoted and unquoted spans (same quote rules as text.ts sentences()). */
export function quoteSpans(text: string): Span[] {
  const spans: Span[] = [];
  let depth = 0;
  let start = 0;
  const at = (i: number) => (i >= 0 && i < text.length ? text[i]! : "");
  const cut = (end: number, quoted: boolean) => {
    if (end > start) spans.push({ text: text.slice(start, end), quoted });
    start = end;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const opens =
      c === "“" ||
      (c === '"' && depth === 0) ||
      ((c === "'" || c === "‘") && (i === 0 || /[\s:(—-]/.test(at(i - 1))) && /\p{L}/u.test(at(i + 1)));
    const closes =
      depth > 0 &&
      (c === "”" || (c === '"' && !opens) || ((c === "'" || c === "’") && /[.,!?]/.test(at(i - 1))));
    if (depth === 0 && opens) {
      cut(i, false);
      depth = 1;
    } else if (closes) {
      cut(i + 1, true);
      depth = 0;
    }
  }
  cut(text.length, depth > 0);
  return spans;
}

const SUBJECT = "(?:the party|the characters?|the players?|the group)";
const ADVERB = "(?:now|already|still|just|finally|never|always|also|then|first|soon|suddenly|at last)";

/** Words ending in "s" that follow "the party" without being its verb ("the party members"). */
const NOT_VERBS = new Set(["members", "ranks", "numbers", "always", "perhaps", "towards", "across", "as"]);

function matchCase(model: string, word: string): string {
  return /^\p{Lu}/u.test(model) ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

const OPENER =
  "(?:the|these|those|some|many|most|several|few|all|both|half|two|three|four|five|six|seven|eight|nine|ten|a few|a pair of|a couple of|\\d+)";
/** Words that may sit between a subject's head noun and its verb. */
const BETWEEN = "(?:(?:no longer|never|still|now|already|just|often|always|sometimes|rarely|all|both)\\s+)?";
const FUNCTION_WORDS = new Set([
  "of",
  "and",
  "or",
  "in",
  "on",
  "at",
  "with",
  "from",
  "to",
  "by",
  "for",
  "the",
  "a",
  "an",
  "who",
  "that",
  "which",
  "whose",
  "as",
  "like",
  "than",
  "but",
]);
/** "Salvagers drift", "The wardens owe", "Two of Slade Company's men stand": a plural head noun, then a verb. */
const PLURAL_SUBJECT = new RegExp(
  String.raw`^(?:${OPENER}\s+(?:of\s+)?(?:[\p{L}'’-]+\s+){0,4}?)?([\p{L}-]*(?:[a-rt-z]s|men|people|folk|children))\s+${BETWEEN}([a-z]+)\b`,
  "iu",
);

/** Words ending in "s" that are not a plural head noun ("The boss is ...": "is" is no subject). */
const NOT_NOUNS = new Set([
  "is",
  "was",
  "has",
  "does",
  "this",
  "his",
  "its",
  "us",
  "yes",
  "as",
  "thus",
  "always",
  "perhaps",
]);

/** Does a sentence open on a plural subject that is not the party (its verb plural: "drift", "are")? */
function opensOnOtherPlural(sentence: string): boolean {
  const m = PLURAL_SUBJECT.exec(sentence.trimStart());
  if (!m || NOT_NOUNS.has(m[1]!.toLowerCase())) return false;
  const verb = m[2]!.toLowerCase();
  if (FUNCTION_WORDS.has(verb)) return false;
  return verb === "are" || verb === "were" || verb === "have" || !verb.endsWith("s") || verb.endsWith("ss");
}

const PRONOUNS = /\b(?:themselves|theirs|their|them|they)\b/i;

/** Rewrites sentence by sentence: one whose own plural subject owns its pronouns keeps them. */
function rewritePlain(text: string, theyIsParty: boolean): string {
  if (!PRONOUNS.test(text)) return rewriteParty(text, theyIsParty);
  return text
    .split(/(?<=[.!?])(?=\s)/)
    .map((sentence) =>
      !namesParty(sentence) && opensOnOtherPlural(sentence) ? sentence : rewriteParty(sentence, theyIsParty),
    )
    .join("");
}

function rewriteParty(text: string, theyIsParty: boolean): string {
  let out = text.replace(new RegExp(String.raw`\b${SUBJECT}(?:'s|’s|'|’)(?=\s)`, "gi"), (m) =>
    matchCase(m, "your"),
  );
  out = out.replace(
    new RegExp(String.raw`\b(${SUBJECT})(\s+${ADVERB})?(\s+)([A-Za-z]+)\b`, "gi"),
    (_m, subject: string, adverb: string | undefined, space: string, verb: string) =>
      `${matchCase(subject, "you")}${adverb ?? ""}${space}${NOT_VERBS.has(verb.toLowerCase()) ? verb : plural(verb)}`,
  );
  out = out.replace(new RegExp(String.raw`\b${SUBJECT}\b`, "gi"), (m) => matchCase(m, "you"));
  // "they" stays when its clause also has "them" (someone else acts on the party).
  if (theyIsParty)
    out = out
      .split(/(?<=[,;:.!?—])|(?=\b(?:and|or|but|whether|while)\b)/i)
      .map((clause) =>
        /\bthem\b/i.test(clause) ? clause : clause.replace(/\bthey\b/gi, (m) => matchCase(m, "you")),
      )
      .join("");
  out = out.replace(/\bthemselves\b/gi, (m) => matchCase(m, "yourselves"));
  out = out.replace(/\btheirs\b/gi, (m) => matchCase(m, "yours"));
  out = out.replace(/\btheir\b/gi, (m) => matchCase(m, "your"));
  out = out.replace(/\bthem\b/gi, (m) => matchCase(m, "you"));
  return out;
}

/** Does a text name the party in the third person (so that its "they" may be the party)? */
export function namesParty(text: string): boolean {
  return new RegExp(String.raw`\b${SUBJECT}\b`, "i").test(text);
}

export function toSecondPerson(text: string, theyIsParty = namesParty(text)): string {
  return quoteSpans(text)
    .map((span) => (span.quoted ? span.text : rewritePlain(span.text, theyIsParty)))
    .join("");
}
