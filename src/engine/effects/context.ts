import type { Effect } from "../../world/schema/index.ts";
import type { StepContext } from "../context.ts";
import type { Character } from "../state.ts";

/** What an effect module sees: the turn's draft and who the trigger concerns. */
export interface EffectContext extends StepContext {
  /** The trigger key, or `narrativeEvents/<key>` for completion effects. */
  owner: string;
  recurring: boolean;
  scope: "party" | "player";
  /** The players who satisfied the trigger (resolutions "Triggers", `scope: "player"`). */
  targets: readonly string[];
}

/** changed: the state is different; note: why not, or what exactly happened. */
export interface EffectOutcome {
  changed: boolean;
  note?: string;
}

/** The effect shapes of the given type(s); some schemas share one shape across several types. */
export type EffectOf<T extends Effect["type"]> = Narrow<Effect, T>;
type Narrow<E, T> = E extends { type: infer U }
  ? [U & T] extends [never]
    ? never
    : Omit<E, "type"> & { type: U & T }
  : never;

export const unchanged = (note: string): EffectOutcome => ({ changed: false, note });
export const changed = (note?: string): EffectOutcome =>
  note === undefined ? { changed: true } : { changed: true, note };

/**
 * The characters a player-resource or player-traits effect hits: the whole
 * party by default; `satisfyingPlayers` only the players who satisfied the
 * trigger; and on a `scope: "player"` trigger, only those targets unless the
 * effect says `target: "allPlayers"` explicitly.
 */
export function recipients(
  ctx: EffectContext,
  target: "allPlayers" | "satisfyingPlayers" | undefined,
): Character[] {
  const onlyTargets = target === "satisfyingPlayers" || (target === undefined && ctx.scope === "player");
  return onlyTargets ? ctx.state.party.filter((c) => ctx.targets.includes(c.name)) : ctx.state.party;
}
