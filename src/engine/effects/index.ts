import type { Effect, EffectType } from "../../world/schema/index.ts";
import type { EffectContext, EffectOutcome } from "./context.ts";
import { applyKnownEntity } from "./known-entity.ts";
import { applyEventStart } from "./narrative-event-start.ts";
import { applyPartyArea } from "./party-area.ts";
import { applyPartyLocation } from "./party-location.ts";
import { applyPartyNextStepClear } from "./party-next-step-clear.ts";
import { applyPartyNextStepSet } from "./party-next-step-set.ts";
import { applyPartyRealm } from "./party-realm.ts";
import { applyPartyRegion } from "./party-region.ts";
import { applyPlayerResource } from "./player-resource.ts";
import { applyPlayerTraits } from "./player-traits.ts";
import { applyQuestComplete } from "./quest-complete.ts";
import { applyQuestInit } from "./quest-init.ts";
import { applyQuestNextStepClear } from "./quest-next-step-clear.ts";
import { applyQuestNextStepSet } from "./quest-next-step-set.ts";
import { applyObjectiveComplete } from "./quest-objective-complete.ts";
import { applyObjectiveReveal } from "./quest-objective-reveal.ts";
import { applyQuestProgress } from "./quest-progress.ts";
import { applyStory } from "./story.ts";
import { applyWriteArray } from "./write-array.ts";
import { applyWriteBoolean } from "./write-boolean.ts";
import { applyWriteNumber } from "./write-number.ts";
import { applyWriteString } from "./write-string.ts";

type Applier = (effect: never, ctx: EffectContext) => EffectOutcome;

/**
 * Effect type -> its applier, from the module named after the type
 * (src/engine/effects/<type>.ts; helpers they share are in shared/). The
 * Record makes the compiler report a type without an applier;
 * test/catalogue.test.ts checks the files and this table agree.
 */
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
  "party-realm": applyPartyRealm,
  "party-region": applyPartyRegion,
  "party-location": applyPartyLocation,
  "party-area": applyPartyArea,
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
