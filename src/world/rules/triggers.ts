import type { JsonPath } from "../diagnostic.ts";
import { perFrozenValue } from "../per-world.ts";
import { elementsOf, entriesOf, isPlainObject } from "../values.ts";

/**
 * Walks every condition and effect as written, including malformed ones and
 * narrative events' `onCompleteEffects`, for the rules that check them one by
 * one. Never throws on odd shapes.
 */
export interface RawCondition {
  trigger: string;
  index: number;
  path: JsonPath;
  condition: Record<string, unknown>;
}
export interface RawEffect {
  /** The trigger key, or `narrativeEvents/<key>` for completion effects. */
  owner: string;
  index: number;
  path: JsonPath;
  effect: Record<string, unknown>;
}

/** Every condition of every trigger, as written; computed once per (frozen) world. */
export const rawConditions: (raw: Readonly<Record<string, unknown>>) => readonly RawCondition[] =
  perFrozenValue((raw: Readonly<Record<string, unknown>>) => Object.freeze(walkConditions(raw)));

/** Every effect of every trigger and narrative event, as written; computed once per (frozen) world. */
export const rawEffects: (raw: Readonly<Record<string, unknown>>) => readonly RawEffect[] = perFrozenValue(
  (raw: Readonly<Record<string, unknown>>) => Object.freeze(walkEffects(raw)),
);

// Plain loops into one array: a generator spread into an array allocated an iterator result per item.
function walkConditions(raw: Readonly<Record<string, unknown>>): RawCondition[] {
  const out: RawCondition[] = [];
  for (let row = 0, rows = entriesOf(raw.triggers); row < rows.length; row++) {
    const trigger = rows[row]![0];
    const value = rows[row]![1];
    if (!isPlainObject(value)) continue;
    const list = elementsOf(value.conditions);
    for (let index = 0; index < list.length; index++) {
      const condition = list[index];
      if (isPlainObject(condition))
        out.push({ trigger, index, path: ["triggers", trigger, "conditions", index], condition });
    }
  }
  return out;
}

function walkEffects(raw: Readonly<Record<string, unknown>>): RawEffect[] {
  const out: RawEffect[] = [];
  for (let row1 = 0, rows1 = entriesOf(raw.triggers); row1 < rows1.length; row1++) {
    const trigger = rows1[row1]![0];
    const value = rows1[row1]![1];
    if (!isPlainObject(value)) continue;
    const list = elementsOf(value.effects);
    for (let index = 0; index < list.length; index++) {
      const effect = list[index];
      if (isPlainObject(effect))
        out.push({ owner: trigger, index, path: ["triggers", trigger, "effects", index], effect });
    }
  }
  for (let row2 = 0, rows2 = entriesOf(raw.narrativeEvents); row2 < rows2.length; row2++) {
    const event = rows2[row2]![0];
    const value = rows2[row2]![1];
    if (!isPlainObject(value)) continue;
    const list = elementsOf(value.onCompleteEffects);
    for (let index = 0; index < list.length; index++) {
      const effect = list[index];
      if (isPlainObject(effect)) {
        out.push({
          owner: `narrativeEvents/${event}`,
          index,
          path: ["narrativeEvents", event, "onCompleteEffects", index],
          effect,
        });
      }
    }
  }
  return out;
}
