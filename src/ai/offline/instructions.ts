import type { Intent } from "../../engine/ports.ts";
import { contentWords, coverage } from "../../engine/relevance.ts";
import { directiveOf } from "../../world/directive.ts";
import { thirdPerson } from "./lexicon.ts";
import type { NameIndex } from "./names.ts";
import {
  type Evidence,
  isHiddenState,
  isMarkup,
  isNarratorOnly,
  pruneBranches,
  splitGates,
  verbatimPassage,
} from "./narrator-only.ts";
import { namesParty, quoteSpans, toSecondPerson } from "./person.ts";
import { capitalise, endSentence, sentences, stemmedWords, stems, tokenize } from "./text.ts";

/**
 * One-time `story` instructions are written as directions to a narrator
 * ("Mara Venn ... is looking for help at the Gutted Eel. If the party speaks
 * with her, she tells them herself: ..."). The offline narrator turns each
 * into prose, sentence by sentence (a sentence may be cut further at ";"):
 *
 * - a statement is kept as what happens, in the second person (person.ts);
 * - "If <condition>, <consequence>": the consequence is kept only when the
 *   condition holds this turn (see conditionHolds), else the sentence is
 *   dropped: a narrator would not describe what did not happen;
 * - "Describe/Show/Reveal/Mention ... X" -> X; "Give/Offer/Tell/Remind them
 *   (that) X" -> X; "Let/Have X <verb> ..." -> "X <verb>s ..." ("Let someone
 *   grumble that ..." -> "Someone grumbles that ...");
 * - pure style directions ("Keep ...", "Make ...", "End on ...", "Avoid ...")
 *   are dropped.
 */

export interface InstructionContext {
  /** The turn's action texts, joined. */
  actionText: string;
  /** The turn's intent, or null (opening). */
  intent: Intent | null;
  /** The party's location now (after any movement of this turn). */
  location: string;
  /** The party's area now. */
  area?: string;
  /** The world's location names (to find which places an instruction is about). */
  places: NameIndex;
  /** The offline classifier applied to a condition's words (same NPCs present as the turn). */
  classify: (text: string) => Intent;
  /** What the party was told (recent story, summary, outcomes, instructions told before): picks "either ... or ..." branches. */
  known?: Evidence;
  /** Why an instruction was left out, when a guard on the place decided it (for the trace). */
  dropped?: string[];
}

const OBJECT_VERBS = new Set(
  "describe describes show reveal mention include depict paint present narrate portray evoke".split(" "),
);
const GIVE_VERBS = new Set("give offer hand grant tell remind inform warn".split(" "));
const LET_VERBS = new Set(["let", "have"]);
const DROP_VERBS = new Set(
  "keep make end open introduce ensure allow avoid use focus emphasise emphasize hint note add play set start begin close stress do don't dont never always remember treat write continue ground be consider vary limit match prefer".split(
    " ",
  ),
);
const RECIPIENTS =
  /^(?:them|the party|the characters?|the players?|him|her|everyone|you)\b(?:\s*,)?\s*(?:that\s+)?/i;

/** Base verbs that may follow "Let <subject>" (the subject ends right before one of them). */
const LET_BASES = new Set(
  "sit feel cost speak grumble know come go see hear show take give fall rise hang linger settle remain stay say tell ask wait watch look notice catch drift sound ring echo burn die fade return appear arrive pass move break hold keep stand lie run walk shake tremble weigh press creep seep swallow hide answer follow offer be have do make get want need hope try seem begin end carry bring turn call leave find think believe grow open close help meet mutter whisper shout laugh cry smile frown nod glance stare sigh rest sleep wake sway swing howl roar hum sing rattle creak drip pour blow gather scatter flee vanish emerge loom wonder worry".split(
    " ",
  ),
);

const PRONOUN_SUBJECTS: Record<string, string> = {
  someone: "Someone",
  somebody: "Somebody",
  everyone: "Everyone",
  nobody: "Nobody",
  anyone: "Anyone",
  something: "Something",
  it: "It",
  him: "He",
  her: "She",
  them: "You",
  "the party": "You",
};

/**
 * The prose for one instruction ("" when nothing of it applies this turn).
 * Narrator-only text (narrator-only.ts) is never printed: an instruction that
 * states hidden state is dropped whole; one that asks for a passage verbatim
 * gives that passage only; a gate ("Disregard this instruction if the player
 * is not asking about ...") decides for the whole instruction; headings, idea
 * lists and directions that cannot become prose are dropped sentence by
 * sentence.
 */
