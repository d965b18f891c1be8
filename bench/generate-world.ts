import { generateTriggers } from "./generate-triggers.ts";
import {
  ABILITY_TAILS,
  AREA_NAMES,
  FACTION_TAILS,
  FIRST_NAMES,
  ITEM_TAILS,
  LAST_NAMES,
  LOCATION_TAILS,
  NameBook,
  PLACE_HEADS,
  REGION_TAILS,
  THING_HEADS,
  TRAIT_HEADS,
  TRAIT_TAILS,
} from "./names.ts";
import { capitalise, npcText, placeText, regionText, sentence } from "./prose.ts";
import { Random } from "./random.ts";
import { ATTRIBUTES, DAMAGE_TYPES, RESOURCES, type WorldIndex, type WorldSize } from "./world-index.ts";

/**
 * A valid world at every cap of spec 8 (scale 1): 500 mechanical and 200
 * semantic triggers, a regions section just under 500,000 pretty-printed
 * characters, and content around them in realistic proportions. Larger scales
 * multiply every count (the caps are then exceeded on purpose: the point is to
 * show how checking time grows with size).
 */

/** Spec 8 caps (triggers, regions) and a realistic world around them. */
export const AT_CAP: WorldSize = {
  regions: 128,
  locationsPerRegion: 3,
  npcs: 200,
  traits: 100,
  traitsPerCategory: 10,
  quests: 60,
  mechanicalTriggers: 500,
  semanticTriggers: 200,
  factions: 24,
  items: 80,
  abilities: 40,
  skills: 20,
  narrativeEvents: 10,
  regionsChars: 490_000,
};

/** Region prose is capped at 4000 characters per region (spec 8). */
const MAX_BASIC_INFO = 4000;
/** Width of the region grid: regions fill rows of this many cells, so the realm stays connected. */
const GRID_WIDTH = 16;

export function sizeAt(scale: number): WorldSize {
  const scaled = { ...AT_CAP };
  for (const key of Object.keys(scaled) as (keyof WorldSize)[]) {
    if (key === "locationsPerRegion" || key === "traitsPerCategory") continue;
    scaled[key] = Math.round(AT_CAP[key] * scale);
  }
  return scaled;
}

const ITEM_CATEGORIES = ["Weapon", "Armor", "Tool", "Trinket", "Consumable"];
const NPC_TYPES = ["human", "beast", "spirit", "construct"];
const SKILL_NAMES =
  "climbing swimming tracking herbalism smithing riding stealth persuasion lore navigation archery brawling fishing cooking healing sailing masonry carpentry weaving singing".split(
    " ",
  );

