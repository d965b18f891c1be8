/**
 * The prompt builders: pure functions from the world and an engine request to
 * chat messages, one builder per file, each within its PROMPT_BUDGETS entry.
 * docs/prompts.md describes what each prompt holds and how it is trimmed.
 */
export { budgetsFor, PROMPT_BUDGETS, type PromptBudgets, promptChars } from "./budgets.ts";
export { intentPrompt } from "./intent.ts";
export { judgePrompt } from "./judge.ts";
export { narrationPrompt } from "./narration.ts";
export { summaryPrompt } from "./summary.ts";
export type { ChatMessage, LoreEntry, NarrationPromptOptions } from "./types.ts";
