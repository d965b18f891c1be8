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
  perFrozenValue((raw: Readonly<Record<string, unknown>>) => Object.freeze([...walkConditions(raw)]));

/** Every effect of every trigger and narrative event, as written; computed once per (frozen) world. */
export const rawEffects: (raw: Readonly<Record<string, unknown>>) => readonly RawEffect[] = perFrozenValue(
  (raw: Readonly<Record<string, unknown>>) => Object.freeze([...walkEffects(raw)]),
);

function* walkConditions(raw: Readonly<Record<string, unknown>>): Generator<RawCondition> {
  for (const [trigger, value] of entriesOf(raw.triggers)) {
    if (!isPlainObject(value)) continue;
    const list = elementsOf(value.conditions);
    for (let index = 0; index < list.length; index++) {
      const condition = list[index];
      if (isPlainObject(condition))
        yield { trigger, index, path: ["triggers", trigger, "conditions", index], condition };
    }
  }
}

function* walkEffects(raw: Readonly<Record<string, unknown>>): Generator<RawEffect> {
  for (const [trigger, value] of entriesOf(raw.triggers)) {
    if (!isPlainObject(value)) continue;
    const list = elementsOf(value.effects);
    for (let index = 0; index < list.length; index++) {
      const effect = list[index];
      if (isPlainObject(effect))
        yield { owner: trigger, index, path: ["triggers", trigger, "effects", index], effect };
    }
  }
  for (const [event, value] of entriesOf(raw.narrativeEvents)) {
    if (!isPlainObject(value)) continue;
    const list = elementsOf(value.onCompleteEffects);
    for (let index = 0; index < list.length; index++) {
      const effect = list[index];
      if (isPlainObject(effect)) {
        yield {
          owner: `narrativeEvents/${event}`,
          index,
          path: ["narrativeEvents", event, "onCompleteEffects", index],
          effect,
        };
      }
    }
  }
}
