import { setKnown } from "../known.ts";
import { changed, type EffectContext, type EffectOf, type EffectOutcome, unchanged } from "./context.ts";

/** `party-realm`: sets only the realm (see party-location.ts). */
export function applyPartyRealm(effect: EffectOf<"party-realm">, ctx: EffectContext): EffectOutcome {
  const name = effect.value;
  if (!Object.hasOwn(ctx.index.world.realms, name)) return unchanged(`no realm "${name}"`);
  ctx.state.position.realm = name;
  setKnown(ctx.state, ctx.index, name, true);
  return changed();
}