export function generateWorld(scale = 1, seed = 33): Record<string, unknown> {
  const size = sizeAt(scale);
  const random = new Random(seed);
  const names = new NameBook(random);
  const index: WorldIndex = {
    realm: "Aurel",
    regions: [],
    locations: new Map(),
    startLocation: "",
    npcs: [],
    factions: [],
    traits: [],
    items: [],
    abilities: [],
    skills: [],
    quests: [],
    objectives: new Map(),
    events: [],
  };
  const factions = keyed(size.factions, () => {
    const name = names.make(PLACE_HEADS, FACTION_TAILS);
    index.factions.push(name);
    return { name, basicInfo: placeText(random), factionType: random.chance(0.3) ? "major" : "minor" };
  });
  const skills = keyed(size.skills, (i) => {
    const round = Math.floor(i / SKILL_NAMES.length);
    const name = `${SKILL_NAMES[i % SKILL_NAMES.length]}${round > 0 ? ` ${round + 1}` : ""}`;
    index.skills.push(name);
    return {
      name,
      attribute: random.pick(ATTRIBUTES),
      type: random.pick(["combat", "utility", "social"]),
      description: sentence(random),
      startingItems: [],
    };
  });
  const items = keyed(size.items, () => {
    const name = names.make(THING_HEADS, ITEM_TAILS);
    index.items.push(name);
    const category = random.pick(ITEM_CATEGORIES);
    return {
      name,
      category,
      description: sentence(random),
      bonuses: [bonus(random, index)],
      ...(category === "Weapon" ? { slot: "hand" } : category === "Armor" ? { slot: "body" } : {}),
    };
  });
  const abilities = keyed(size.abilities, () => {
    const name = names.make(TRAIT_HEADS, ABILITY_TAILS);
    index.abilities.push(name);
    return {
      name,
      description: sentence(random),
      requirements: random.chance(0.5)
        ? [{ type: "skill", variable: random.pick(index.skills), amount: random.int(1, 5) }]
        : [{ type: "characterLevel", amount: random.int(2, 10) }],
      bonus: random.int(1, 4),
      cooldown: random.int(0, 5),
    };
  });
  const regions = generateRegions(size, random, names, index);
  const locations = generateLocations(size, random, names, index);
  const npcs = generateNpcs(size, random, names, index);
  const { traits, traitCategories } = generateTraits(size, random, names, index);
  const quests = generateQuests(size, random, names, index);
  const narrativeEvents = keyed(
    size.narrativeEvents,
    (i) => {
      const key = `event_${i + 1}`;
      index.events.push(key);
      return {
        title: `${capitalise(random.pick(["storm", "festival", "raid", "eclipse", "flood"]))} ${i + 1}`,
        beats: `${sentence(random)} ${sentence(random)}`,
        targetTurns: random.int(3, 8),
        onCompleteEffects: [{ type: "story", instruction: sentence(random) }],
      };
    },
    (_, i) => `event_${i + 1}`,
  );
  const triggers = generateTriggers(size, random, index);
  const start = index.locations.get(index.startLocation)!;
  return {
    configVersion: "V33",
    heroesVersion: 33,
    aiInstructions: {
      generateStory: { Style: "Write in second person, present tense, with a light touch." },
    },
    storySettings: { worldBackground: regionText(random, 1200) },
    narratorStyle: "Measured and vivid; let quiet moments breathe.",
    gameModes: {
      Story: { name: "Story", description: "Gentle play.", instructions: "Keep danger low." },
      Classic: { name: "Classic", description: "Balanced.", instructions: "Let choices matter." },
    },
    worldLore: keyed(
      20,
      () => ({ text: regionText(random, 600) }),
      (_, i) => `Lore ${i + 1}`,
    ),
    embeddings: {},
    triggers,
    storyStarts: {
      Arrival: {
        name: "Arrival",
        description: "Arrive with the morning barge.",
        storyStart: regionText(random, 800),
        locations: [index.startLocation],
        locationAreas: [start.areas[0]],
        startingQuests: [],
        isDefault: true,
      },
    },
    abilities,
    npcTypes: Object.fromEntries(
      NPC_TYPES.map((name) => [
        name,
        {
          name,
          description: sentence(random),
          vulnerabilities: random.sample(DAMAGE_TYPES, 1),
          resistances: random.sample(DAMAGE_TYPES, 1),
          immunities: [],
        },
      ]),
    ),
    items,
    realms: { [index.realm]: { name: index.realm, basicInfo: regionText(random, 900) } },
    regions,
    locations,
    factions,
    npcs,
    quests,
    attributeSettings: {
      attributeNames: ATTRIBUTES,
      startingAttributeValue: 8,
      startingAttributePoints: 6,
      maxStartingAttribute: 14,
      lowAttributeThreshold: 3,
      attributeBonusModifier: 2,
      attributeStatModifiers: {},
      lowAttributeTraits: {},
    },
    skills,
    skillSettings: {
      trainingCooldown: 10,
      skillBonusModifier: 1,
      xpFromNewSkill: 100,
      maxSkillLevel: 20,
      maxSkillSuccessLevel: 20,
      charXPPerSkillLevel: 10,
      baseXPFromSkillUpgrade: 50,
      additionalXPRequiredPerSkillLevel: 20,
      startingXPToLevelUpSkill: 50,
      baseChanceToLearnNewSkill: 0.5,
      skillLearningBonusModifier: 0.1,
      skillXPRewards: { small: 10, medium: 20, large: 40, huge: 80 },
      skillTypeDifficultyBonus: { combat: 1, utility: 0, social: 0 },
      newSkillGenerationEnabled: false,
    },
    traits,
    traitCategories,
    locationSettings: {
      regionSize: 100,
      simpleRadius: 5,
      complexRadius: 10,
      regionLocationCount: size.locationsPerRegion,
      regionFactionCount: 2,
      avgTravelDistance: 30,
      minTravelDistance: 5,
      newRegionGenerationEnabled: false,
      encountersEnabled: true,
    },
    itemSettings: {
      currencyName: "marks",
      itemCategories: ITEM_CATEGORIES,
      itemSlots: [
        { slot: "hand", category: "Weapon", quantity: 2 },
        { slot: "body", category: "Armor", quantity: 1 },
      ],
      startingItems: [{ item: index.items[0], quantity: 1 }],
    },
    combatSettings: {
      minCombatXP: 1,
      baseCombatXP: 10,
      abilityCooldown: 2,
      abilityBonus: 2,
      npcDailyHealingAmount: 10,
      damageTypes: DAMAGE_TYPES,
    },
    otherSettings: {
      startingCharacterLevelUpRequirement: 100,
      extraRequiredXPPerCharacterLevel: 50,
      maxCharacterLevel: 20,
      npcHealthPerLevel: 5,
      npcMinHealth: 10,
    },
    tipSettings: {
      tips: ["Talk to people: they know more than they say.", "Rest before long journeys."],
      tipDisplayEnabled: true,
      tipTurnInterval: 5,
      tipMinimumTurns: 1,
      tipMaximumTurns: 50,
    },
    resourceSettings: Object.fromEntries(
      RESOURCES.map((name, i) => [
        name,
        {
          name,
          initialValue: 20,
          maxValue: 20,
          restRechargeMultiplier: 1,
          gainPerLevel: 2,
          rechargeRate: 1,
          color: ["#cc3333", "#33aa55", "#3366cc"][i],
          ...(name === "health" ? { isHealth: true } : {}),
        },
      ]),
    ),
    death: { permadeath: false, instructions: "Wake at the nearest shrine, bruised and poorer." },
    nameFilterSettings: {},
    premadeCharacters: [0, 1, 2, 3].map((i) => ({
      name: `${FIRST_NAMES[i]} ${LAST_NAMES[i]}`,
      gender: i % 2 ? "female" : "male",
      description: npcText(random),
      attributes: Object.fromEntries(ATTRIBUTES.map((a) => [a, 8])),
      // One trait from each of two categories keeps every category within its selection limit.
      traits: [index.traits[i]!, index.traits[size.traitsPerCategory + i]!],
    })),
    authorSeeds: {},
    characterArchetypes: {},
    locationArchetypes: {},
    regionArchetypes: {},
    encounterElements: {},
    randomNames: {
      male: FIRST_NAMES.filter((_, i) => i % 2 === 0),
      female: FIRST_NAMES.filter((_, i) => i % 2),
    },
    narrativeEvents,
  };
}

