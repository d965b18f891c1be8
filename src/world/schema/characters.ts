import { z } from "zod";
import { describe, EMBEDDING_ID, HIDDEN_INFO, KNOWN, NAME_RULE, UNUSED } from "./describe.ts";
import { StartingItem } from "./trait.ts";

export const Npc = describe(
  z.object({
    name: describe(z.string(), `The NPC's name as players and the narrator know it. ${NAME_RULE}`),
    type: describe(z.string(), "The key of the NPC's type in `npcTypes` (its kind and damage profile)."),
    currentLocation: describe(z.string(), "The key of the location where the NPC is at the start."),
    currentArea: describe(
      z.string(),
      "The key of the area of `currentLocation` where the NPC stands. Keep story NPCs out of a story start's opening areas (story-start/ rules).",
    ),
    properName: describe(
      z.string().optional(),
      'A personal name when `name` is a title ("the Ferryman"). Optional.',
    ),
    gender: describe(z.string().optional(), "Free text, for the narrator's pronouns. Optional."),
    tier: describe(
      z.enum(["trivial", "weak", "average", "strong", "elite", "boss", "mythic"]).optional(),
      "How dangerous the NPC is in a fight, from `trivial` to `mythic`. Not used by Taleforge's engine. Optional.",
    ),
    faction: describe(z.string().optional(), "The key of the NPC's faction. Optional."),
    basicInfo: describe(
      z.string().optional(),
      "What anyone can see or know of the NPC: the narrator gets it when the NPC is present. Name only the NPC's real `currentArea`, or no area. Optional.",
    ),
    hiddenInfo: describe(z.string().optional(), HIDDEN_INFO),
    visualDescription: describe(z.string().optional(), "The NPC's looks, for portraits. Optional."),
    portraitUrl: describe(z.string().optional(), "A portrait image URL. Not used by Taleforge. Optional."),
    personality: describe(
      z.array(z.string()).optional(),
      "Personality keywords (`gruff`, `kind`). Optional.",
    ),
    abilities: describe(
      z.array(z.string()).optional(),
      "Keys of `abilities` the NPC has; an NPC in the party holds them. Optional.",
    ),
    known: describe(z.boolean().optional(), KNOWN(false)),
    embeddingId: describe(z.string().optional(), EMBEDDING_ID),
    detailType: describe(
      z.enum(["basic", "detailed"]).optional(),
      "`detailed` when the author wrote the NPC out fully; `basic` when the AI may add details. Optional.",
    ),
    level: describe(
      z.number().optional(),
      "The NPC's level (as a party member), an integer of 1 or more. Default: 1.",
    ),
    hpMax: describe(
      z.number().optional(),
      "The NPC's maximum health (the resource with `isHealth`) when it joins the party. Default: that resource's `maxValue`.",
    ),
    hpCurrent: describe(
      z.number().optional(),
      "The NPC's health when it joins the party, at most `hpMax`. Default: `hpMax`.",
    ),
    healthMultiplier: describe(
      z.number().optional(),
      `A multiplier of the NPC's health for hosts that compute it from its level. ${UNUSED} Optional.`,
    ),
  }),
  "A non-player character placed in the world.",
);
export type Npc = z.infer<typeof Npc>;

const damageTypes = (what: string) =>
  describe(
    z.array(z.string()),
    `Damage types (names from \`combatSettings.damageTypes\`, matched exactly) this kind ${what}; [] for none.`,
  );

export const NpcType = describe(
  z.object({
    name: describe(z.string(), `The type's name (\`human\`, \`wolf\`). ${NAME_RULE}`),
    description: describe(z.string(), "What this kind of creature is, for the narrator."),
    vulnerabilities: damageTypes("takes 1.5 times the damage of"),
    resistances: damageTypes("takes half the damage of"),
    immunities: damageTypes("takes no damage from"),
  }),
  "A kind of NPC with its damage profile.",
);
export type NpcType = z.infer<typeof NpcType>;

