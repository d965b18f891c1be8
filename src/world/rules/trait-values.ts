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
  for (let row = 0, rows = rawConditions(raw); row < rows.length; row++) {
    const { path, condition } = rows[row]!;
    if (condition.type === "player-traits" && "value" in condition)
      yield { value: condition.value, path: [...path, "value"], inEffect: false };
  }
  for (let row1 = 0, rows1 = rawEffects(raw); row1 < rows1.length; row1++) {
    const { path, effect } = rows1[row1]!;
    if (effect.type !== "player-traits" || !("value" in effect)) continue;
    const value = effect.value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++)
        yield { value: value[i], path: [...path, "value", i], inEffect: true };
    } else yield { value, path: [...path, "value"], inEffect: true };
  }
}
