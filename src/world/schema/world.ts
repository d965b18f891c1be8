import { z } from "zod";
import { Ability, Item, Npc, NpcType, PremadeCharacter, Skill } from "./characters.ts";
import { describe, UNUSED } from "./describe.ts";
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
// A function: each field describes its own map of strings (describe.ts registers on the schema itself).
const strings = () => z.record(z.string(), z.string());

/**
 * Every top-level section of spec 2.1 plus the resolutions' `narrativeEvents`,
 * one schema each. Validation checks each section (and each record of a keyed
 * map) on its own so that one bad record does not hide the rest.
 */
export const SECTIONS = {
  $schema: describe(
    z.string().optional(),
    "The path or URL of the world's JSON Schema (`taleforge schema -o world.schema.json`), for editors. Ignored by the engine. Optional.",
  ),
  configVersion: describe(z.literal("V33"), 'The format version: always "V33".'),
  heroesVersion: describe(z.literal(33), "The product version of the format: always 33."),
  aiInstructions: describe(
    map(describe(strings(), "Instruction name -> text, for one AI task.")),
    "Instructions to the AI by task (`generateStory` for every turn's narration, `generateInitialStart` for the opening), each a map of named texts sent in key order (docs/prompts.md). {} for none.",
  ),
  storySettings: describe(
    z.object({
      worldBackground: describe(
        z.string(),
        "The world's background: what the narrator knows of the world on every turn. Up to 4000 characters reach the narrator.",
      ),
      questGenerationGuidance: describe(
        z.string().optional(),
        `Guidance for generated quests. ${UNUSED} Optional.`,
      ),
    }),
    "The story's background.",
  ),
  narratorStyle: describe(
    z.string().optional(),
    "How the narrator writes (tone, tense, length). Optional; up to 2000 characters reach the narrator.",
  ),
  gameModes: describe(
    map(GameMode),
    "Game modes by name. Older exports omit the section: it is then read as {}, with a warning (compat/missing-game-modes).",
  ),
  worldLore: describe(
    map(LoreEntry),
    "Lore entries by title: facts the narrator is given when they are relevant.",
  ),
  embeddings: describe(
    map(describe(z.array(z.number()), "One embedding vector.")),
    "Embedding vectors by id, computed by a host for lore and AI-judged queries. Leave it {} when authoring.",
  ),
  triggers: describe(
    map(Trigger),
    "The triggers, by name: the world's deterministic rules. Conditions and effects are described under Conditions and Effects below.",
  ),
  storyStarts: describe(
    map(StoryStart),
    "The ways a game can begin, by name. A world needs at least one to be played.",
  ),
  abilities: describe(map(Ability), "Abilities by name; {} for none."),
  npcTypes: describe(map(NpcType), "Kinds of NPC by name (every NPC's `type` names one)."),
  items: describe(map(Item), "Items by name; {} for none."),
  realms: describe(map(Realm), "Realms by name."),
  regions: describe(
    map(Region),
    "Regions by name. The whole section is at most 500000 characters of pretty-printed JSON (limit/regions-section).",
  ),
  locations: describe(map(Location), "Locations by name."),
  factions: describe(map(Faction), "Factions by name; {} for none."),
  npcs: describe(map(Npc), "NPCs by name; {} for none."),
  quests: describe(map(Quest), "Quests by name; {} for none."),
  attributeSettings: AttributeSettings,
  skills: describe(map(Skill), "Skills by name; {} for none."),
  skillSettings: SkillSettings,
  traits: describe(map(Trait), "Traits by name; {} for none."),
  traitCategories: describe(
    map(TraitCategory),
    "Trait categories by name: each is a tab of character creation, even with no traits.",
  ),
  locationSettings: LocationSettings,
  itemSettings: ItemSettings,
  combatSettings: CombatSettings,
  otherSettings: OtherSettings,
  tipSettings: TipSettings,
  resourceSettings: describe(map(ResourceDefinition), "Resources by key (`health`, `mana`)."),
  death: Death,
  nameFilterSettings: describe(
    map(
      describe(
        z.object({
          replacements: describe(z.array(z.string()), "Names to use instead of the filtered one."),
        }),
        "The replacements of one filtered name.",
      ),
    ),
    `Names the AI should not generate, each with replacements. ${UNUSED} {} for none.`,
  ),
  premadeCharacters: describe(z.array(PremadeCharacter), "Ready-made player characters; [] for none."),
  authorSeeds: describe(
    strings(),
    `Name -> idea for the AI to build on when it generates content. ${UNUSED} {} for none.`,
  ),
  characterArchetypes: describe(
    strings(),
    `Name -> description of a kind of character for generation. ${UNUSED} {} for none.`,
  ),
  locationArchetypes: describe(
    strings(),
    `Name -> description of a kind of location for generation. ${UNUSED} {} for none.`,
  ),
  regionArchetypes: describe(
    strings(),
    `Name -> description of a kind of region for generation. ${UNUSED} {} for none.`,
  ),
  encounterElements: describe(strings(), `Name -> element random encounters may use. ${UNUSED} {} for none.`),
  randomNames: describe(
    z.object({
      male: describe(z.array(z.string()), "Names for generated male characters."),
      female: describe(z.array(z.string()), "Names for generated female characters."),
    }),
    `Names the AI picks from for generated characters. ${UNUSED}`,
  ),
  embeddingModel: describe(
    z.string().optional(),
    "The model the `embeddings` were computed with. Optional; leave it out when authoring.",
  ),
  embeddingDimension: describe(z.number().optional(), "The length of each embedding vector. Optional."),
  mods: describe(
    z
      .array(
        describe(
          z.object({
            shortId: describe(z.string(), "The mod's id."),
            version: describe(z.number().nullable(), "The mod's version, or null."),
          }),
          "One mod.",
        ),
      )
      .optional(),
    `Mods merged into this world by a host. ${UNUSED} Optional.`,
  ),
  characterCreationMusic: describe(
    z.enum(["fantasy", "nonfantasy"]).optional(),
    `The music of character creation. ${UNUSED} Optional.`,
  ),
  imagePromptConfiguration: describe(
    z
      .object({
        npcs: describe(z.string().optional(), "Style text for NPC portraits. Optional."),
        locations: describe(z.string().optional(), "Style text for location pictures. Optional."),
        regions: describe(z.string().optional(), "Style text for region pictures. Optional."),
        characterLoraEnabled: describe(z.boolean().optional(), "Whether a character LoRA is used. Optional."),
        locationLoraEnabled: describe(z.boolean().optional(), "Whether a location LoRA is used. Optional."),
      })
      .optional(),
    `How images are generated. ${UNUSED} Optional.`,
  ),
  narrativeEvents: describe(map(NarrativeEvent).optional(), "Narrative events by key. Optional."),
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

const lenientEffects = describe(
  z.array(z.looseObject({ type: z.string() })),
  "Effects applied when the event completes (outside the 5-effect cap of triggers). Optional.",
);

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