/** A name-keyed map of `count` records; the key is the record's name unless `keyOf` says otherwise. */
function keyed<T extends object>(
  count: number,
  make: (i: number) => T,
  keyOf: (value: T, i: number) => string = (value) => (value as { name: string }).name,
): Record<string, T> {
  const out: Record<string, T> = {};
  for (let i = 0; i < count; i++) {
    const value = make(i);
    out[keyOf(value, i)] = value;
  }
  return out;
}

function bonus(random: Random, index: WorldIndex) {
  const type = random.pick(["resource", "attribute", "skill"] as const);
  const variable =
    type === "resource"
      ? random.pick(RESOURCES)
      : type === "attribute"
        ? random.pick(ATTRIBUTES)
        : random.pick(index.skills);
  return { type, variable, value: random.int(1, 3) };
}

function generateRegions(size: WorldSize, random: Random, names: NameBook, index: WorldIndex) {
  const regions: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < size.regions; i++) {
    const name = names.make(PLACE_HEADS, REGION_TAILS, "");
    index.regions.push(name);
    const min = random.int(1, 5);
    regions[name] = {
      name,
      basicInfo: "",
      // Rows of GRID_WIDTH cells, filled left to right: every region shares an edge with the previous one.
      x: i % GRID_WIDTH,
      y: -Math.floor(i / GRID_WIDTH),
      realm: index.realm,
      factions: random.sample(index.factions, 2),
      known: i < GRID_WIDTH,
      npcLevelRange: { min, max: min + random.int(2, 6) },
    };
  }
  // Size the prose so that the section lands on its target: measure the JSON around it, then share out the rest.
  const records = Object.values(regions);
  const overhead = JSON.stringify(regions, null, 2).length;
  const budget = Math.max(0, size.regionsChars - overhead);
  const each = Math.min(MAX_BASIC_INFO, Math.floor(budget / records.length));
  for (const region of records) region.basicInfo = regionText(random, each);
  let missing = size.regionsChars - JSON.stringify(regions, null, 2).length;
  for (const region of records) {
    if (missing <= 0) break;
    const text = region.basicInfo as string;
    const extra = Math.min(missing, MAX_BASIC_INFO - text.length);
    region.basicInfo = text + ".".repeat(extra);
    missing -= extra;
  }
  return regions;
}

