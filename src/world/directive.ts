import { caseless, foldCase } from "./case-fold.ts";

/**
 * Text written for the narrator, decided per text (issue 35). Real worlds
 * write story starts and `story` effects as prompts for a model ("Set the
 * scene in ...; mention that ...; Once you have established the scene, end
 * without further complications"). Such a text is a direction as a whole:
 * the sentences between its directions ("The PC has just signed on as ...",
 * "the guard should blow the horn") are notes to the writer too, so no
 * sentence of it is ever shown as story. Lint reports each text taken as one
 * (`lint/narrator-directive`), and the offline narrator never prints it.
 *
 * One sentence that addresses the writer makes the whole text a direction:
 * - it names the writer's side: the PC, the player(s), the narrator, the AI,
 *   the response, the opening or the scene as something to write;
 * - it opens (or a clause of it opens, after ";", ":" or "and") with a
 *   writer's verb in the imperative: set the scene, describe, mention,
 *   generate, draw on, incorporate, establish, introduce, end, keep, make
 *   it clear, avoid, include, don't ... (an imperative to the player, with
 *   "you"/"your" and no writer's word, is story: "Make your way to the gate");
 * - it says what someone "should" do (a scripted beat: "Brann should blow
 *   the horn"), unless "should" sits in a subordinate clause ("where the key
 *   should hang", "than anyone should");
 * - it is a stage direction: "[Describe the hall]", "(Note: ...)", "OOC".
 * Verbs a narrator turns into prose ("Let that knowledge sit heavy", "give
 * them its last pages") do not decide alone.
 */

export interface Directive {
  /** The sentence that makes the text a direction (outside quotations, trimmed, at most 160 characters). */
  sentence: string;
  /** What in it addresses the writer. */
  why: "addressee" | "imperative" | "should" | "stage direction";
}

