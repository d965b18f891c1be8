import { z } from "zod";
import { StartingItem } from "./trait.ts";

const num = z.number();
const numbers = <K extends string>(...keys: K[]) =>
  Object.fromEntries(keys.map((k) => [k, num])) as Record<K, typeof num>;

export const AttributeSettings = z.object({
  attributeNames: z.array(z.string()),
  ...numbers(
    "startingAttributeValue",
    "startingAttributePoints",
    "maxStartingAttribute",
    "lowAttributeThreshold",
    "attributeBonusModifier",
  ),
  attributeStatModifiers: z.record(z.string(), z.object({ variable: z.string(), amount: z.number() })),
  lowAttributeTraits: z.record(z.string(), z.string()),
  attributeDamageModifiers: z.record(z.string(), z.number()).optional(),
  attributeDamageReductionModifiers: z.record(z.string(), z.number()).optional(),
});

export const SkillSettings = z.object({
  ...numbers(
    "trainingCooldown",
    "skillBonusModifier",
    "xpFromNewSkill",
    "maxSkillLevel",
    "maxSkillSuccessLevel",
    "charXPPerSkillLevel",
    "baseXPFromSkillUpgrade",
    "additionalXPRequiredPerSkillLevel",
    "startingXPToLevelUpSkill",
    "baseChanceToLearnNewSkill",
    "skillLearningBonusModifier",
  ),
  skillXPRewards: z.record(z.string(), z.number()),
  skillTypeDifficultyBonus: z.record(z.string(), z.number()),
  newSkillGenerationEnabled: z.boolean(),
});

export const LocationSettings = z.object({
  ...numbers(
    "regionSize",
    "simpleRadius",
    "complexRadius",
    "regionLocationCount",
    "regionFactionCount",
    "avgTravelDistance",
    "minTravelDistance",
  ),
  newRegionGenerationEnabled: z.boolean(),
  encountersEnabled: z.boolean(),
  regionMapBorderFeatheringEnabled: z.boolean().optional(),
});

export const ItemSettings = z.object({
  currencyName: z.string(),
  itemCategories: z.array(z.string()),
  itemSlots: z.array(z.object({ slot: z.string(), category: z.string(), quantity: z.number() })),
  startingItems: z.array(StartingItem),
});

export const CombatSettings = z.object({
  ...numbers("minCombatXP", "baseCombatXP", "abilityCooldown", "abilityBonus", "npcDailyHealingAmount"),
  damageTypes: z.array(z.string()),
});

export const OtherSettings = z.object(
  numbers(
    "startingCharacterLevelUpRequirement",
    "extraRequiredXPPerCharacterLevel",
    "maxCharacterLevel",
    "npcHealthPerLevel",
    "npcMinHealth",
  ),
);

export const TipSettings = z.object({
  tips: z.array(z.string()),
  tipDisplayEnabled: z.boolean(),
  ...numbers("tipTurnInterval", "tipMinimumTurns", "tipMaximumTurns"),
});

/** Integer-ness of `rechargeRate` is a rule (resource/recharge-rate-integer), not a shape error. */
export const ResourceDefinition = z.object({
  name: z.string(),
  ...numbers("initialValue", "maxValue", "restRechargeMultiplier", "gainPerLevel", "rechargeRate"),
  color: z.string(),
  usageInstructions: z.string().optional(),
  isHealth: z.boolean().optional(),
});
export type ResourceDefinition = z.infer<typeof ResourceDefinition>;

export const Death = z.object({ permadeath: z.boolean(), instructions: z.string() });
