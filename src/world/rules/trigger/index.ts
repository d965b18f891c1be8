import type { Rule } from "../../rule.ts";
import storyAtTick0 from "./story-at-tick-0.ts";

const rules: Rule[] = [storyAtTick0];

export default rules;
