import { z } from "zod";
import { Condition } from "./conditions.ts";
import { describe } from "./describe.ts";
import { Effect } from "./effects.ts";

const CONDITIONS =
  "The conditions, all of which must hold (AND) for the trigger to fire; [] fires every turn. At most 5 (limit/conditions-per-trigger).";
const EFFECTS =
  "What happens when it fires, in order; [] for none. At most 5 valid effects apply (limit/effects-per-trigger).";

/** docs/format.md, triggers. Conditions and effects are checked one by one by the trigger rules. */
export const Trigger = describe(
  z.object({
    name: describe(
      z.string(),
      "The trigger's name, snake_case by convention. Must equal its key in `triggers`, byte for byte (keys/name-mismatch).",
    ),
    conditions: describe(z.array(Condition), CONDITIONS),
    effects: describe(z.array(Effect), EFFECTS),
    script: describe(
      z.string().optional(),
      "JavaScript run after the conditions pass and before the effects apply: OR logic, counters, editing effects or other triggers (docs/scripts.md). It counts toward the trigger's size limit. Optional.",
    ),
    recurring: describe(
      z.boolean().optional(),
      "false: fires once ever, then is spent. true: fires every turn its conditions hold (tick 0 included). Default: false.",
    ),
    scope: describe(
      z.enum(["party", "player"]).optional(),
      "`party`: it concerns the whole party. `player`: its effects and narration concern only the players who satisfy its player conditions (docs/engine.md, scope). Default: `party`.",
    ),
  }),
  "A trigger: when all its conditions hold, its script runs and its effects apply. Triggers move quests, events, storage and the party; they run in the planning phase (with an `action`/`action-text` condition) or the state phase. At most 10028 characters of compact JSON each (limit/trigger-size).",
);
export type Trigger = z.infer<typeof Trigger>;

/**
 * The shape checked at load: conditions and effects only need to be objects
 * with a `type` here, so that each bad one gets one precise diagnostic from the
 * condition and effect rules instead of a union error.
 */
export const TriggerShape = Trigger.extend({
  conditions: describe(z.array(z.looseObject({ type: z.string() })), CONDITIONS),
  effects: describe(z.array(z.looseObject({ type: z.string() })), EFFECTS),
});