/** Spread within a region's cell (offsets from its centre, well inside -50..50). */
const SLOTS = [
  [-30, 20],
  [25, 30],
  [0, -25],
  [-20, -35],
  [35, -5],
  [10, 10],
];

function generateLocations(size: WorldSize, random: Random, names: NameBook, index: WorldIndex) {
  const locations: Record<string, unknown> = {};
  for (const region of index.regions) {
    for (let slot = 0; slot < size.locationsPerRegion; slot++) {
      const name = names.make(PLACE_HEADS, LOCATION_TAILS);
      const areaNames = random.sample(AREA_NAMES, random.int(2, 4));
      index.locations.set(name, { region, areas: areaNames });
      const [x, y] = SLOTS[slot % SLOTS.length]!;
      const complexityType = random.pick(["simple", "complex", "wilderness"] as const);
      locations[name] = {
        name,
        basicInfo: placeText(random),
        x: x! + random.int(-4, 4),
        y: y! + random.int(-4, 4),
        radius: complexityType === "complex" ? 10 : 5,
        region,
        complexityType,
        detailType: random.chance(0.3) ? "detailed" : "basic",
        // A corridor of areas: each leads to the next and back, so every path names an area of this location.
        areas: Object.fromEntries(
          areaNames.map((area, i) => [
            area,
            {
              description: sentence(random),
              paths: [areaNames[i - 1], areaNames[i + 1]].filter((a): a is string => a !== undefined),
            },
          ]),
        ),
        factions: random.sample(index.factions, 1),
        visualTags: random.sample(["misty", "busy", "ancient", "quiet", "crumbling", "lush"], 2),
        known: random.chance(0.6),
      };
    }
  }
  index.startLocation = [...index.locations.keys()][0]!;
  return locations;
}

