import type { NarrationInput } from "./request.ts";
import { endSentence } from "./text.ts";

/**
 * A stranger asking the narrator what to do ("what should I do?", "what now", "any hints?") gets
 * the next step the journal held when the turn began, instead of their words echoed as speech.
 * The step is the one the front ends show (src/engine/next-step.ts): the party's, else an
 * accepted quest's, else an available one's. It is read from the request, so it is the step as
 * the turn began: the state phase after the narration may still change it, and the front end's
 * own `Next:` line then says so. Null for any other words.
 */
const ASKS_WHAT_TO_DO = new RegExp(
  [
    // "what should I do (now)?", "what do we do next", "what am I supposed to do?", "where should I go?"
    String.raw`(?:so\s+|ok(?:ay)?\s+|well\s+|and\s+|now\s+)?(?:what|where)\s+(?:should|shall|do|can|could|must|am|are|now)\s+(?:i|we)\s+(?:supposed\s+to\s+|meant\s+to\s+|have\s+to\s+)?(?:do|go|try)(?:\s+(?:now|next|here|first))?`,
    // "what now?", "what next?", "now what?"
    String.raw`(?:so\s+|and\s+)?(?:what\s+(?:now|next)|now\s+what)`,
    // "any hints?", "give me a hint", "i need a hint", "hint", "help me"
    String.raw`(?:(?:any|a|some)\s+)?(?:hints?|clues?)(?:\s+please)?`,
    String.raw`(?:give\s+me|i\s+need)\s+(?:a\s+|some\s+)?(?:hints?|clues?|help)`,
    // "help me" was "You help you; nothing comes of it."
    String.raw`help\s+(?:me|us)(?:\s+please)?`,
    String.raw`what\s+is\s+my\s+(?:quest|goal|task|next\s+step)`,
    String.raw`what\s+(?:was|is)\s+i\s+(?:doing|supposed\s+to\s+do)`,
  ]
    .map((source) => `^\\s*${source}\\s*[?!.]*\\s*$`)
    .join("|"),
  "i",
);

export function asksWhatToDo(action: string): boolean {
  return ASKS_WHAT_TO_DO.test(action.replace(/[’']/g, "'"));
}

/** The prose answering "what should I do?": the journal's next step, or where to look when there is none. */
export function hintLine(input: NarrationInput): string {
  const step = nextStep(input);
  if (step === null)
    return "You take stock: look around, and talk to the people you meet; what you learn may show the way.";
  return `You take stock of what you know. Next: ${endSentence(step)}`;
}

function nextStep(input: NarrationInput): string | null {
  const open = (text: string) => text.trim() !== "";
  const byStatus = (status: string) =>
    input.journal.filter((j) => j.status === status).map((j) => j.nextStep);
  return [input.partyNextStep, ...byStatus("accepted"), ...byStatus("available")].find(open)?.trim() ?? null;
}
