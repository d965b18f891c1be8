import type { Rule } from "../../rule.ts";
import missingField from "./missing-field.ts";
import operatorNotAllowed from "./operator-not-allowed.ts";
import orEqualTo from "./or-equal-to.ts";
import regexPattern from "./regex-pattern.ts";
import unknownType from "./unknown-type.ts";
import valueType from "./value-type.ts";

const rules: Rule[] = [unknownType, missingField, orEqualTo, operatorNotAllowed, valueType, regexPattern];

export default rules;
