import type { Rule } from "../../rule.ts";
import categoryField from "./category-field.ts";
import categoryUnknownTrait from "./category-unknown-trait.ts";
import unknownAbility from "./unknown-ability.ts";
import unknownAttribute from "./unknown-attribute.ts";
import unknownCategory from "./unknown-category.ts";
import unknownDamageType from "./unknown-damage-type.ts";
import unknownItem from "./unknown-item.ts";
import unknownResource from "./unknown-resource.ts";
import unknownSkill from "./unknown-skill.ts";

const rules: Rule[] = [
  unknownAttribute,
  unknownCategory,
  categoryField,
  unknownDamageType,
  categoryUnknownTrait,
  unknownAbility,
  unknownSkill,
  unknownItem,
  unknownResource,
];

export default rules;
