import { startEvent } from "../events.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/** `narrative-event-start`: see events.ts for when a start is ignored. */
export function applyEventStart(
  effect: EffectOf<"narrative-event-start">,
  ctx: EffectContext,
): EffectOutcome {
  const ignored = startEvent(ctx, effect.eventId, ctx.recurring);
  return ignored === null ? changed() : unchanged(ignored);
}
