import { z } from "zod";
import { Ability, Item, Npc, NpcType, PremadeCharacter, Skill } from "./characters.ts";
import { Faction, Location, Realm, Region } from "./geography.ts";
import {
  AttributeSettings,
  CombatSettings,
  Death,
  ItemSettings,
  LocationSettings,
  OtherSettings,
  ResourceDefinition,
  SkillSettings,
  TipSettings,
} from "./settings.ts";
import { GameMode, LoreEntry, NarrativeEvent, Quest, StoryStart } from "./story.ts";
import { Trait, TraitCategory } from "./trait.ts";
import { Trigger, TriggerShape } from "./trigger.ts";

const map = <T extends z.ZodType>(value: T) => z.record(z.string(), value);
const strings = z.record(z.string(), z.string());

/**
 * Every top-level section of spec 2.1 plus the resolutions' `narrativeEvents`,
 * one schema each. Validation checks each section (and each record of a keyed
 * map) on its own so that one bad record does not hide the rest.
 */
export const SECTIONS = {
  $schema: z.string().optional(),
  configVersion: z.literal("V33"),
  heroesVersion: z.literal(33),
  aiInstructions: map(strings),
  storySettings: z.object({ worldBackground: z.string(), questGenerationGuidance: z.string().optional() }),
  narratorStyle: z.string().optional(),
  gameModes: map(GameMode),
  worldLore: map(LoreEntry),
  embeddings: map(z.array(z.number())),
  triggers: map(Trigger),
  storyStarts: map(StoryStart),
  abilities: map(Ability),
  npcTypes: map(NpcType),
  items: map(Item),
  realms: map(Realm),
  regions: map(Region),
  locations: map(Location),
  factions: map(Faction),
  npcs: map(Npc),
  quests: map(Quest),
  attributeSettings: AttributeSettings,
  skills: map(Skill),
  skillSettings: SkillSettings,
  traits: map(Trait),
  traitCategories: map(TraitCategory),
  locationSettings: LocationSettings,
  itemSettings: ItemSettings,
  combatSettings: CombatSettings,
  otherSettings: OtherSettings,
  tipSettings: TipSettings,
  resourceSettings: map(ResourceDefinition),
  death: Death,
  nameFilterSettings: map(z.object({ replacements: z.array(z.string()) })),
  premadeCharacters: z.array(PremadeCharacter),
  authorSeeds: strings,
  characterArchetypes: strings,
  locationArchetypes: strings,
  regionArchetypes: strings,
  encounterElements: strings,
  randomNames: z.object({ male: z.array(z.string()), female: z.array(z.string()) }),
  embeddingModel: z.string().optional(),
  embeddingDimension: z.number().optional(),
  mods: z.array(z.object({ shortId: z.string(), version: z.number().nullable() })).optional(),
  characterCreationMusic: z.enum(["fantasy", "nonfantasy"]).optional(),
  imagePromptConfiguration: z
    .object({
      npcs: z.string().optional(),
      locations: z.string().optional(),
      regions: z.string().optional(),
      characterLoraEnabled: z.boolean().optional(),
      locationLoraEnabled: z.boolean().optional(),
    })
    .optional(),
  narrativeEvents: map(NarrativeEvent).optional(),
} as const;

export type SectionName = keyof typeof SECTIONS;

export const World = z.object(SECTIONS);
export type World = z.infer<typeof World>;

/** Sections that are keyed maps of records (checked record by record). */
export const MAP_SECTIONS = [
  "gameModes",
  "worldLore",
  "embeddings",
  "triggers",
  "storyStarts",
  "abilities",
  "npcTypes",
  "items",
  "realms",
  "regions",
  "locations",
  "factions",
  "npcs",
  "quests",
  "skills",
  "traits",
  "traitCategories",
  "resourceSettings",
  "nameFilterSettings",
  "narrativeEvents",
] as const satisfies readonly SectionName[];

const lenientEffects = z.array(z.looseObject({ type: z.string() }));

/**
 * The schema a record is checked against at load. Triggers and narrative
 * events take conditions/effects as loose objects: the condition and effect
 * rules check those one by one with precise codes.
 */
export const RECORD_SHAPES: Partial<Record<SectionName, z.ZodType>> = {
  triggers: TriggerShape,
  narrativeEvents: NarrativeEvent.extend({ onCompleteEffects: lenientEffects.optional() }),
};

export function recordSchema(section: SectionName): z.ZodType | undefined {
  const override = RECORD_SHAPES[section];
  if (override) return override;
  const schema = SECTIONS[section] as z.ZodType;
  const inner = schema instanceof z.ZodOptional ? schema.unwrap() : schema;
  return inner instanceof z.ZodRecord ? (inner.valueType as z.ZodType) : undefined;
}
