import type { Rule } from "../../rule.ts";
import unknownBonusVariable from "./unknown-bonus-variable.ts";
import unknownCategory from "./unknown-category.ts";

const rules: Rule[] = [unknownBonusVariable, unknownCategory];

export default rules;
