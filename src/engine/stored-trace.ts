import type { World } from "../world/schema/index.ts";
import type { TurnResult } from "./result.ts";
import type { SessionState } from "./state.ts";
import { subjectOf } from "./subject.ts";
import { liveTriggers, triggerMapOf } from "./trigger-pool.ts";
import { indexWorld } from "./world-index.ts";

/**
 * A turn result stored before traces carried their conditions' subjects and
 * the spent triggers (`ConditionTrace.subject`, `TurnTrace.spent`), completed
 * from the world and the state the turn was played from, as the views once
 * rebuilt them before every turn. A result that has both is returned as it is.
 * For front ends that keep old results (the server's stored traces); a result
 * the engine returns needs nothing of this.
 */
export function completeTrace(
  result: TurnResult,
  world: World,
  before: Pick<SessionState, "triggerEdits" | "consumed">,
): TurnResult {
  if (result.trace.spent !== undefined) return result;
  const triggers = triggerMapOf(liveTriggers(indexWorld(world), before.triggerEdits));
  const phases = result.trace.phases.map((phase) => ({
    ...phase,
    triggers: phase.triggers.map((t) => {
      const conditions = Object.hasOwn(triggers, t.trigger) ? triggers[t.trigger]?.conditions : undefined;
      if (!Array.isArray(conditions)) return t;
      return {
        ...t,
        conditions: t.conditions.map((c) => {
          const condition: unknown = conditions[c.index];
          if (c.subject !== undefined || c.judged || condition === null || typeof condition !== "object")
            return c;
          const subject = subjectOf(condition as Record<string, unknown>);
          return subject === undefined ? c : { ...c, subject };
        }),
      };
    }),
  }));
  return { ...result, trace: { ...result.trace, phases, spent: before.consumed } };
}
