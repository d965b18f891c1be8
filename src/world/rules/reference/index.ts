import type { Rule } from "../../rule.ts";
import nonStringTrait from "./non-string-trait.ts";
import unknownDestination from "./unknown-destination.ts";
import unknownEntity from "./unknown-entity.ts";
import unknownEvent from "./unknown-event.ts";
import unknownObjective from "./unknown-objective.ts";
import unknownQuest from "./unknown-quest.ts";
import unknownResource from "./unknown-resource.ts";
import unknownTrait from "./unknown-trait.ts";

const rules: Rule[] = [
  unknownQuest,
  unknownObjective,
  unknownEvent,
  unknownEntity,
  unknownResource,
  unknownTrait,
  nonStringTrait,
  unknownDestination,
];

export default rules;
