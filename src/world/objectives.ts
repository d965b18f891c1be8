/**
 * Objective triggers (spec 2.2 "Naming", resolutions "Quests"), as the engine
 * runs them and the checks read them: a trigger named `{questId}_objective`
 * or `{questId}_objective_N` stays out of the pool until that quest is
 * accepted, and the engine makes the `{questId}_objective` trigger of a
 * detailed quest that has a completion condition.
 */

const OBJECTIVE_TRIGGER = /^(.*)_objective(?:_\d+)?$/s;

/**
 * The quest whose objective trigger this key names, or undefined when the key
 * follows no such pattern or its prefix is not a key of `quests` (a set of
 * quest keys, or the world's quest map).
 */
export function objectiveQuestOf(
  key: string,
  quests: ReadonlySet<string> | Readonly<Record<string, unknown>>,
): string | undefined {
  const quest = OBJECTIVE_TRIGGER.exec(key)?.[1];
  if (quest === undefined) return undefined;
  const known = quests instanceof Set ? quests.has(quest) : Object.hasOwn(quests, quest);
  return known ? quest : undefined;
}

/** The key of the trigger the engine makes for a quest. */
export function objectiveTriggerKey(quest: string): string {
  return `${quest}_objective`;
}

/**
 * Whether the engine makes an objective trigger for this quest record: a
 * `detailed` quest with a non-blank completionCondition. The engine does not
 * when the world's triggers already hold the key (objectiveTriggerKey).
 */
export function makesObjectiveTrigger(quest: unknown): boolean {
  if (quest === null || typeof quest !== "object") return false;
  const { detailType, completionCondition } = quest as Record<string, unknown>;
  return (
    detailType === "detailed" && typeof completionCondition === "string" && completionCondition.trim() !== ""
  );
}
