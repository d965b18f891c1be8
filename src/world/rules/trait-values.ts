import type { JsonPath } from "../diagnostic.ts";
import { rawConditions, rawEffects } from "./triggers.ts";

/**
 * Every trait a `player-traits` condition or effect names, as written: the
 * condition's value, the effect's value, or each element of an effect's array
 * value. Values of other JSON types are yielded too; callers pick.
 */
export function* traitValues(
  raw: Readonly<Record<string, unknown>>,
): Generator<{ value: unknown; path: JsonPath; inEffect: boolean }> {
  for (const { path, condition } of rawConditions(raw)) {
    if (condition.type === "player-traits" && "value" in condition)
      yield { value: condition.value, path: [...path, "value"], inEffect: false };
  }
  for (const { path, effect } of rawEffects(raw)) {
    if (effect.type !== "player-traits" || !("value" in effect)) continue;
    const value = effect.value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++)
        yield { value: value[i], path: [...path, "value", i], inEffect: true };
    } else yield { value, path: [...path, "value"], inEffect: true };
  }
}
