import type { Rule } from "../../rule.ts";
import unknownNpc from "./unknown-npc.ts";
import unknownTrait from "./unknown-trait.ts";

const rules: Rule[] = [unknownTrait, unknownNpc];

export default rules;