export function renderInstruction(instruction: string, ctx: InstructionContext): string {
  const passage = verbatimPassage(instruction);
  if (passage !== null) return passage;
  if (isHiddenState(instruction)) return "";
  // "While the party is still in the Bone Chamber, ...": a deferred instruction guarded by where it was written.
  const guard = STILL_THERE.exec(instruction);
  if (guard) {
    if (!stillThere(guard[1]!, ctx)) {
      ctx.dropped?.push(`the party is no longer at ${guard[1]!.trim()}`);
      return "";
    }
    const rest = instruction.slice(guard[0].length);
    return renderInstruction(capitalise(rest), ctx);
  }
  // Written for the narrator as a whole (a prompt, a scripted beat): no sentence of it is story (issue 35).
  if (directiveOf(instruction)) {
    ctx.dropped?.push("the instruction is written for the narrator");
    return "";
  }
  const { gates, rest } = splitGates(sentences(withoutMarkup(instruction)));
  for (const gate of gates) {
    const holds = gate.condition.trim() !== "" && conditionHolds(gate.condition, instruction, ctx);
    if (holds === gate.inverted) return "";
  }
  const out: string[] = [];
  const party = namesParty(instruction);
  // After a condition that does not hold, the sentences that follow go on with its consequence: none is told.
  let failed = false;
  for (const sentence of rest) {
    if (failed) break;
    for (const segment of splitOutsideQuotes(sentence, ";")) {
      const conditional = /^(?:if|should|in case)\s+/i.exec(segment);
      if (conditional) {
        const { condition, consequence } = splitConditional(segment.slice(conditional[0].length));
        if (!consequence || !conditionHolds(condition, instruction, ctx)) {
          failed = true;
          break;
        }
      }
      const background = stemmedWords(rest.filter((r) => r !== sentence).join(" "));
      const prose = pruneBranches(renderSegment(segment, instruction, ctx), ctx.known, background);
      if (prose && !isNarratorOnly(prose)) out.push(endSentence(capitalise(toSecondPerson(prose, party))));
    }
  }
  return [...new Set(out)].join(" ");
}

/**
 * A story start's text, for the opening: the text whole, as written (no
 * person rewrite: story starts already speak to the player; nothing cut, so
 * triggers that look for its words in the story find them), or "" when it is
 * written for the narrator (directive.ts): the narration then opens from the
 * start's description, the place and the people there. A text that asks for
 * a passage verbatim gives that passage.
 */
