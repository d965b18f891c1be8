/**
 * Text written for the narrator, not for the player. Story starts and
 * `story` instructions of real worlds mix prose with directions: "Set the
 * scene in ...", "Make it clear that ...", "This is true world state and
 * should not be contradicted.", Markdown headings over lists of ideas,
 * "Disregard this instruction if the player is not asking about ...",
 * conditional beats ("wreckage or none depending on what happened"). The
 * offline narrator cannot follow such a direction, so it must never print
 * one: this module says which parts are narrator-only, which gate a whole
 * instruction, and which passage an instruction asks to show verbatim.
 *
 * The rules are lexical and conservative towards silence: a sentence that
 * looks like a direction is dropped, never echoed. An imperative addressed to
 * the player ("Direct your approach carefully", "Clear the vermin") is prose
 * and stays: it says "you"/"your" and names no narrator-side thing.
 */

import { GATE } from "../../world/directive.ts";
import { sentences, stemmedWords } from "./text.ts";

/** Phrases that only a direction to the narrator (or a note about the game) contains. */
const META =
  /\b(?:narrator|narration|narrate[sd]?|the (?:ai|llm|model|gm|game master)|(?:your|the|this|each|every|next|a) (?:response|reply|output|message|prompt)s?|this (?:instruction|note|section|prompt|rule)|these (?:instructions|notes|rules)|instructions?\b|world state|(?:should|must|is not to|may) not be contradicted|never contradict|do not contradict|out of character|ooc|system prompt|story start|opening scene|the (?:scene|story|opening|narrative|tone|pacing) (?:should|must|may|needs?)|(?:in|for) the next (?:turn|scene|response)|the players? (?:should|must|may|might|will|would|could|can|does not|doesn't|do not|don't|is not|isn't|are not|aren't|asks?|asking|tries|try|attempts?|chooses?|decides?|wants?))\b/i;

/** A whole instruction that states hidden state or forbids telling: knowledge for the narrator, never prose. */
const HIDDEN =
  /\b(?:(?:should|must|is not to) not be contradicted|true world state|do not (?:reveal|mention|disclose|tell)|don't (?:reveal|mention|tell)|never (?:reveal|mention|disclose)|(?:keep|kept) (?:this|it) (?:secret|hidden)|hidden from the (?:player|party)|without (?:revealing|telling)|the (?:player|party) (?:does not|doesn't|must not|should not) (?:know|learn))\b/i;

/** Conditional or alternative wording that a narrator must resolve: "depending on", "whether she ... or ...", "either ... or". */
const BRANCHING =
  /\b(?:depending on|depends on|as appropriate|if (?:any|applicable|needed|relevant|so|not)|or none|or not|(?:may|might|could) or (?:may|might|could) not|and\/or|e\.g\.|for example|such as:|or (?:let|have|make|give|offer|show|describe))\b|\bwhether\b(?!\s+to\b)[^.]*\bor\b|\beither\b[^.]*\bor\b/i;

/**
 * Verbs that, as the first word of a sentence, direct the narrator. The
 * conversions of instructions.ts ("Describe X" -> X, "Let X sit" -> "X sits")
 * run before this check; what still opens with one of these is dropped
 * unless it speaks to the player ("you", "your") and names nothing of the game.
 */
const NARRATOR_VERBS = new Set(
  "set make begin start end open close generate draw incorporate keep ensure avoid use include introduce establish focus emphasise emphasize portray render write respond reply continue disregard ignore treat assume note consider create frame convey depict hint foreshadow reference refer weave highlight maintain vary limit match prefer stress ground follow apply output print insert add be do don't dont never always only allow give offer remind let have paint evoke play present describe show reveal mention narrate tell reflect build escalate resolve transition pace shift tailor adapt adjust base prioritize prioritise remember invent improvise mirror honor honour respect integrate provide deliver conclude wrap summarize summarise please".split(
    " ",
  ),
);

/** "Begin the response with the following passage rendered verbatim: ..." -> the passage. */
const VERBATIM =
  /\b(?:verbatim|word for word|word-for-word|exactly as (?:written|follows|given)|as written)\b[^:]*:\s*([\s\S]+)$/i;
const QUOTED_PASSAGE = /^(?:"([^"]+)"|“([^”]+)”|'([\s\S]+?)'(?=\s|$))/;

export interface Gate {
  /** The condition's words, positive form: the instruction applies when it holds. */
  condition: string;
  /** True when the instruction applies only if the condition does NOT hold ("disregard if ..."). */
  inverted: boolean;
}

