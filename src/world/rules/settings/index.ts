import type { Rule } from "../../rule.ts";
import nameCollision from "./name-collision.ts";
import skillXpRewards from "./skill-xp-rewards.ts";
import travelDistance from "./travel-distance.ts";

const rules: Rule[] = [nameCollision, skillXpRewards, travelDistance];

export default rules;