export function renderOpening(text: string): string {
  const passage = verbatimPassage(text);
  if (passage !== null) return passage;
  if (directiveOf(text) || isHiddenState(text)) return "";
  return text
    .split("\n")
    .map((line) => line.replace(/^\s*(?:#{1,6}\s+|[-*•+]\s+|>\s*)/, "").replace(/\*\*([^*]+)\*\*/g, "$1"))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * Without Markdown structure: headings and everything after the first one
 * (sections of ideas for the narrator), list items, label lines.
 */
function withoutMarkup(text: string): string {
  const lines = text.split("\n");
  const heading = lines.findIndex((l) => /^\s*#{1,6}\s/.test(l) || /^\s*\*\*[^*]+\*\*:?\s*$/.test(l));
  return (heading >= 0 ? lines.slice(0, heading) : lines).filter((l) => !isMarkup(l)).join("\n");
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  for (const span of quoteSpans(text)) {
    if (span.quoted) {
      current += span.text;
      continue;
    }
    const pieces = span.text.split(separator);
    current += pieces[0];
    for (const piece of pieces.slice(1)) {
      parts.push(current);
      current = piece;
    }
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

function renderSegment(segment: string, instruction: string, ctx: InstructionContext): string {
  const conditional = /^(?:if|should|in case)\s+/i.exec(segment);
  if (conditional) {
    const { condition, consequence } = splitConditional(segment.slice(conditional[0].length));
    if (!consequence || !conditionHolds(condition, instruction, ctx)) return "";
    return renderSegment(consequence.replace(/^then\s+/i, ""), instruction, ctx);
  }
  const first = /^([A-Za-z']+)\s*/.exec(segment);
  if (!first) return segment;
  const verb = first[1]!.toLowerCase();
  const rest = segment.slice(first[0].length);
  if (OBJECT_VERBS.has(verb)) return rest.replace(/^(?:that|how)\s+/i, "");
  if (GIVE_VERBS.has(verb)) return rest.replace(RECIPIENTS, "");
  if (LET_VERBS.has(verb)) return letClause(rest);
  if (DROP_VERBS.has(verb)) return "";
  return segment;
}

/**
 * "the party reads the logbook, give them ..." -> condition and consequence:
 * the condition ends at the first comma outside quotes, or earlier where a
 * subject pronoun starts the main clause ("If they confront him about the
 * debt he does not deny it").
 */
function splitConditional(text: string): { condition: string; consequence: string } {
  const plain = quoteSpans(text);
  let offset = 0;
  let comma = -1;
  for (const span of plain) {
    if (!span.quoted) {
      const at = span.text.indexOf(",");
      if (at >= 0) {
        comma = offset + at;
        break;
      }
    }
    offset += span.text.length;
  }
  const words = [...text.matchAll(/\S+/g)];
  for (let k = 2; k < words.length; k++) {
    const w = words[k]!;
    if (comma >= 0 && w.index >= comma) break;
    if (/^(?:he|she|they|it|we|you|i)$/i.test(w[0])) {
      return { condition: text.slice(0, w.index).trim(), consequence: text.slice(w.index).trim() };
    }
  }
  if (comma < 0) return { condition: text, consequence: "" };
  return { condition: text.slice(0, comma).trim(), consequence: text.slice(comma + 1).trim() };
}

const STILL_THERE =
  /^\s*(?:while|if|as long as|when)\s+(?:the party|they|the characters?)\s+(?:is|are)\s+still\s+(?:at|in|on|by|inside)\s+([^,]{1,120}),\s*/i;

/** Is the party still at the place a guard names (its location or area, "the" and case aside)? */
function stillThere(place: string, ctx: InstructionContext): boolean {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/^the\s+/, "")
      .trim();
  const named = norm(place);
  return [ctx.location, ctx.area ?? ""].some((p) => p !== "" && norm(p) === named);
}

const AWAY = /\b(?:elsewhere|left|leave|leaves|away|gone|not (?:at|in|here))\b/i;
const NEGATED = /\b(?:not|never|n't|no longer|yet to)\b/i;
/** Words of a condition that say nothing about what is done. */
const CONDITION_NOISE = new Set(
  "party player players character characters they them their him her his she its one any already yet still".split(
    " ",
  ),
);

/**
 * When does a condition hold this turn?
 * - "elsewhere", "left", "away", "not at": when the instruction names a
 *   location and the party is at none of the locations it names;
 * - otherwise when the offline classifier gives the condition the turn's
 *   intent ("the party speaks with her" and "talk to Mara Venn" are both
 *   interactNPC), that intent not being `other`;
 * - or when the turn's actions cover at least half of the condition's content
 *   words, stemmed, its first one (the act: "lights") among them ("lights the
 *   lamp" / "light the lighthouse lamp"; never "take the lamp key", which
 *   only shares the lamp).
 * A negated condition ("has not yet met her") holds when its positive does not.
 */
function conditionHolds(condition: string, instruction: string, ctx: InstructionContext): boolean {
  if (AWAY.test(condition)) {
    const named = ctx.places.match(tokenize(instruction)).map((m) => m.name.toLowerCase());
    return named.length > 0 && !named.includes(ctx.location.toLowerCase());
  }
  const negative = NEGATED.test(condition);
  const positive = condition.replace(/\b(?:not|never|no longer|yet to)\b|n't/gi, " ");
  const intent = ctx.classify(positive);
  let holds = intent !== "other" && intent === ctx.intent;
  if (!holds) {
    const words = stems([...contentWords(positive)].filter((w) => !CONDITION_NOISE.has(w)));
    const done = actionWords(ctx.actionText);
    const act = words.values().next().value;
    holds = act !== undefined && done.has(act) && coverage(words, done) >= 0.5;
  }
  return negative ? !holds : holds;
}

/** The stemmed words of the turn's actions, read once per turn however many conditions ask. */
let lastActions: { text: string; words: Set<string> } | null = null;
function actionWords(text: string): Set<string> {
  if (lastActions?.text !== text) lastActions = { text, words: stemmedWords(text) };
  return lastActions.words;
}

/** "Let <subject> <verb> ..." -> "<Subject> <verb>s ...", or "" when the verb cannot be found. */
function letClause(rest: string): string {
  const words = rest.split(/\s+/).filter((w) => w !== "");
  const first = (words[0] ?? "").toLowerCase();
  const twoWords = `${first} ${(words[1] ?? "").toLowerCase()}`;
  if (PRONOUN_SUBJECTS[twoWords])
    return finishLet(PRONOUN_SUBJECTS[twoWords]!, words.slice(2), twoWords === "the party");
  if (PRONOUN_SUBJECTS[first]) return finishLet(PRONOUN_SUBJECTS[first]!, words.slice(1), first === "them");
  for (let k = 1; k <= Math.min(4, words.length - 1); k++) {
    const candidate = words[k]!.replace(/[^A-Za-z]/g, "").toLowerCase();
    if (LET_BASES.has(candidate) && words[k] === words[k]!.toLowerCase()) {
      return finishLet(words.slice(0, k).join(" "), words.slice(k), false);
    }
  }
  return "";
}

function finishLet(subject: string, rest: string[], plural: boolean): string {
  if (rest.length === 0) return "";
  const [verb, ...tail] = rest;
  const [, word = "", trailing = ""] = /^([A-Za-z]*)(.*)$/.exec(verb!) ?? [];
  const conjugated = plural || word === "" ? verb! : `${thirdPerson(word)}${trailing}`;
  return [subject, conjugated, ...tail].join(" ");
}
