import type { Rule } from "../../rule.ts";
import disconnected from "./disconnected.ts";
import levelRange from "./level-range.ts";
import nonIntegerPosition from "./non-integer-position.ts";
import overlap from "./overlap.ts";
import unknownFaction from "./unknown-faction.ts";
import unknownRealm from "./unknown-realm.ts";

const rules: Rule[] = [nonIntegerPosition, disconnected, overlap, unknownRealm, unknownFaction, levelRange];

export default rules;
