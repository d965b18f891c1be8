import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/** `party-area`: sets only the area, one of the current location's (see party-location.ts). */
export function applyPartyArea(effect: EffectOf<"party-area">, ctx: EffectContext): EffectOutcome {
  const world = ctx.index.world;
  const position = ctx.state.position;
  const name = effect.value;
  const areas = Object.hasOwn(world.locations, position.location)
    ? world.locations[position.location]!.areas
    : undefined;
  if (!areas || !Object.hasOwn(areas, name)) return unchanged(`"${position.location}" has no area "${name}"`);
  position.area = name;
  return changed();
}
