import { z } from "zod";
import { Condition } from "./conditions.ts";
import { Effect } from "./effects.ts";

/** Spec 2.2. Conditions and effects are checked one by one by the trigger rules. */
export const Trigger = z.object({
  name: z.string(),
  conditions: z.array(Condition),
  effects: z.array(Effect),
  script: z.string().optional(),
  recurring: z.boolean().optional(),
  scope: z.enum(["party", "player"]).optional(),
});
export type Trigger = z.infer<typeof Trigger>;

/**
 * The shape checked at load: conditions and effects only need to be objects
 * with a `type` here, so that each bad one gets one precise diagnostic from the
 * condition and effect rules instead of a union error.
 */
export const TriggerShape = Trigger.extend({
  conditions: z.array(z.looseObject({ type: z.string() })),
  effects: z.array(z.looseObject({ type: z.string() })),
});
