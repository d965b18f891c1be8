import type { Rule } from "../../rule.ts";
import unknownBonusVariable from "./unknown-bonus-variable.ts";

const rules: Rule[] = [unknownBonusVariable];

export default rules;
