import type { Rule } from "../../rule.ts";

const rules: Rule[] = [];

export default rules;
