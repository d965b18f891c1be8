import { z } from "zod";
import { describe, NAME_RULE } from "./describe.ts";

export const StartingItem = describe(
  z.object({
    item: describe(z.string(), "The key of the item in `items`."),
    quantity: describe(z.number(), "How many; a negative quantity removes that many, 0 does nothing."),
  }),
  "An item and a quantity given at game start.",
);
export type StartingItem = z.infer<typeof StartingItem>;

const modifier = describe(z.number(), "How much it changes; negative lowers.");
const damageTypes = (what: string) =>
  describe(
    z.array(z.string()).optional(),
    `Damage types (from \`combatSettings.damageTypes\`, matched exactly) a character with the trait ${what}. Optional.`,
  );

/** docs/format.md, traits. `quirk` (older exports) is read as `traitNarrativeEffects` at load. */
export const Trait = describe(
  z.object({
    name: describe(z.string(), `The trait's name. ${NAME_RULE}`),
    description: describe(
      z.string(),
      "What the trait is, shown to players in character creation. At most 4000 characters (limit/trait-description).",
    ),
    traitNarrativeEffects: describe(
      z.string(),
      "The narrator's guidance for the trait during play: how it shows in the story. Often the description, longer or with hidden aspects. Older exports call it `quirk`; exactly one of the two is required.",
    ),
    skills: describe(
      z.array(
        describe(
          z.object({
            skill: describe(z.string(), "The key of the skill."),
            modifier,
          }),
          "A skill modifier.",
        ),
      ),
      "Skill modifiers the trait gives; a skill the character lacks is created at level 1. [] for none.",
    ),
    attributes: describe(
      z.array(
        describe(
          z.object({
            attribute: describe(z.string(), "An attribute name from `attributeSettings.attributeNames`."),
            modifier,
          }),
          "An attribute modifier.",
        ),
      ),
      "Attribute modifiers the trait gives; [] for none.",
    ),
    resources: describe(
      z.array(
        describe(
          z.object({
            resource: describe(z.string(), "The key of the resource in `resourceSettings`."),
            modifier,
          }),
          "A resource modifier.",
        ),
      ),
      "Resource modifiers: each raises (or lowers) the resource's maximum and current value while the trait is held. [] for none.",
    ),
    startingItems: describe(
      z.array(StartingItem),
      "Items a character with the trait starts with; required, [] for none.",
    ),
    abilities: describe(
      z.array(z.string()),
      "Keys of abilities the trait grants directly, ignoring their requirements; required, [] for none.",
    ),
    unlockedBy: describe(
      z.array(z.string()),
      "Reserved: traits that unlock this one. No effect in play; required, [] for none.",
    ),
    excludedBy: describe(
      z.array(z.string()),
      "Reserved: traits that exclude this one. No effect in play; required, [] for none.",
    ),
    vulnerabilities: damageTypes("takes 1.5 times the damage of"),
    resistances: damageTypes("takes half the damage of"),
    immunities: damageTypes("takes no damage from"),
    category: describe(
      z.string().optional(),
      "A trait category key. Membership comes from the category's `traits` list, not from this field; a name that is not a category is an error. Optional.",
    ),
    quirk: describe(
      z.string().optional(),
      "The older name of `traitNarrativeEffects`, used by real V33 exports; read as it. Use one of the two.",
    ),
  }),
  "A trait: what a character is (brave, noble, cursed), with its modifiers. Players pick traits from trait categories; `player-traits` effects add and remove them during play.",
);
export type Trait = z.infer<typeof Trait>;

export const TraitCategory = describe(
  z.object({
    name: describe(z.string(), `The category's name, a tab in character creation. ${NAME_RULE}`),
    maxSelections: describe(
      z.number(),
      "How many traits of this category a player may pick; an integer of 1 or more. The only creation limit that is enforced.",
    ),
    traits: describe(
      z.array(z.string()),
      "Keys of the traits in the category. A trait in no category cannot be picked.",
    ),
  }),
  "A group of traits players choose from in character creation.",
);
export type TraitCategory = z.infer<typeof TraitCategory>;
