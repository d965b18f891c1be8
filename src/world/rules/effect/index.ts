import type { Rule } from "../../rule.ts";
import fieldValue from "./field-value.ts";
import missingField from "./missing-field.ts";
import operatorNotAllowed from "./operator-not-allowed.ts";
import unknownType from "./unknown-type.ts";
import valueType from "./value-type.ts";

const rules: Rule[] = [unknownType, missingField, operatorNotAllowed, valueType, fieldValue];

export default rules;