/** The gate sentences of an instruction, and the instruction without them. */
export function splitGates(sentences: string[]): { gates: Gate[]; rest: string[] } {
  const gates: Gate[] = [];
  const rest: string[] = [];
  for (const sentence of sentences) {
    const m = GATE.exec(sentence);
    if (!m) {
      rest.push(sentence);
      continue;
    }
    const dropping = m[1] !== undefined;
    const word = (m[2] ?? m[3] ?? "if").toLowerCase();
    // "disregard if C" applies when not C; "disregard unless C" and "use only if C" apply when C.
    const inverted = dropping ? word === "if" : word === "unless";
    gates.push({ condition: m[4] ?? "", inverted });
  }
  return { gates, rest };
}

/** The passage an instruction asks to show as written, or null. */
export function verbatimPassage(instruction: string): string | null {
  const m = VERBATIM.exec(instruction);
  if (!m) return null;
  const after = m[1]!.trim();
  const quoted = QUOTED_PASSAGE.exec(after);
  // A quoted passage ends at its closing quote; an unquoted one at the end of its paragraph.
  const passage = quoted ? (quoted[1] ?? quoted[2] ?? quoted[3] ?? "") : after.split(/\n\s*\n/)[0]!;
  return passage.trim() === "" ? null : passage.trim();
}

/** Does this instruction only state hidden state for the narrator (never to be printed, whole)? */
export function isHiddenState(instruction: string): boolean {
  return HIDDEN.test(unquoted(instruction));
}

/** Markdown structure: a heading, a list item, a label line ending in ":" (an idea list follows), a rule line. */
export function isMarkup(line: string): boolean {
  const t = line.trim();
  return (
    /^#{1,6}\s/.test(t) ||
    /^(?:[-*•+]|\d+[.)])\s+/.test(t) ||
    /^\*\*[^*]+\*\*:?$/.test(t) ||
    /^[^.!?]{1,80}:$/.test(t) ||
    /^(?:-{3,}|\*{3,}|_{3,})$/.test(t)
  );
}

/**
 * Is this sentence (already converted by instructions.ts where it could be)
 * written for the narrator? Quotations are never judged: what a character
 * says is prose.
 */
export function isNarratorOnly(sentence: string): boolean {
  const plain = unquoted(sentence).trim();
  if (plain === "") return false;
  if (isMarkup(plain)) return true;
  if (META.test(plain) || HIDDEN.test(plain) || BRANCHING.test(plain)) return true;
  if (
    /^(?:if|when|whenever|unless|should|in case|once|after|before|until)\b[^,]*\b(?:player|party|they|characters?)\b/i.test(
      plain,
    )
  )
    return true;
  const first =
    /^(?:(?:now|then|also|and|but|please|always|never|only|just|finally|instead|first|next|do not|don't)\s+)*([A-Za-z']+)/i.exec(
      plain,
    );
  const verb = first?.[1]?.toLowerCase() ?? "";
  const directive = /^(?:do not|don't|never|always|only|please)\b/i.test(plain);
  if ((NARRATOR_VERBS.has(verb) || directive) && !/^(?:you|your|yours)$/i.test(verb)) {
    // A player-facing imperative: speaks to "you", names nothing of the game ("Make your way to the gate").
    const toPlayer =
      /\b(?:you|your|yourself)\b/i.test(plain) &&
      !/\b(?:player|party|characters?|scene|story)\b/i.test(plain);
    return !toPlayer;
  }
  return false;
}

/** The text outside quotations (dialogue is prose, whatever words it uses). */
function unquoted(text: string): string {
  return text.replace(/“[^”]*”|"[^"]*"|(^|[\s:(—-])'[^']*[.,!?]'/g, "$1 ");
}

/**
 * What the party has been told, statement by statement (stemmed content
 * words of each clause, outside quotations): the recent story, the summary, this turn's outcomes and the
 * instructions told this turn. Never the players' actions: what a player
 * tries is not what happened. Picks the branch of an "either ... or ...".
 */
export interface Evidence {
  sentences: Set<string>[];
}

/** Sentences that deny what they name ("the lamp is not burning") support no branch. */
const NEGATED = /\b(?:not|no|never|nor|cannot|without|none|neither)\b|n't\b/i;

export function evidenceOf(texts: readonly string[]): Evidence {
  const evidence: Evidence = { sentences: [] };
  for (const text of texts) addEvidence(evidence, text);
  return evidence;
}

/** Where one statement ends and another begins inside a sentence: "the key hangs on its hook, and the sky has turned". */
const CLAUSE = /\s*[:;—]\s*|,\s+(?=(?:and|but|while|yet|so|as|where|when)\b)/i;

export function addEvidence(evidence: Evidence, text: string): void {
  for (const words of statementsOf(text)) evidence.sentences.push(words);
}

/**
 * Each text's statements, by the text, most recently used last: a turn's evidence is the last turns'
 * story and the summary, told again at the next turns (a server's games, turn after turn), and
 * stemming them is most of what it costs. The sets are only read (chooseBranch).
 */
const statements = new Map<string, readonly Set<string>[]>();
const STATEMENT_TEXTS = 512;
/** Longer texts are not kept (a bound on what the cache holds: STATEMENT_TEXTS of these at most). */
const STATEMENT_CHARS = 8000;

function statementsOf(text: string): readonly Set<string>[] {
  const known = statements.get(text);
  if (known !== undefined) {
    statements.delete(text);
    statements.set(text, known);
    return known;
  }
  const found: Set<string>[] = [];
  for (const sentence of sentences(text))
    for (const clause of unquoted(sentence).split(CLAUSE)) {
      if (NEGATED.test(clause)) continue;
      const words = stemmedWords(clause);
      if (words.size > 0) found.push(words);
    }
  if (text.length <= STATEMENT_CHARS) {
    statements.set(text, found);
    if (statements.size > STATEMENT_TEXTS) statements.delete(statements.keys().next().value as string);
  }
  return found;
}

/**
 * A sentence without its conditional side clauses: "A pale dawn, with
 * wreckage or none depending on what happened, the gulls returning." -> "A
 * pale dawn, the gulls returning." A clause between commas that branches is
 * cut; when the branching is not such a side clause, the sentence is ""
 * (a narrator would resolve it; the offline narrator cannot, so says nothing).
 * `background` (see chooseBranch) is what the text around the sentence names.
 */
export function pruneBranches(sentence: string, known?: Evidence, background?: ReadonlySet<string>): string {
  if (!BRANCHING.test(unquoted(sentence))) return sentence;
  if (known) {
    const chosen = chooseBranch(sentence, known, background);
    if (chosen !== null) return chosen;
  }
  const clauses = sentence.split(/(?<=,)\s+/);
  // "Whether A or B, C": C holds either way.
  if (clauses.length >= 2 && /^whether\b/i.test(clauses[0]!)) {
    const main = clauses.slice(1).join(" ").trim();
    return main === "" || BRANCHING.test(unquoted(main)) ? "" : `${main[0]!.toUpperCase()}${main.slice(1)}`;
  }
  if (clauses.length < 2 || BRANCHING.test(clauses[0]!)) return "";
  const kept = clauses.filter((c, i) => i === 0 || !BRANCHING.test(c));
  let text = kept.join(" ").trim();
  if (kept.at(-1) !== clauses.at(-1)) text = `${text.replace(/,$/, "")}.`;
  return BRANCHING.test(unquoted(text)) ? "" : text;
}

const EITHER = /^\s*(?:\d+[.)]\s*)?either\s+(.+?),?\s+or\s+(.+?)\s*[.!]?\s*$/i;

