import { z } from "zod";
import { describe, UNUSED } from "./describe.ts";
import { StartingItem } from "./trait.ts";

/** A required number with its meaning (and, for settings Taleforge does not use yet, that fact). */
const num = (description: string) => describe(z.number(), description);
const unused = (description: string) => num(`${description} ${UNUSED}`);
const flag = (description: string) => describe(z.boolean(), description);

export const AttributeSettings = describe(
  z.object({
    attributeNames: describe(
      z.array(z.string()),
      "The attributes every character has (`strength`, `wits`). Names match case-insensitively, trimmed, everywhere they are used (traits, skills, items, premade characters).",
    ),
    startingAttributeValue: num(
      "The value each attribute starts at for a made-up character, before trait modifiers. Typical: 8 to 10.",
    ),
    startingAttributePoints: unused(
      "Points a player spreads over the attributes in character creation. Typical: 4 to 6.",
    ),
    maxStartingAttribute: unused(
      "The highest value an attribute may have after character creation. Typical: 14.",
    ),
    lowAttributeThreshold: unused(
      "An attribute at or below this value gives the character the trait `lowAttributeTraits` names for it. Typical: 3 to 5.",
    ),
    attributeBonusModifier: unused("How many attribute points make +1 on a roll. Typical: 2."),
    attributeStatModifiers: describe(
      z.record(
        z.string(),
        describe(
          z.object({
            variable: describe(z.string(), "The resource key or stat the attribute raises."),
            amount: describe(z.number(), "How much each point of the attribute adds."),
          }),
          "What one attribute raises.",
        ),
      ),
      `Attribute name -> the resource or stat each of its points raises; {} for none. ${UNUSED}`,
    ),
    lowAttributeTraits: describe(
      z.record(z.string(), z.string()),
      `Attribute name -> the key of the trait a character gets when that attribute is at or below \`lowAttributeThreshold\`; {} for none. ${UNUSED}`,
    ),
    attributeDamageModifiers: describe(
      z.record(z.string(), z.number()).optional(),
      `Attribute name -> extra damage dealt per point. ${UNUSED} Optional.`,
    ),
    attributeDamageReductionModifiers: describe(
      z.record(z.string(), z.number()).optional(),
      `Attribute name -> damage taken reduced per point. ${UNUSED} Optional.`,
    ),
  }),
  "Attributes: the base abilities of every character (strength, wits…) and how they start.",
);

export const SkillSettings = describe(
  z.object({
    trainingCooldown: unused(
      "Turns a character must wait between two trainings of a skill. Typical: 8 to 10.",
    ),
    skillBonusModifier: unused("How much each skill level adds to a roll. Typical: 1."),
    xpFromNewSkill: unused("Character experience points for learning a new skill. Typical: 50 to 100."),
    maxSkillLevel: unused("The highest level a skill can reach. Typical: 10 to 20."),
    maxSkillSuccessLevel: unused(
      "The skill level above which checks get no easier (at most `maxSkillLevel`). Typical: the same as `maxSkillLevel`.",
    ),
    charXPPerSkillLevel: unused(
      "Character experience points for each skill level gained. Typical: 10 to 20.",
    ),
    baseXPFromSkillUpgrade: unused("Skill experience from one successful use of a skill. Typical: 40 to 50."),
    additionalXPRequiredPerSkillLevel: unused(
      "Extra skill experience each further level needs, on top of `startingXPToLevelUpSkill`. Typical: 20.",
    ),
    startingXPToLevelUpSkill: unused(
      "Skill experience needed to go from level 1 to level 2. Typical: 40 to 50.",
    ),
    baseChanceToLearnNewSkill: unused(
      "The chance, from 0 to 1, that trying something new teaches the character a new skill. Typical: 0.3.",
    ),
    skillLearningBonusModifier: unused(
      "Added to `baseChanceToLearnNewSkill` per point of the governing attribute, from 0 to 1. Typical: 0.05 to 0.1.",
    ),
    skillXPRewards: describe(
      z.record(z.string(), z.number()),
      `Reward size (\`small\`, \`medium\`, \`large\`, \`huge\`) -> skill experience points. ${UNUSED}`,
    ),
    skillTypeDifficultyBonus: describe(
      z.record(z.string(), z.number()),
      `Skill type (a skill's \`type\`) -> difficulty modifier of its checks; {} for none. ${UNUSED}`,
    ),
    newSkillGenerationEnabled: flag(
      `Whether the AI may invent new skills during play. Older exports omit it: it is then read as false, with a warning (compat/missing-setting). ${UNUSED}`,
    ),
  }),
  "How skills are learned and improved.",
);

export const LocationSettings = describe(
  z.object({
    regionSize: num(
      "The size of one region cell in map units: location `x`/`y` offsets run from -regionSize/2 to +regionSize/2, and moving past an edge enters the next region (docs/engine.md, Geography). Usually 100.",
    ),
    simpleRadius: unused("The radius, in map units, of a generated `simple` location. Typical: 3 to 5."),
    complexRadius: unused("The radius, in map units, of a generated `complex` location. Typical: 8 to 10."),
    regionLocationCount: unused("How many locations a generated region gets. Typical: 3 to 8."),
    regionFactionCount: unused("How many factions a generated region gets. Typical: 1 to 2."),
    avgTravelDistance: unused(
      "The usual distance, in map units, between generated locations. Typical: 25 to 30.",
    ),
    minTravelDistance: unused("The least distance, in map units, between generated locations. Typical: 5."),
    newRegionGenerationEnabled: flag(`Whether the AI may create new regions during play. ${UNUSED}`),
    encountersEnabled: flag(`Whether travel may be interrupted by random encounters. ${UNUSED}`),
    regionMapBorderFeatheringEnabled: describe(
      z.boolean().optional(),
      `Whether region borders are drawn soft on maps. ${UNUSED} Optional, default false.`,
    ),
  }),
  "The map's scale, and how new places would be generated.",
);

