import type { Rule } from "../../rule.ts";
import noInitTrigger from "./no-init-trigger.ts";
import objectiveId from "./objective-id.ts";
import unknownActiveObjective from "./unknown-active-objective.ts";
import unknownLocation from "./unknown-location.ts";

const rules: Rule[] = [noInitTrigger, unknownLocation, objectiveId, unknownActiveObjective];

export default rules;