/**
 * "Either the lamp burns and the ship turns from the reef, or it stays dark
 * and the sea takes its due." -> the branch that what the party was told
 * states, or null when none is stated (the offline narrator then says
 * nothing).
 *
 * A branch is stated by one statement of the evidence that holds at least two
 * of its content words (all of them when it has fewer), one of them a word
 * that decides: not in the other branch, and not in `background` (what the
 * text around the branch names: the event's other beats, the instruction's
 * other sentences). Words scattered over the story prove nothing: a story
 * about a dark lamp names "lamp", "ship" and "reef" in every turn, and "the
 * sky has turned" is not "the ship turns". Only the branch that is stated
 * more than the other is chosen.
 */
export function chooseBranch(
  sentence: string,
  known: Evidence,
  background: ReadonlySet<string> = new Set(),
): string | null {
  const m = EITHER.exec(unquoted(sentence));
  if (!m) return null;
  const branches = [m[1]!, m[2]!];
  const words = branches.map((b) => stemmedWords(b));
  const scores = words.map((own, i) => {
    const other = words[1 - i]!;
    const deciding = new Set([...own].filter((w) => !other.has(w) && !background.has(w)));
    if (deciding.size === 0) return 0;
    const needed = Math.min(2, own.size);
    let best = 0;
    for (const told of known.sentences) {
      let hits = 0;
      let decides = false;
      for (const w of own)
        if (told.has(w)) {
          hits++;
          if (deciding.has(w)) decides = true;
        }
      if (decides && hits >= needed) best = Math.max(best, hits);
    }
    return best;
  });
  const best = scores[0]! > scores[1]! ? 0 : scores[1]! > scores[0]! ? 1 : -1;
  if (best < 0) return null;
  const branch = branches[best]!.trim().replace(/[,;]$/, "");
  // "it stays dark": a pronoun left from the first branch has no antecedent alone.
  if (/^(?:it|they|he|she)\b/i.test(branch)) return null;
  const text = `${branch[0]!.toUpperCase()}${branch.slice(1)}.`;
  return BRANCHING.test(text) ? null : text;
}
