import { SUMMARY_MAX_CHARS } from "../../engine/narration.ts";

/**
 * Character budgets per prompt kind: the total length (String length) of all
 * the messages' contents. Measured on the example world and on the at-cap
 * benchmark world (docs/prompts.md has the figures): the example world never
 * reaches them, the at-cap world trims the least important parts. About four
 * characters make a token, so the narration prompt stays near 5,000 tokens.
 */
export const PROMPT_BUDGETS: PromptBudgets = Object.freeze({
  intent: 8_000,
  narration: 24_000,
  opening: 24_000,
  judge: 10_000,
  summary: 16_000,
});

export interface PromptBudgets {
  intent: number;
  narration: number;
  opening: number;
  judge: number;
  summary: number;
}

/**
 * Characters per token assumed when a context window bounds a prompt: below
 * the usual four, so that a prompt of non-English text or many names still
 * fits (a server that runs out of window silently drops the prompt's start).
 */
export const WINDOW_CHARS_PER_TOKEN = 3;
/** The largest prompt budget a context window gives (about 130,000 tokens at three characters a token). */
export const MAX_PROMPT_CHARS = 400_000;
/** Tokens kept free for the chat template's own markup around the messages. */
export const TEMPLATE_TOKENS = 100;

/**
 * The budgets for a server whose context window is `contextTokens` (issue 19
 * item 9, issue 39): each prompt kind gets the window minus the answer's
 * token limit, in characters, smaller OR larger than its PROMPT_BUDGETS
 * entry (a 128k window gets a long history), up to MAX_PROMPT_CHARS.
 */
export function budgetsFor(
  contextTokens: number,
  answerTokens: { narration: number; structured: number },
): PromptBudgets {
  const room = (answer: number) =>
    Math.min(
      MAX_PROMPT_CHARS,
      Math.max(2_000, (contextTokens - answer - TEMPLATE_TOKENS) * WINDOW_CHARS_PER_TOKEN),
    );
  const narration = room(answerTokens.narration);
  const structured = room(answerTokens.structured);
  // The structured calls need far less than the window: they grow with it, up to four times their default.
  const small = (base: number) => Math.min(structured, Math.max(base, Math.floor(structured / 4)), base * 4);
  return {
    intent: small(PROMPT_BUDGETS.intent),
    narration,
    opening: narration,
    judge: small(PROMPT_BUDGETS.judge),
    summary: small(PROMPT_BUDGETS.summary),
  };
}

/**
 * The shortest prompt prefix the largest providers cache (OpenAI: 1,024 tokens; issue 39). Every
 * call kind's stable part should pass it where it can: the intent and judge system messages, the
 * same for every world and turn, are made long enough on their own (worked examples).
 */
export const CACHE_MIN_TOKENS = 1_024;
/**
 * Characters per token when checking a text passes CACHE_MIN_TOKENS: more than English prose's
 * usual four, so that the check errs on the long side (JSON and punctuation take more tokens).
 */
export const CACHE_CHARS_PER_TOKEN = 4.2;

/** A prompt's size as PROMPT_BUDGETS counts it: the length of all its messages' contents together. */
export function promptChars(messages: readonly { content: string }[]): number {
  return messages.reduce((n, m) => n + m.content.length, 0);
}

/**
 * Caps on single pieces of text taken from the world or the session, applied
 * before any budget trimming: one hostile field (a 1 MB NPC description) then
 * costs at most its cap and cannot crowd out everything else. Real worlds stay
 * under them (the largest real `generateStory` task seen is about 3,600
 * characters); the caps are the spec's limits where it has one.
 */
export const TEXT_CAPS = Object.freeze({
  /** One aiInstructions task (all its entries together). */
  task: 6_000,
  narratorStyle: 2_000,
  gameModeInstructions: 2_000,
  worldBackground: 4_000,
  /** One worldLore entry's text. */
  lore: 1_500,
  summary: SUMMARY_MAX_CHARS,
  /** One story entry (recent story, entries to summarise). */
  storyEntry: 4_000,
  /** The intent classifier reads only the end of the recent story: what was just offered or asked. */
  intentStory: 1_500,
  locationInfo: 2_000,
  areaDescription: 1_000,
  npcInfo: 600,
  /** A premade character's backstory on its sheet. */
  backstory: 1_200,
  /** One trait's narrative guidance. */
  trait: 800,
  /** Names and other one-line values (places, NPCs, players, quests, titles). */
  name: 200,
  /** One player's action. */
  action: 2_000,
  /** One pending one-time instruction (spec 8: effect text is at most 1,000). */
  instruction: 1_000,
  outcome: 500,
  nextStep: 500,
  beats: 4_000,
  /** One resource's usageInstructions. */
  resourceUsage: 600,
  /** `death.instructions`. */
  death: 1_500,
  openingText: 4_000,
  /** One judge question (spec 8: condition text is at most 1,000). */
  query: 1_000,
});
