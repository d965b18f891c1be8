import type { Rule } from "../../rule.ts";
import unknownAttribute from "./unknown-attribute.ts";

const rules: Rule[] = [unknownAttribute];

export default rules;
