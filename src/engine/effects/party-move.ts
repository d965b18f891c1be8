import { arriveAt } from "../geography.ts";
import { markArrival, setKnown } from "../known.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

type MoveEffect = EffectOf<"party-location" | "party-region" | "party-realm" | "party-area">;

/**
 * The party-* effects (spec 2.2, resolutions "Geography"). `party-location`
 * cascades: location, its region, that region's realm, the location's
 * coordinates and its first area. The others set only their own field, so a
 * later party-* effect of the same trigger overrides what the cascade set.
 * Unknown names change nothing (the validator reports them).
 */
export function applyPartyMove(effect: MoveEffect, ctx: EffectContext): EffectOutcome {
  const world = ctx.index.world;
  const position = ctx.state.position;
  const name = effect.value;
  switch (effect.type) {
    case "party-location": {
      const arrival = arriveAt(ctx.index, name);
      if (!arrival) return unchanged(`no location "${name}"`);
      ctx.state.position = arrival;
      markArrival(ctx.state, ctx.index, arrival);
      ctx.recorder.outcomes.push(`The party is now at ${name}${arrival.area ? ` (${arrival.area})` : ""}.`);
      return changed(
        `cascade: ${arrival.realm || "(no realm)"} / ${arrival.region} / ${name} / ${arrival.area || "(no area)"}`,
      );
    }
    case "party-region":
      if (!Object.hasOwn(world.regions, name)) return unchanged(`no region "${name}"`);
      position.region = name;
      setKnown(ctx.state, ctx.index, name, true);
      return changed();
    case "party-realm":
      if (!Object.hasOwn(world.realms, name)) return unchanged(`no realm "${name}"`);
      position.realm = name;
      setKnown(ctx.state, ctx.index, name, true);
      return changed();
    case "party-area": {
      const areas = Object.hasOwn(world.locations, position.location)
        ? world.locations[position.location]!.areas
        : undefined;
      if (!areas || !Object.hasOwn(areas, name))
        return unchanged(`"${position.location}" has no area "${name}"`);
      position.area = name;
      return changed();
    }
  }
}
