import { caseless, foldCase } from "../../case-fold.ts";
import { defineRule } from "../../rule.ts";
import { entriesOf, isPlainObject } from "../../values.ts";

type MessageId = "negation" | "several" | "long" | "intention";

/** Past this many words a question usually carries several things or a story of its own. */
const MAX_WORDS = 30;

/** A negation of the asked thing: the judge answers false when the text does not say, so it fails on silence. */
const NEGATION =
  /\b(?:not|never|no longer|without|fails? to|(?:does|do|did|has|have|had|is|are|was|were|can|could|wo|would|should)n['’]t)\b/i;

/** An intention, not an act: the story rarely says it, and a mention of a plan reads as one. */
const INTENTION =
  /\b(?:(?:wants?|wanted|plans?|planned|intends?|intended|wish(?:es)?|wished|hopes?|hoped|is about|is going) to|thinks? about|considers?|considered)\b/i;

/** The wording problem of a judged question, first found wins; null when none is seen. */
export function wordingProblem(
  query: string,
): { messageId: MessageId; data: Record<string, string | number> } | null {
  const text = query.trim();
  // Read folded (case-fold.ts: the same matches as with `i`, at the same offsets, and cheaper to compile).
  const folded = foldCase(text);
  const negation = matchedIn(text, FOLDED_NEGATION.exec(folded));
  if (negation) return { messageId: "negation", data: { word: JSON.stringify(negation) } };
  const questions = text.split(/[?;]|[.!](?=\s|$)/).filter((part) => /\p{L}/u.test(part));
  if (questions.length > 1) return { messageId: "several", data: { count: questions.length } };
  const words = text.split(/\s+/).filter(Boolean).length;
  if (words > MAX_WORDS) return { messageId: "long", data: { words, max: MAX_WORDS } };
  const intention = matchedIn(text, FOLDED_INTENTION.exec(folded));
  if (intention) return { messageId: "intention", data: { word: JSON.stringify(intention) } };
  return null;
}

const FOLDED_NEGATION = caseless(NEGATION);
const FOLDED_INTENTION = caseless(INTENTION);

/** The words of `text` a match in its folded copy covers, as written. */
function matchedIn(text: string, match: RegExpExecArray | null): string | null {
  return match ? text.slice(match.index, match.index + match[0].length) : null;
}

const HOW =
  'See docs/eval.md ("Wording a condition that judges well") and measure it with `taleforge eval <world>`.';

export default defineRule<MessageId>({
  code: "lint/judged-wording",
  severity: "warning",
  description:
    "An AI-judged condition (`story` or `action`) is worded in a way a judge decides badly: a negation, several questions in one, a very long question, or an intention instead of an act.",
  why: `A \`story\` or \`action\` condition passes when a model answers its question with yes, and the judge answers false when the text does not say (src/ai/prompts/judge.ts). A negation ("has not paid the toll") therefore fails exactly when nothing happened; a question of several sentences or parts is true for some of them and the model picks one; a very long question is a story of its own that the model half-matches; an intention ("wants to", "plans to") is rarely said and a mere mention reads as one. Such conditions fire unreliably, and players notice first (the quest that never completes). The rule reads the wording only; how often a condition really judges right on your model is measured by \`taleforge eval\`. docs/eval.md explains how to read its report and how to word a condition that judges well: one observable act, asked positively, in the world's names, with a mechanical condition beside it.`,
  messages: {
    negation: `This judged condition asks a negation ({word}): the judge answers false when the text does not say, so it fails when nothing happened. Ask the positive act in another trigger, or use a storage flag that trigger sets. ${HOW}`,
    several: `This judged condition asks {count} questions in one: the model answers one of them. Ask one observable act per condition (or per trigger). ${HOW}`,
    long: `This judged condition is {words} words long (more than {max}): the model half-matches a long question. Ask one observable act in a short question. ${HOW}`,
    intention: `This judged condition asks about an intention ({word}), which the story rarely says and a mention reads as: ask about the act itself ("Does the player open the gate?"). ${HOW}`,
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: {
          conditions: [{ type: "action", query: "The player has not paid the toll" }],
        },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          conditions: [{ type: "action", query: "Does the player pay the toll?" }],
        },
      },
    },
  },
  check({ raw, report }) {
    // Triggers share their questions: each wording is read once.
    const seen = new Map<string, ReturnType<typeof wordingProblem>>();
    for (const [key, trigger] of entriesOf(raw.triggers)) {
      if (!isPlainObject(trigger) || !Array.isArray(trigger.conditions)) continue;
      for (const [i, condition] of trigger.conditions.entries()) {
        if (!isPlainObject(condition)) continue;
        if (condition.type !== "story" && condition.type !== "action") continue;
        if (typeof condition.query !== "string") continue;
        let problem = seen.get(condition.query);
        if (problem === undefined) {
          problem = wordingProblem(condition.query);
          seen.set(condition.query, problem);
        }
        if (problem) report({ path: ["triggers", key, "conditions", i, "query"], ...problem });
      }
    }
  },
});
