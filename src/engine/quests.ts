import type { StepContext } from "./context.ts";
import { writableQuest } from "./draft.ts";
import { EngineError } from "./errors.ts";
import { own, setOwn } from "./own.ts";
import type { QuestState, QuestStatus } from "./state.ts";

/**
 * The quest state machine of spec 3 and resolutions "Quests":
 * hidden -> available (quest-init, or a story start's startingQuests);
 * available -> accepted | rejected (the player's answer to the prompt);
 * available -> expired (end of the turn at availability tick + 3, or of the
 * turn in which the party left the location where it became available);
 * accepted -> abandoned (API); any -> completed (quest-complete, or
 * quest-progress on an accepted quest, or acceptance once the main objective
 * is done).
 */

/** Turns after becoming available at whose end an unaccepted quest expires. */
export const QUEST_EXPIRY_TURNS = 3;

export function questEntry(ctx: StepContext, key: string): QuestState {
  const existing = own(ctx.state.quests, key);
  if (existing) return writableQuest(ctx.state.quests, key, existing);
  const quest = own(ctx.index.world.quests, key);
  const objectives: QuestState["objectives"] = {};
  for (const [id, objective] of Object.entries(quest?.objectives ?? {}))
    setOwn(objectives, id, objective.status);
  const entry: QuestState = {
    status: "hidden",
    transitions: [],
    objectives,
    activeObjectiveId: quest?.activeObjectiveId ?? null,
    nextStep: quest?.nextStep ? { ...quest.nextStep } : null,
    mainObjectiveDone: false,
    availableAt: null,
  };
  setOwn(ctx.state.quests, key, entry);
  return entry;
}

export function questStatus(ctx: StepContext, key: string): QuestStatus {
  return own(ctx.state.quests, key)?.status ?? "hidden";
}

export function isQuest(ctx: StepContext, key: string): boolean {
  return Object.hasOwn(ctx.index.world.quests, key);
}

/** Moves a quest to a status, recording the tick and the reason. Returns false when it already had it. */
export function moveQuest(ctx: StepContext, key: string, to: QuestStatus, reason: string): boolean {
  const entry = questEntry(ctx, key);
  const from = entry.status;
  if (from === to) return false;
  entry.status = to;
  entry.transitions.push({ status: to, tick: ctx.state.tick });
  if (to === "available") {
    entry.availableAt = { tick: ctx.state.tick, location: ctx.state.position.location };
    ctx.recorder.madeAvailable.push(key);
  }
  ctx.recorder.quests.push({ quest: key, from, to, reason });
  ctx.recorder.outcomes.push({ type: "quest", actor: null, quest: key, from, status: to });
  return true;
}

/** `quest-progress`: the main objective is done; an accepted quest is then completed. */
export function progressQuest(ctx: StepContext, key: string, reason: string): boolean {
  const entry = questEntry(ctx, key);
  const changed = !entry.mainObjectiveDone;
  entry.mainObjectiveDone = true;
  if (entry.status === "accepted") return moveQuest(ctx, key, "completed", reason) || changed;
  return changed;
}

export type QuestAnswer = "accept" | "reject" | "abandon";

/** The player's answer to a prompt, or abandoning: throws a coded error when the quest's status does not allow it. */
export function answerQuest(ctx: StepContext, key: string, answer: QuestAnswer): QuestStatus {
  const status = questStatus(ctx, key);
  if (answer === "abandon") {
    if (status !== "accepted") {
      throw new EngineError("quest/not-accepted", "abandon", { quest: key, status }, { quest: key, status });
    }
    moveQuest(ctx, key, "abandoned", "abandoned by the player");
    return "abandoned";
  }
  if (status !== "available") {
    throw new EngineError(
      "quest/not-available",
      answer === "accept" ? "accept" : "reject",
      { quest: key, status },
      { quest: key, status },
    );
  }
  if (answer === "reject") {
    moveQuest(ctx, key, "rejected", "rejected by the player");
    return "rejected";
  }
  moveQuest(ctx, key, "accepted", "accepted by the player");
  if (questEntry(ctx, key).mainObjectiveDone) {
    moveQuest(ctx, key, "completed", "accepted with its main objective already done");
    return "completed";
  }
  return "accepted";
}

/** End of a turn: available quests past their window, or left behind, expire. */
export function expireQuests(ctx: StepContext): void {
  for (const [key, entry] of Object.entries(ctx.state.quests)) {
    if (entry.status !== "available" || !entry.availableAt) continue;
    if (ctx.state.tick >= entry.availableAt.tick + QUEST_EXPIRY_TURNS) {
      moveQuest(ctx, key, "expired", `not accepted within ${QUEST_EXPIRY_TURNS} turns`);
    } else if (ctx.state.position.location !== entry.availableAt.location) {
      moveQuest(
        ctx,
        key,
        "expired",
        `the party left ${entry.availableAt.location || "the place"} where it was offered`,
      );
    }
  }
}

export interface QuestPrompt {
  quest: string;
  source: string;
  statement: string;
  mainObjective: string;
  /** new: it became available this turn; acceptQuest: the player asked (the intent lists every available quest). */
  reason: "new" | "acceptQuest";
}

/** The acceptance prompts raised after a turn (resolutions "Quests"). */
export function questPrompts(ctx: StepContext, acceptIntent: boolean): QuestPrompt[] {
  const prompts: QuestPrompt[] = [];
  const seen = new Set<string>();
  const add = (key: string, reason: QuestPrompt["reason"]) => {
    if (seen.has(key) || questStatus(ctx, key) !== "available") return;
    seen.add(key);
    const quest = ctx.index.world.quests[key]!;
    prompts.push({
      quest: key,
      source: quest.questSource,
      statement: quest.questStatement,
      mainObjective: quest.mainObjective,
      reason,
    });
  };
  for (const key of ctx.recorder.madeAvailable) add(key, "new");
  if (acceptIntent) for (const key of Object.keys(ctx.state.quests)) add(key, "acceptQuest");
  return prompts;
}
