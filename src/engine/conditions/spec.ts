import { CONDITION_TYPES, type ConditionType, type ValueKind } from "../../world/schema/condition-table.ts";
import type { CheckSnapshot } from "../ports.ts";

/**
 * What the engine knows of one condition type of spec 2.2: its required
 * string fields, its operators, the kind of its value, and how to read the
 * state it tests from a snapshot and the storage object. One module per type
 * (src/engine/conditions/<type>.ts, `defineCondition`); CONDITIONS (index.ts)
 * lists them.
 *
 * These modules are bundled with evaluate.ts into the script isolate, so they
 * import only types, each other, the operators module and the schema's
 * condition table (src/world/schema/condition-table.ts), which import nothing.
 */
export interface ConditionSpec {
  /** The type, which is also the module's file name. */
  type: ConditionType;
  /** From the schema's table (CONDITION_TYPES), never written here. */
  fields: readonly string[];
  operators: readonly string[];
  value: ValueKind;
  /** The raw value of spec 4's table for a well-formed condition: what the state holds. */
  read(condition: Fields, snapshot: CheckSnapshot, storage: Fields): unknown;
}

export type { ValueKind };

export type Fields = Record<string, unknown>;

/**
 * A condition type's spec: its fields, operators and value kind come from the
 * world schema's table (CONDITION_TYPES), so the module writes only how its
 * value is read.
 */
export function defineCondition(type: ConditionType, spec: Pick<ConditionSpec, "read">): ConditionSpec {
  const { fields, operators, value } = CONDITION_TYPES[type];
  return { type, fields, operators, value, read: spec.read };
}

/** A value per party member, by name: the per-character types' raw value. */
export function byCharacter<T>(
  snapshot: CheckSnapshot,
  pick: (c: CheckSnapshot["characters"][number]) => T | undefined,
) {
  const out: Record<string, T> = {};
  for (const character of snapshot.characters) {
    const value = pick(character);
    // defineProperty, not assignment: a character named "__proto__" must not replace the prototype.
    if (value === undefined) continue;
    if (character.name !== "__proto__") out[character.name] = value;
    else
      Object.defineProperty(out, character.name, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
  }
  return out;
}

/** Resource keys match case-insensitively, trimmed (resolutions "Names and case"). */
export function normaliseKey(key: string): string {
  return key.trim().toLowerCase();
}

/** A storage key's value when it fits the read type, else the type's fallback (spec 2.2). */
export function stored(
  storage: Fields,
  key: string,
  fits: (value: unknown) => boolean,
  fallback: unknown,
): unknown {
  if (!isObject(storage) || !Object.hasOwn(storage, key)) return fallback;
  const value = storage[key];
  return fits(value) ? value : fallback;
}

export function ownString(map: Record<string, string>, key: string): string | undefined {
  return Object.hasOwn(map, key) && typeof map[key] === "string" ? map[key] : undefined;
}

export function isObject(value: unknown): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
