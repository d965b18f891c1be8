import { PLAYED_WITH } from "./basis.ts";
import { COMPAT_REPAIRED } from "./codes.ts";
import { emptyWorld } from "./defaults.ts";
import type { JsonPath } from "./diagnostic.ts";
import { type LoadedWorld, parseWorld } from "./load.ts";
import { diagnosticFrom, type Rule } from "./rule.ts";
import { NAME_KEYED_SECTIONS } from "./rules/keys/name-mismatch.ts";
import type { World } from "./schema/index.ts";
import { runnableWorld, type ValidationResult, validateWorld } from "./validate.ts";
import { isPlainObject } from "./values.ts";

/**
 * Play what the platform plays (issue 35): real exports that the hosted
 * platform plays can hold errors that have one obvious reading. `play` and
 * `serve` repair them on a copy, with one warning line for each repair;
 * `check` still reports them as errors, and `--strict` refuses them.
 *
 * - a missing top-level map (`quests`, `skills`, `npcTypes` …) is `{}`;
 * - a map written as an array of records with names (`traitCategories: [{
 *   "name": "Virtues", … }]`) is the map keyed by those names;
 * - an ability requirement of type `trait` without `amount` has amount 1
 *   (holding the trait is what counts);
 * - a record of a name-keyed content map whose `name` differs from its key
 *   takes the key as its name (the key is what every reference uses).
 */

export interface Repair {
  path: JsonPath;
  /** What was done, in words ("added the missing map \"quests\" as {}"). */
  message: string;
}

/** Sections whose empty value is a map: what a missing or array-shaped one becomes. */
function mapSections(): string[] {
  return Object.entries(emptyWorld())
    .filter(([, v]) => isPlainObject(v) && Object.keys(v).length === 0)
    .map(([k]) => k);
}

const MAX_REPAIRS = 10_000;

/**
 * The loaded world with its repairable errors repaired, on a copy, and what was
 * done. A world that needs nothing comes back as it was, with no repair.
 */
export function repairWorld(loaded: LoadedWorld): { loaded: LoadedWorld; repairs: Repair[] } {
  if (!loaded.value || loaded.fatal) return { loaded, repairs: [] };
  const value = structuredClone(loaded.value) as Record<string, unknown>;
  const repairs: Repair[] = [];
  const add = (repair: Repair) => {
    if (repairs.length < MAX_REPAIRS) repairs.push(repair);
  };
  for (const section of mapSections()) {
    const current = value[section];
    if (current === undefined) {
      value[section] = {};
      add({ path: [section], message: `added the missing map "${section}" as {}` });
    } else if (
      Array.isArray(current) &&
      current.every((r) => isPlainObject(r) && typeof r.name === "string")
    ) {
      const names = current.map((r) => (r as { name: string }).name);
      if (new Set(names).size !== names.length) continue;
      value[section] = Object.fromEntries(current.map((r) => [(r as { name: string }).name, r]));
      add({ path: [section], message: `read "${section}", written as an array, as a map keyed by name` });
    }
  }
  const abilities = value.abilities;
  if (isPlainObject(abilities))
    for (const [key, ability] of Object.entries(abilities)) {
      if (!isPlainObject(ability) || !Array.isArray(ability.requirements)) continue;
      ability.requirements.forEach((requirement, i) => {
        if (!isPlainObject(requirement) || requirement.type !== "trait" || "amount" in requirement) return;
        requirement.amount = 1;
        add({
          path: ["abilities", key, "requirements", i],
          message: `gave the trait requirement ${i + 1} of ability "${key}" the amount 1`,
        });
      });
    }
  for (const section of NAME_KEYED_SECTIONS) {
    const records = value[section];
    if (!isPlainObject(records)) continue;
    for (const [key, record] of Object.entries(records)) {
      if (!isPlainObject(record) || typeof record.name !== "string" || record.name === key) continue;
      add({
        path: [section, key, "name"],
        message: `named the record "${key}" of "${section}" after its key (its name was ${JSON.stringify(record.name)})`,
      });
      record.name = key;
    }
  }
  if (repairs.length === 0) return { loaded, repairs };
  return {
    loaded: { ...loaded, value, diagnostics: [...loaded.diagnostics] },
    repairs,
  };
}

/** A world to play, the repairs that made it playable, and the check that refused it as written. */
export interface Playable {
  world: World | undefined;
  repairs: Repair[];
  /** The check of what is played (the repaired copy when there were repairs). */
  checked: ValidationResult;
}

/**
 * What `play` and `serve` run: the world as written when it is playable
 * (rule errors leave the engine a sound world, see runnableWorld); else, unless
 * `strict`, the repaired copy when that is playable. `strict` plays only a
 * world that needed no repair.
 */
export function playableWorld(
  loaded: LoadedWorld,
  checked: ValidationResult,
  options: { strict?: boolean } = {},
): Playable {
  const asWritten = runnableWorld(loaded, checked);
  if (asWritten || options.strict) return { world: asWritten, repairs: [], checked };
  const { loaded: repaired, repairs } = repairWorld(loaded);
  if (repairs.length === 0) return { world: undefined, repairs, checked };
  const rechecked = validateWorld(repaired);
  const world = runnableWorld(repaired, rechecked);
  return world ? { world, repairs, checked: rechecked } : { world: undefined, repairs: [], checked };
}

/**
 * A world's text checked for `serve`, accepted as `play` accepts a real world: as written when it
 * has no error; else its repaired copy when that is playable (each repair a `compat/repaired`
 * warning of the report); else as written. A world with errors left is played only when each is
 * one the platform plays a world with (PLAYED_WITH: a quest with no `quest-init`), and the report
 * keeps them as errors. `world` is undefined when it is refused (with the check as written).
 * `strict` accepts only a world with no error. `rules` as validateWorld's (a stored world is
 * checked for shape only).
 */
export function checkForServe(
  text: string,
  name: string,
  rules?: readonly Rule[],
  options: { strict?: boolean } = {},
): ValidationResult {
  const validation = rules ? { rules } : {};
  const loaded = parseWorld(text, name);
  const checked = validateWorld(loaded, validation);
  if (checked.errorCount === 0 || options.strict) return checked;
  const { loaded: repaired, repairs } = repairWorld(loaded);
  const rechecked = repairs.length > 0 ? validateWorld(repaired, validation) : undefined;
  const world = rechecked && playedBy(repaired, rechecked);
  if (!rechecked || !world) {
    const asWritten = playedBy(loaded, checked);
    return asWritten ? { ...checked, world: asWritten } : checked;
  }
  const notes = repairs.map((repair) =>
    diagnosticFrom(
      COMPAT_REPAIRED,
      { path: repair.path, messageId: "repaired", data: { repair: repair.message } },
      () => null,
    ),
  );
  return {
    ...rechecked,
    world,
    diagnostics: [...notes, ...rechecked.diagnostics],
    warningCount: rechecked.warningCount + notes.length,
  };
}

/** The world a server plays: runnable, and every error left one the platform plays a world with. */
function playedBy(loaded: LoadedWorld, checked: ValidationResult): World | undefined {
  for (const d of checked.diagnostics)
    if (d.severity === "error" && !PLAYED_WITH.has(d.code)) return undefined;
  return runnableWorld(loaded, checked);
}
