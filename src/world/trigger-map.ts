import { SHAPE_WRONG_TYPE } from "./codes.ts";
import type { Diagnostic } from "./diagnostic.ts";
import type { LoadedWorld } from "./load.ts";
import { diagnosticFrom, type Rule } from "./rule.ts";
import conditionRules from "./rules/condition/index.ts";
import effectRules from "./rules/effect/index.ts";
import keyRules from "./rules/keys/index.ts";
import { TRIGGER_LIMIT_RULES } from "./rules/limit/index.ts";
import referenceRules from "./rules/reference/index.ts";
import scriptRules from "./rules/script/index.ts";
import type { World } from "./schema/world.ts";
import { validateWorld } from "./validate.ts";

/**
 * Every publish-time rule that `check` applies to a trigger: the key equal to
 * the name, every condition and effect rule, the trigger budgets (docs/rules.md,
 * "limit"), the script rules and the references a trigger makes (quests,
 * places, entities, resources, traits, events). The shape step covers the
 * rest (`scope`, `recurring`, types). Scripts may edit the trigger map during
 * play, and those edits must pass the same rules as a world file, so the
 * engine checks them with this list rather than with rules of its own. Rules
 * that also look at other sections are filtered to trigger diagnostics by
 * validateTriggerMap.
 */
export const TRIGGER_MAP_RULES: readonly Rule[] = [
  ...keyRules,
  ...conditionRules,
  ...effectRules,
  ...TRIGGER_LIMIT_RULES,
  ...scriptRules,
  ...referenceRules,
];

const INTERNAL_RULE_FAILURE = "internal/rule-failed";

/**
 * Checks a replacement trigger map for a world: its shape and the rules of
 * TRIGGER_MAP_RULES, exactly as at publish time. Returns the diagnostics
 * about `triggers` (and any rule failure); the edit may be saved when none is
 * an error. Diagnostics carry no line, as there is no file. The check runs on
 * a JSON copy of `triggers`, so the caller's value is neither changed nor
 * frozen, and what is checked is what a saved map would hold.
 */
export function validateTriggerMap(world: World, triggers: unknown): Diagnostic[] {
  let copy: unknown;
  try {
    const text = JSON.stringify(triggers);
    if (text === undefined && triggers !== undefined) return [notJson(`a ${typeof triggers}`)];
    copy = text === undefined ? undefined : JSON.parse(text);
  } catch (error) {
    return [notJson(error instanceof RangeError ? "nesting too deep" : firstLine(error))];
  }
  const loaded: LoadedWorld = {
    file: "<trigger map>",
    source: undefined,
    value: { ...world, triggers: copy },
    diagnostics: [],
    fatal: false,
    compat: { gameModesAdded: false, quirkTraits: [], settingsAdded: [] },
  };
  const { diagnostics } = validateWorld(loaded, { rules: TRIGGER_MAP_RULES });
  return diagnostics.filter((d) => d.path[0] === "triggers" || d.code === INTERNAL_RULE_FAILURE);
}

/** A map JSON cannot hold (a function, a BigInt, a cycle, nesting too deep): reported, never thrown. */
function notJson(reason: string): Diagnostic {
  const data = { field: "triggers", expected: "JSON data", actual: `a value JSON cannot hold (${reason})` };
  return diagnosticFrom(SHAPE_WRONG_TYPE, { path: ["triggers"], messageId: "type", data }, () => null);
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0]!;
}
