import type { Effect, EffectType } from "../../world/schema/index.ts";
import type { EffectContext, EffectOutcome } from "./context.ts";
import { applyEventStart } from "./event-start.ts";
import { applyKnownEntity } from "./known-entity.ts";
import {
  applyPartyNextStepClear,
  applyPartyNextStepSet,
  applyQuestNextStepClear,
  applyQuestNextStepSet,
} from "./next-step.ts";
import { applyObjectiveComplete, applyObjectiveReveal } from "./objective.ts";
import { applyPartyMove } from "./party-move.ts";
import { applyPlayerResource } from "./player-resource.ts";
import { applyPlayerTraits } from "./player-traits.ts";
import { applyQuestComplete, applyQuestInit, applyQuestProgress } from "./quest.ts";
import { applyStory } from "./story.ts";
import { applyWriteArray } from "./write-array.ts";
import { applyWriteBoolean } from "./write-boolean.ts";
import { applyWriteNumber } from "./write-number.ts";
import { applyWriteString } from "./write-string.ts";

type Applier = (effect: never, ctx: EffectContext) => EffectOutcome;

/** Effect type -> the module that applies it: one per type or tight family (spec 2.2's effect table). */
export const EFFECT_APPLIERS: Record<EffectType, Applier> = {
  story: applyStory,
  "quest-init": applyQuestInit,
  "quest-progress": applyQuestProgress,
  "quest-complete": applyQuestComplete,
  "quest-objective-reveal": applyObjectiveReveal,
  "quest-objective-complete": applyObjectiveComplete,
  "quest-next-step-set": applyQuestNextStepSet,
  "quest-next-step-clear": applyQuestNextStepClear,
  "party-next-step-set": applyPartyNextStepSet,
  "party-next-step-clear": applyPartyNextStepClear,
  "narrative-event-start": applyEventStart,
  "party-realm": applyPartyMove,
  "party-region": applyPartyMove,
  "party-location": applyPartyMove,
  "party-area": applyPartyMove,
  "player-resource": applyPlayerResource,
  "player-traits": applyPlayerTraits,
  "known-entity": applyKnownEntity,
  "write-string": applyWriteString,
  "write-number": applyWriteNumber,
  "write-boolean": applyWriteBoolean,
  "write-array": applyWriteArray,
};

export function applyOne(effect: Effect, ctx: EffectContext): EffectOutcome {
  return (EFFECT_APPLIERS[effect.type] as (effect: Effect, ctx: EffectContext) => EffectOutcome)(effect, ctx);
}
