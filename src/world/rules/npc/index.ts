import type { Rule } from "../../rule.ts";
import basicInfoArea from "./basic-info-area.ts";
import unknownArea from "./unknown-area.ts";
import unknownFaction from "./unknown-faction.ts";
import unknownLocation from "./unknown-location.ts";
import unknownType from "./unknown-type.ts";

const rules: Rule[] = [unknownLocation, unknownArea, unknownFaction, unknownType, basicInfoArea];

export default rules;
