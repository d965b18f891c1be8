import type { LoadedWorld } from "../load.ts";
import { RULES } from "../rules/index.ts";
import { type ValidateOptions, type ValidationResult, validateWorld } from "../validate.ts";
import { LINT_RULES } from "./rules/index.ts";
import overLimit, { overTriggerLimits } from "./rules/over-limit.ts";

export { LINT_RULES };

/**
 * `taleforge lint`: every rule of `check`, then the lint rules, which follow
 * what can happen in play (reachability.ts) to find quests, triggers, events
 * and storage keys that silently do nothing. Never throws, like validateWorld.
 */
export function lintWorld(
  loaded: LoadedWorld,
  options: Pick<ValidateOptions, "onRule"> = {},
): ValidationResult {
  // Over the trigger limits, only check's rules run (and one warning says so): see over-limit.ts.
  if (overTriggerLimits(loaded.value))
    return validateWorld(loaded, { ...options, rules: [...RULES, overLimit] });
  return validateWorld(loaded, { ...options, rules: [...RULES, ...LINT_RULES] });
}
