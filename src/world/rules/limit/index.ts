import type { Rule } from "../../rule.ts";
import conditionText from "./condition-text.ts";
import conditionValue from "./condition-value.ts";
import conditionsPerTrigger from "./conditions-per-trigger.ts";
import effectText from "./effect-text.ts";
import effectValue from "./effect-value.ts";
import effectsPerTrigger from "./effects-per-trigger.ts";
import regionInfo from "./region-info.ts";
import regionsSection from "./regions-section.ts";
import traitDescription from "./trait-description.ts";
import triggerCount from "./trigger-count.ts";
import triggerSize from "./trigger-size.ts";

/** The trigger budgets of spec 8, which script edits to the trigger map must also respect. */
export const TRIGGER_LIMIT_RULES: readonly Rule[] = [
  triggerCount,
  triggerSize,
  conditionsPerTrigger,
  effectsPerTrigger,
  conditionText,
  conditionValue,
  effectText,
  effectValue,
];

const rules: Rule[] = [...TRIGGER_LIMIT_RULES, traitDescription, regionInfo, regionsSection];

export default rules;
