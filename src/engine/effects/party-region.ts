import { setKnown } from "../known.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/** `party-region`: sets only the region (see party-location.ts). */
export function applyPartyRegion(effect: EffectOf<"party-region">, ctx: EffectContext): EffectOutcome {
  const name = effect.value;
  if (!Object.hasOwn(ctx.index.world.regions, name)) return unchanged(`no region "${name}"`);
  ctx.state.position.region = name;
  setKnown(ctx.state, ctx.index, name, true);
  return changed();
}
