import type { Rule } from "../../rule.ts";
import levelRange from "./level-range.ts";
import outOfBounds from "./out-of-bounds.ts";
import unknownPath from "./unknown-path.ts";
import unknownRegion from "./unknown-region.ts";

const rules: Rule[] = [unknownRegion, outOfBounds, unknownPath, levelRange];

export default rules;
