import type { Rule } from "../../rule.ts";
import checkRegex from "./check-regex.ts";
import syntaxError from "./syntax-error.ts";
import topLevelReturn from "./top-level-return.ts";
import unconditionalSkip from "./unconditional-skip.ts";
import unknownGlobal from "./unknown-global.ts";
import unknownName from "./unknown-name.ts";

const rules: Rule[] = [
  syntaxError,
  topLevelReturn,
  checkRegex,
  unconditionalSkip,
  unknownGlobal,
  unknownName,
];

export default rules;
