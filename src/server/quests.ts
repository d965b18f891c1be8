import { ApiError } from "./errors.ts";

export type QuestAnswer = "accept" | "reject" | "abandon";

/**
 * The party's rule for quest answers. A quest's status belongs to the party
 * (spec 3), but the acceptance prompt goes to each player (spec 3, "a prompt
 * to the player"), so every player answers for themself and the party's
 * answer follows from theirs:
 * - accept: the first player who accepts takes the quest for the party. An
 *   accepted quest can still be abandoned, so one willing player is enough and
 *   nobody can block the others from playing it.
 * - reject and abandon: only when every active player has given that answer.
 *   Both are final (a rejected or abandoned quest is never offered again), so
 *   one player must not throw a quest away for the whole party.
 * Each player's latest answer counts (a player may change their mind); kicked
 * players do not count.
 */
export function partyDecides(answer: QuestAnswer, latest: Map<string, string>, active: string[]): boolean {
  if (answer === "accept") return true;
  return active.every((id) => latest.get(id) === answer);
}

export interface QuestAnswerOutcome {
  quest: string;
  answer: QuestAnswer;
  /** The quest's status for the party after this answer. */
  status: string;
  /** The active players who have not (yet) given this answer, when the party has not decided. */
  waitingFor: string[];
}

/** The quest's key: exact, or the one key equal to it ignoring case (as the engine reads it). */
export function questKey(keys: string[], name: string): string {
  if (keys.includes(name)) return name;
  const folded = keys.filter((k) => k.toLowerCase() === name.trim().toLowerCase());
  if (folded.length === 1) return folded[0]!;
  throw new ApiError("engine/refused", "unknown-quest", { quest: name }, { quest: name });
}
