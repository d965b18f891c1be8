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

const IRREGULAR_VERBS: Record<string, string> = {
  has: "have",
  is: "are",
  was: "were",
  does: "do",
  goes: "go",
};

/** A third-person singular verb made plural ("knows" -> "know"); other words are returned as they are. */
function unthird(word: string): string {
  const lower = word.toLowerCase();
  const irregular = IRREGULAR_VERBS[lower];
  if (irregular) return irregular;
  if (!/^[a-z]+s$/.test(lower) || lower.endsWith("ss") || lower.endsWith("us") || lower.length < 3)
    return word;
  if (/[^aeiou]ies$/.test(lower)) return `${word.slice(0, -3)}y`;
  if (/(?:sh|ch|x|z|ss|o)es$/.test(lower)) return word.slice(0, -2);
  return word.slice(0, -1);
}

/** "sit" -> "sits", "be" -> "is", "carry" -> "carries" (for "Let X sit ..." -> "X sits ..."). */
export function third(word: string): string {
  const lower = word.toLowerCase();
  const irregular: Record<string, string> = { be: "is", have: "has", do: "does", go: "goes" };
  if (irregular[lower]) return irregular[lower]!;
  if (/[^aeiou]y$/.test(lower)) return `${word.slice(0, -1)}ies`;
  if (/(?:s|sh|ch|x|z|o)$/.test(lower)) return `${word}es`;
  return `${word}s`;
}

function matchCase(model: string, word: string): string {
  return /^\p{Lu}/u.test(model) ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

function rewritePlain(text: string, theyIsParty: boolean): string {
  let out = text.replace(new RegExp(String.raw`\b${SUBJECT}(?:'s|’s|'|’)(?=\s)`, "gi"), (m) =>
    matchCase(m, "your"),
  );
  out = out.replace(
    new RegExp(String.raw`\b(${SUBJECT})(\s+${ADVERB})?(\s+)([A-Za-z]+)\b`, "gi"),
    (_m, subject: string, adverb: string | undefined, space: string, verb: string) =>
      `${matchCase(subject, "you")}${adverb ?? ""}${space}${NOT_VERBS.has(verb.toLowerCase()) ? verb : unthird(verb)}`,
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