/** Who only a direction to the writer names. */
const ADDRESSEE_PC = /\bPCs?\b/;
const ADDRESSEE =
  /\b(?:player characters?|the players?(?:'s)?|players'|narrator|narration|narrate|the (?:ai|llm|gm|model|game master)|(?:the|your|this|each|the next) (?:response|reply|output|prompt)|this (?:instruction|prompt|note)|story start|the opening (?:scene|should|must|needs?)|(?:set|setting|establish(?:ed|ing)?|open|end|close|describe) the scene|the scene (?:should|must|needs?|is to)|once you(?:'ve| have) (?:established|set|described|introduced))\b/i;

/** Writer's verbs in the imperative, at a sentence or clause start (with what must follow, where the verb alone is ambiguous). */
const IMPERATIVE =
  /^(?:(?:now|then|also|and|but|please|just|finally|first|next|briefly|quickly)\s+)*(?:describe|mention|generate|draw on|draw from|incorporate|establish|introduce|portray|depict|narrate|emphasi[sz]e|focus on|highlight|foreshadow|hint at|convey|weave|frame|reveal|show the|present the|set (?:the|up|it|a)|end (?:with|on|without|the|here|when|after|by)|begin (?:with|by|the)|start (?:with|by|the)|open (?:with|by|on)|close (?:with|on|by)|keep (?:it|the|this|things|them|him|her|descriptions?|dialogue)|make (?:it|sure|clear|the|them|him|her|this)|ensure|avoid|include|use (?:the|this|a|an)|write|continue|remember that|note that|do not|don't|never (?:mention|reveal|describe|say|let|have|make|give|tell|show)|always (?:mention|describe|keep|make|end|give|show|use)|have (?:them|him|her|the player|the pc) (?:say|do|decide)|let the player|give the player|tell the player|ask the player|offer the player|allow the player|leave (?:room|it|the)|create|provide|invent|improvise|adapt|tailor|suggest|list (?:a|some|several|the)|give (?:the party|the players?|them|him|her|each|every)|for (?:each|every)(?: one| of them)?,? (?:give|list|name|describe|add|include|offer))\b/i;

/** "X should <verb>" outside a subordinate clause: a scripted beat or a rule for the writer. */
const SHOULD = /\bshould\b/i;
const SUBORDINATE =
  /\b(?:where|which|that|who|whom|whose|if|when|whenever|whether|unless|what|how|why|though|although|as|than|until|because|wherever|lest)\b/i;

/** Stage directions: a bracketed direction, a note to the writer, out of character. */
const STAGE =
  /\[[^\]]*\p{L}[^\]]*\](?!\()|\((?:note|ooc|aside|gm|narrator)\b[^)]*\)|^\s*(?:note|ooc|gm note|author's note)\s*:|\bOOC\b/iu;

/**
 * A gate that decides whether the whole instruction applies ("Disregard this
 * instruction if the player is not asking about the guild."): a note to the
 * narrator the offline narrator resolves, so the rest is judged without it.
 */
export const GATE =
  /^\s*(?:(disregard|ignore|skip|drop)\s+(?:this|the)\b[^.]*?\b(if|unless)\b|(?:only\s+)?(?:use|apply|follow|include)\s+(?:this|the)\b[^.]*?\b(?:only\s+)?(if|when|unless)\b)\s*([^.]*)\.?\s*$/i;

/**
 * Why this text is addressed to the narrator, or null when it is story.
 * Quotations are never judged (what a character says is story).
 */
export function directiveOf(text: string): Directive | null {
  if (typeof text !== "string" || text.trim() === "") return null;
  const plain = unquoted(text.slice(0, 20_000));
  for (const raw of sentencesOf(plain)) {
    const sentence = raw.replace(/^[\s#>*_-]+/, "").trim();
    if (sentence === "") continue;
    // The case-insensitive tests read the sentence folded (case-fold.ts): the same answers, cheaper to compile.
    const folded = foldCase(sentence);
    if (FOLDED_GATE.test(folded)) continue;
    const why = sentenceWhy(sentence, folded);
    if (why) return { sentence: sentence.slice(0, 160), why };
  }
  return null;
}

/** Why a sentence addresses the writer; `folded` is the sentence folded by foldCase. */
function sentenceWhy(sentence: string, folded: string): Directive["why"] | null {
  if (STAGE.test(sentence)) return "stage direction";
  if (ADDRESSEE_PC.test(sentence) || FOLDED_ADDRESSEE.test(folded)) return "addressee";
  for (const clause of folded.split(FOLDED_CLAUSE_START)) {
    const bracketed = /^\[\s*/.test(clause);
    const start = clause.replace(/^[[(\s"'“‘]+/, "");
    if (FOLDED_IMPERATIVE.test(start) && (bracketed || !toPlayer(clause))) return "imperative";
  }
  for (const clause of folded.split(/[,;:—]|\s-\s/)) {
    const at = clause.search(FOLDED_SHOULD);
    if (at < 0) continue;
    const before = clause.slice(0, at);
    if (FOLDED_SUBORDINATE.test(before) || /\?\s*$/.test(folded) || /^\s*(?:you|we|i)\b/.test(before))
      continue;
    if (/^\s*should\b/.test(clause)) continue; // "Should the party ...": a condition
    return "should";
  }
  return null;
}

/** An imperative to the player: "you"/"your" and no writer's word ("Make your way to the gate"); `clause` folded. */
function toPlayer(clause: string): boolean {
  return /\b(?:you|your|yourself)\b/.test(clause) && !/\b(?:scene|story|narrat\w*|pc|player)\b/.test(clause);
}

/** Where an imperative may start inside a sentence: after ";", ":", "—", or ", and" / " and then" before a verb. */
const CLAUSE_START =
  /\s*[;:—]\s*|,\s*(?:and\s+)?(?:then\s+)?(?=(?:describe|mention|end|set|make|keep|have|don't|do not|avoid|include|introduce|establish)\b)|\s+and\s+(?=(?:describe|mention|end|set the|make it|make sure|keep it|don't|do not|avoid|include|introduce|establish)\b)/i;

/** The case-insensitive expressions above without `i`, for folded text (see foldCase). */
const FOLDED_GATE = caseless(GATE);
const FOLDED_ADDRESSEE = caseless(ADDRESSEE);
const FOLDED_IMPERATIVE = caseless(IMPERATIVE);
const FOLDED_SHOULD = caseless(SHOULD);
const FOLDED_SUBORDINATE = caseless(SUBORDINATE);
const FOLDED_CLAUSE_START = caseless(CLAUSE_START);

/** Sentences: at . ! ? followed by a space, and at line breaks. */
function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/).filter((s) => s.trim() !== "");
}

/** The text outside quotations (dialogue is story, whatever words it uses). */
function unquoted(text: string): string {
  return text.replace(/“[^”\n]*”|"[^"\n]*"|(^|[\s:(—-])'[^'\n]*[.,!?]'/g, "$1 “…”");
}
