import { readSave } from "../engine/index.ts";
import { ApiError } from "./errors.ts";
import { gameEvents } from "./events.ts";
import type { Runner } from "./runner.ts";
import type { Player, Store } from "./store/store.ts";
import type { WorldCache } from "./worlds.ts";

export type QuestAnswer = "accept" | "reject" | "abandon";

/** The status a quest must have for each answer (resolutions.md "Quests"). */
const FROM: Record<QuestAnswer, string> = { accept: "available", reject: "available", abandon: "accepted" };

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

/**
 * A player's answer, on a claim of the game (one step at a time, across processes): when another
 * step runs, the answer waits for it (at most the runner's `answerWaitMs`) and is judged on the state that step left.
 * An answer that does not decide the party's answer is stored with its event; the one that decides
 * is stored with the step that applies it, in one transaction. So an answer is refused with nothing
 * stored, or stored, announced and (when it decides) applied: never stored and announced but not
 * applied.
 */
export async function answerQuest(
  deps: { store: Store; worlds: WorldCache; runner: Runner },
  gameId: string,
  player: Player,
  quest: string,
  answer: QuestAnswer,
): Promise<QuestAnswerOutcome> {
  const { store, worlds, runner } = deps;
  const { game, owner } = await runner.claimForAnswer(gameId);
  let released = false;
  try {
    const world = await worlds.get(game.world_hash);
    const key = questKey(Object.keys(world.quests), quest);
    const last = await store.lastTurn(game.id);
    const before = last ? (readSave(world, last.state).state.quests[key]?.status ?? "hidden") : "hidden";
    // A hidden quest is answered as one the world does not have: players must not learn it exists.
    if (before === "hidden") throw new ApiError("engine/refused", "unknown-quest", { quest }, { quest });
    if (before !== FROM[answer])
      throw new ApiError(
        "engine/refused",
        FROM[answer] === "available" ? "quest-not-offered" : "quest-not-accepted",
        { quest: key, status: before },
        { quest: key, status: before },
      );
    const row = {
      game_id: game.id,
      quest: key,
      player_id: player.id,
      answer,
      tick: game.tick,
      created_at: Date.now(),
    };
    const announced = gameEvents.questAnswer({ player: player.id, name: player.name, quest: key, answer });
    const active = (await store.players(game.id)).filter((p) => p.status === "active");
    const latest = new Map((await store.questAnswers(game.id, key)).map((a) => [a.player_id, a.answer]));
    latest.set(player.id, answer);
    if (
      !partyDecides(
        answer,
        latest,
        active.map((p) => p.id),
      )
    ) {
      await store.setQuestAnswer(row, announced);
      released = true;
      // The answer is stored: a claim not released expires (the sweeper takes the game over then).
      await runner.releaseClaim(game.id, owner).catch(() => {});
      const waitingFor = active.filter((p) => latest.get(p.id) !== answer).map((p) => p.name);
      return { quest: key, answer, status: before, waitingFor };
    }
    // The step releases the claim, committed or not.
    released = true;
    const done = await runner.answer(game, owner, player.name, key, answer, row, announced);
    return { quest: key, answer, status: done.status, waitingFor: [] };
  } finally {
    if (!released) await runner.releaseClaim(game.id, owner).catch(() => {});
  }
}

/** The quest's key: exact, or the one key equal to it ignoring case (as the engine reads it). */
function questKey(keys: string[], name: string): string {
  if (keys.includes(name)) return name;
  const folded = keys.filter((k) => k.toLowerCase() === name.trim().toLowerCase());
  if (folded.length === 1) return folded[0]!;
  throw new ApiError("engine/refused", "unknown-quest", { quest: name }, { quest: name });
}
