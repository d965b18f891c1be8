import type { Rule } from "../../rule.ts";
import colorFormat from "./color-format.ts";
import healthCount from "./health-count.ts";
import rechargeRateInteger from "./recharge-rate-integer.ts";

const rules: Rule[] = [healthCount, rechargeRateInteger, colorFormat];

export default rules;
