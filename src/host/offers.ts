import type { SessionState } from "../engine/index.ts";

/**
 * A line typed at the prompt while quests are on offer: an answer or an
 * action. One rule for every front end (the terminal's prompt, the browser's
 * action box through the server), so that a bare "y" is never "You y." in one
 * and an accepted quest in the other.
 *
 * - A yes or no ("y", "yes", "I accept the quest", "decline the offer"; see
 *   `replyOf`) answers the newest offer: the first quest the last turn offered
 *   that is still on offer, else the one quest still on offer.
 * - With no quest on offer, or several older ones, it is neither an answer
 *   nor an action: the front end says so (`replyProblem`) and plays nothing.
 * - Anything else is an action.
 */
export type LineMeaning =
  | { type: "action" }
  | { type: "answer"; quest: string; answer: QuestReply }
  | { type: "no-offer"; answer: QuestReply }
  | { type: "several"; answer: QuestReply; quests: string[] };

export type QuestReply = "accept" | "reject";

/**
 * A yes or no to an offer: "y", "yes", and the ways people say it ("I accept the quest", "accept
 * it", "decline the offer"). Anything longer is an action, played as such.
 */
export function replyOf(text: string): QuestReply | null {
  // "Yes, I accept it." -> "yes accept"; "No, I decline the offer" -> "no decline".
  const said = text
    .toLowerCase()
    .replace(/[.!,]+/g, " ")
    .replace(/\bi\s+/g, "")
    .replace(/\s+(?:it|this|that|the (?:quest|offer|job))\s*$/, "")
    .replace(/\s+/g, " ")
    .trim();
  if (/^(?:(?:y|yes|yeah)(?: (?:accept|agree))?|accept|agree)$/.test(said)) return "accept";
  if (/^(?:(?:n|no)(?: (?:reject|decline|refuse))?|reject|decline|refuse)$/.test(said)) return "reject";
  return null;
}

/** The quests on offer (available, not yet answered), in journal order. */
export function openOffers(state: SessionState): string[] {
  return Object.entries(state.quests)
    .filter(([, q]) => q.status === "available")
    .map(([key]) => key);
}

/** The quests the last turn offered that are still on offer, in journal order. */
export function newOffers(state: SessionState): string[] {
  return Object.entries(state.quests)
    .filter(([, q]) => q.status === "available" && q.availableAt?.tick === state.tick)
    .map(([key]) => key);
}

/** What a typed line means in this state. */
export function readLine(text: string, state: SessionState): LineMeaning {
  const answer = replyOf(text);
  if (answer === null) return { type: "action" };
  const fresh = newOffers(state);
  if (fresh.length > 0) return { type: "answer", quest: fresh[0]!, answer };
  const open = openOffers(state);
  if (open.length === 1) return { type: "answer", quest: open[0]!, answer };
  return open.length === 0 ? { type: "no-offer", answer } : { type: "several", answer, quests: open };
}

/** What to tell a player whose yes or no answers nothing; `how` names the front end's way to answer. */
export function replyProblem(
  meaning: Extract<LineMeaning, { type: "no-offer" | "several" }>,
  how: { list: string; answer: string },
): string {
  return meaning.type === "no-offer"
    ? `No quest is waiting for a yes or no. ${how.list}`
    : `Several quests are on offer (${meaning.quests.join(", ")}): ${how.answer}`;
}
