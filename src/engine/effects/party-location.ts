import { arriveAt } from "../geography.ts";
import { markArrival } from "../known.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/**
 * The party-* effects (spec 2.2, resolutions "Geography"). `party-location`
 * cascades: location, its region, that region's realm, the location's
 * coordinates and its first area. The others (party-region.ts,
 * party-realm.ts, party-area.ts) set only their own field, so a later
 * party-* effect of the same trigger overrides what the cascade set.
 * Unknown names change nothing (the validator reports them).
 */
export function applyPartyLocation(effect: EffectOf<"party-location">, ctx: EffectContext): EffectOutcome {
  const name = effect.value;
  const arrival = arriveAt(ctx.index, name);
  if (!arrival) return unchanged(`no location "${name}"`);
  ctx.state.position = arrival;
  markArrival(ctx.state, ctx.index, arrival);
  ctx.recorder.outcomes.push({ type: "placed", actor: null, location: name, area: arrival.area });
  return changed(
    `cascade: ${arrival.realm || "(no realm)"} / ${arrival.region} / ${name} / ${arrival.area || "(no area)"}`,
  );
}