export const AbilityRequirement = describe(
  z.discriminatedUnion("type", [
    describe(
      z.object({
        type: describe(
          z.enum(["resource", "attribute", "skill", "trait"]),
          "What is required: a resource, attribute or skill value, or a trait held.",
        ),
        variable: describe(z.string(), "The resource key, attribute name, skill key or trait key."),
        amount: describe(z.number(), "The value needed (for a trait: ignored; holding it is enough)."),
      }),
      "A requirement on a resource, attribute, skill or trait.",
    ),
    describe(
      z.object({
        type: describe(z.literal("characterLevel"), "A character level requirement."),
        amount: describe(z.number(), "The character level needed."),
      }),
      "A character level requirement.",
    ),
  ]),
  "One requirement to learn the ability. Only `skill` requirements are enforced during play; abilities granted by a trait ignore them.",
);

export const Ability = describe(
  z.object({
    name: describe(z.string(), `The ability's name. ${NAME_RULE}`),
    description: describe(z.string(), "What the ability does, for players and the narrator."),
    requirements: describe(z.array(AbilityRequirement), "What a character needs to learn it; [] for none."),
    bonus: describe(z.number(), "The bonus the ability adds to a roll where it applies; typically 1 to 5."),
    cooldown: describe(z.number(), "Turns before the ability can be used again; 0 for none."),
  }),
  "A special ability characters can have (through traits or requirements).",
);
export type Ability = z.infer<typeof Ability>;

export const Item = describe(
  z.object({
    name: describe(z.string(), `The item's name. ${NAME_RULE}`),
    category: describe(
      z.string(),
      "One of `itemSettings.itemCategories` (exactly); it decides which slots can hold the item (item/unknown-category).",
    ),
    description: describe(z.string(), "What the item is, for players and the narrator."),
    bonuses: describe(
      z.array(
        describe(
          z.object({
            type: describe(
              z.enum(["resource", "stat", "attribute", "skill"]),
              "What the bonus raises: a resource, a free-form stat, an attribute or a skill.",
            ),
            variable: describe(
              z.string(),
              "The resource key, stat name, attribute name or skill key it raises (item/unknown-bonus-variable).",
            ),
            value: describe(z.number(), "How much it adds while the item is held; negative lowers."),
          }),
          "One bonus of the item.",
        ),
      ),
      "What holding the item changes; [] for none.",
    ),
    slot: describe(
      z.string().optional(),
      "The equipment slot it goes in (a `slot` of `itemSettings.itemSlots`). Optional.",
    ),
    mediaContent: describe(
      z.string().optional(),
      "Text or media the item carries (a letter's words). Optional.",
    ),
  }),
  "An item characters can carry.",
);
export type Item = z.infer<typeof Item>;

export const Skill = describe(
  z.object({
    name: describe(z.string(), `The skill's name. ${NAME_RULE}`),
    attribute: describe(
      z.string(),
      "The attribute that governs the skill: one of `attributeSettings.attributeNames`, case and spaces ignored (skill/unknown-attribute).",
    ),
    type: describe(
      z.string(),
      "The skill's kind (`utility`, `social`, `combat`…), a key of `skillSettings.skillTypeDifficultyBonus` when it has one.",
    ),
    description: describe(z.string(), "What the skill covers, for players and the narrator."),
    startingItems: describe(
      z.array(StartingItem),
      "Items a character with this skill gets at game start; [] for none.",
    ),
  }),
  "A skill characters can have and improve.",
);
export type Skill = z.infer<typeof Skill>;

export const PremadeCharacter = describe(
  z.object({
    name: describe(z.string(), "The character's name; `taleforge play --premade <name>` picks it."),
    gender: describe(z.string(), "Free text, for the narrator's pronouns."),
    description: describe(z.string(), "Who the character is, shown when players choose."),
    attributes: describe(
      z.record(z.string(), z.number()),
      "Attribute name -> starting value; attributes left out start at `attributeSettings.startingAttributeValue`.",
    ),
    traits: describe(z.array(z.string()), "Keys of the traits the character starts with."),
    backstory: describe(z.string().optional(), "The character's past, for the narrator. Optional."),
    portraitUrl: describe(z.string().optional(), "A portrait image URL. Not used by Taleforge. Optional."),
    replacesNpc: describe(
      z.string().optional(),
      `The key of an NPC this character is, for hosts that then leave that NPC out of the game. ${UNUSED} Optional.`,
    ),
  }),
  "A ready-made player character.",
);
export type PremadeCharacter = z.infer<typeof PremadeCharacter>;