function generateNpcs(size: WorldSize, random: Random, names: NameBook, index: WorldIndex) {
  // Nobody waits in the starting location: story NPCs stay out of the opening scene (spec 2.1).
  const homes = [...index.locations.keys()].filter((l) => l !== index.startLocation);
  const npcs: Record<string, unknown> = {};
  for (let i = 0; i < size.npcs; i++) {
    const name = names.make(FIRST_NAMES, LAST_NAMES);
    index.npcs.push(name);
    const home = random.pick(homes);
    const level = random.int(1, 12);
    npcs[name] = {
      name,
      type: random.pick(NPC_TYPES),
      currentLocation: home,
      currentArea: random.pick(index.locations.get(home)!.areas),
      gender: random.pick(["female", "male", "unknown"]),
      tier: random.pick(["weak", "average", "strong", "elite"]),
      faction: random.pick(index.factions),
      basicInfo: npcText(random),
      personality: random.sample(["curious", "guarded", "generous", "proud", "anxious", "wry"], 2),
      abilities: random.sample(index.abilities, 1),
      known: false,
      detailType: "basic",
      level,
      hpMax: 10 + level * 5,
      hpCurrent: 10 + level * 5,
    };
  }
  return npcs;
}

function generateTraits(size: WorldSize, random: Random, names: NameBook, index: WorldIndex) {
  const traits: Record<string, unknown> = {};
  for (let i = 0; i < size.traits; i++) {
    const name = names.make(TRAIT_HEADS, TRAIT_TAILS);
    index.traits.push(name);
    const description = `${sentence(random)} ${sentence(random)} ${sentence(random)}`;
    traits[name] = {
      name,
      description,
      traitNarrativeEffects: `${description} ${sentence(random)}`,
      skills: [{ skill: random.pick(index.skills), modifier: random.int(-1, 2) }],
      attributes: [{ attribute: random.pick(ATTRIBUTES), modifier: random.int(-1, 2) }],
      resources: random.chance(0.5)
        ? [{ resource: random.pick(RESOURCES), modifier: random.int(-3, 5) }]
        : [],
      startingItems: random.chance(0.4) ? [{ item: random.pick(index.items), quantity: 1 }] : [],
      abilities: random.chance(0.3) ? [random.pick(index.abilities)] : [],
      unlockedBy: [],
      excludedBy: [],
      ...(random.chance(0.2) ? { resistances: random.sample(DAMAGE_TYPES, 1) } : {}),
    };
  }
  const traitCategories: Record<string, unknown> = {};
  for (let start = 0; start < index.traits.length; start += size.traitsPerCategory) {
    const name = `${capitalise(random.pick(["gifts", "flaws", "upbringing", "calling", "temper"]))} ${start / size.traitsPerCategory + 1}`;
    traitCategories[name] = {
      name,
      maxSelections: 2,
      traits: index.traits.slice(start, start + size.traitsPerCategory),
    };
  }
  return { traits, traitCategories };
}

function generateQuests(size: WorldSize, random: Random, names: NameBook, index: WorldIndex) {
  const quests: Record<string, unknown> = {};
  for (let i = 0; i < size.quests; i++) {
    const name = `The ${names.make(THING_HEADS, ITEM_TAILS)}`;
    index.quests.push(name);
    const withObjectives = i % 4 === 0;
    const objectiveIds = withObjectives ? ["find", "return"] : [];
    if (withObjectives) index.objectives.set(name, objectiveIds);
    quests[name] = {
      name,
      questSource: random.pick(index.npcs),
      questStatement: sentence(random),
      mainObjective: `Recover the ${name.slice(4).toLowerCase()}.`,
      completionCondition: `The ${name.slice(4).toLowerCase()} is back with its owner.`,
      // Basic quests: a detailed one would add an engine-made trigger on top of the capped counts.
      detailType: "basic",
      spatialRelationship: random.pick(["existingLocalArea", "nearbyNewLocation", "distantNewLocation"]),
      ...(withObjectives
        ? {
            objectives: Object.fromEntries(
              objectiveIds.map((id) => [id, { id, text: `${capitalise(id)} it.`, status: "hidden" }]),
            ),
          }
        : {}),
    };
  }
  return quests;
}
