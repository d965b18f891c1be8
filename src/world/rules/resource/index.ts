import type { Rule } from "../../rule.ts";
import healthCount from "./health-count.ts";
import rechargeRateInteger from "./recharge-rate-integer.ts";

const rules: Rule[] = [healthCount, rechargeRateInteger];

export default rules;