export const ItemSettings = describe(
  z.object({
    currencyName: describe(z.string(), "The name of money (`shillings`), shown with the inventory."),
    itemCategories: describe(
      z.array(z.string()),
      "Every item category (`Tool`, `Weapon`); an item's `category` must be one of them (item/unknown-category).",
    ),
    itemSlots: describe(
      z.array(
        describe(
          z.object({
            slot: describe(z.string(), "The slot's name (`mainHand`, `neck`)."),
            category: describe(z.string(), "The item category the slot holds."),
            quantity: describe(z.number(), "How many items the slot holds; usually 1."),
          }),
          "One equipment slot.",
        ),
      ),
      `Equipment slots: where items of a category can be worn or wielded; [] for none. ${UNUSED}`,
    ),
    startingItems: describe(
      z.array(StartingItem),
      "Items every character starts with, before trait, story start and skill items; [] for none.",
    ),
  }),
  "Items: money, categories, slots and what everyone starts with.",
);

export const CombatSettings = describe(
  z.object({
    minCombatXP: unused("The least experience a fight gives. Typical: 1 to 5."),
    baseCombatXP: unused("The experience a fight against an equal gives. Typical: 10 to 25."),
    abilityCooldown: unused("Turns before an ability can be used again, when it sets none. Typical: 2 to 3."),
    abilityBonus: unused("The roll bonus an ability gives when it sets none. Typical: 2."),
    npcDailyHealingAmount: unused("Health an NPC regains per day of rest. Typical: 10."),
    damageTypes: describe(
      z.array(z.string()),
      "Every damage type (`blunt`, `fire`). Trait and NPC type vulnerabilities, resistances and immunities name them exactly (case counts).",
    ),
  }),
  "Fights: experience, ability defaults, NPC healing and damage types.",
);

export const OtherSettings = describe(
  z.object({
    startingCharacterLevelUpRequirement: unused(
      "Experience points needed to reach character level 2. Typical: 100.",
    ),
    extraRequiredXPPerCharacterLevel: unused("Extra experience each further level needs. Typical: 50."),
    maxCharacterLevel: unused("The highest character level. Typical: 20."),
    npcHealthPerLevel: unused("Health an NPC has per level, when it sets none. Typical: 5 to 6."),
    npcMinHealth: unused("The least health an NPC has. Typical: 8 to 10."),
  }),
  "Character levels and NPC health.",
);

export const TipSettings = describe(
  z.object({
    tips: describe(z.array(z.string()), "Gameplay tips shown to players between turns; [] for none."),
    tipDisplayEnabled: flag("Whether tips are shown at all."),
    tipTurnInterval: num(
      "A tip is shown every this many turns, counted from `tipMinimumTurns`. An integer of 1 or more; typical: 5.",
    ),
    tipMinimumTurns: num("The first turn (tick) after which a tip may be shown. Typical: 1 or 2."),
    tipMaximumTurns: num("The last turn (tick) after which a tip may be shown. Typical: 30 to 50."),
  }),
  "Gameplay tips: after turns whose tick is from `tipMinimumTurns` to `tipMaximumTurns` and a multiple of `tipTurnInterval` past the minimum, one tip (a seeded pick, never the same twice in a row) is shown.",
);

/** Integer-ness of `rechargeRate` is a rule (resource/recharge-rate-integer), not a shape error. */
export const ResourceDefinition = describe(
  z.object({
    name: describe(
      z.string(),
      "The resource's name (`health`, `mana`). Equal to its key; keys match case-insensitively, trimmed.",
    ),
    initialValue: num("The value every character starts with. Typical: the same as `maxValue`."),
    maxValue: num(
      "The starting maximum; trait modifiers raise or lower it. Values stay from 0 to the maximum.",
    ),
    restRechargeMultiplier: num(
      "`rechargeRate` is multiplied by this after a turn whose intent is `sleep`. Typical: 2 to 3.",
    ),
    gainPerLevel: unused("How much the maximum grows per character level. Typical: 1 to 4."),
    rechargeRate: num(
      "An integer added to every party member's value after each turn (negative drains), kept from 0 to the maximum (resource/recharge-rate-integer). 0 for none.",
    ),
    color: describe(z.string(), "The colour of the resource's bar: `#RRGGBB` hex (resource/color-format)."),
    usageInstructions: describe(
      z.string().optional(),
      `How the narrator should spend and restore the resource ("subtract 2-5 for a fall"). ${UNUSED} Optional.`,
    ),
    isHealth: describe(
      z.boolean().optional(),
      "True for the one resource that is the character's health (NPC `hpMax` applies to it). Default: false.",
    ),
  }),
  "A resource every character has: a value from 0 to a maximum (health, mana, resolve).",
);
export type ResourceDefinition = z.infer<typeof ResourceDefinition>;

export const Death = describe(
  z.object({
    permadeath: flag(`Whether a character who dies is gone for good. ${UNUSED}`),
    instructions: describe(z.string(), `What happens when a character dies, for the narrator. ${UNUSED}`),
  }),
  "What death means in this world.",
);
