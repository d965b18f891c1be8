/**
 * The world `taleforge init` writes: small, valid, lint-clean, and commented
 * by example (JSON has no comments, so its texts say what each part is for).
 * One realm, two regions, three locations, an NPC, a quest started by one
 * trigger and completed by another, and a script. Every required setting is
 * present with a sensible value (docs/format.md explains each).
 *
 * A test checks and lints it, and runs its play-test (src/author/starter-playtest.ts).
 * `shape/missing-field` messages take their examples from it.
 */
export function starterWorld(): Record<string, unknown> {
  return {
    configVersion: "V33",
    heroesVersion: 33,
    aiInstructions: {
      generateStory: {
        Style: "Second person, present tense, two short paragraphs. Keep the lamplit, hopeful mood.",
      },
    },
    storySettings: {
      worldBackground:
        "Lantern Vale is a quiet valley where every house keeps a lantern lit for travellers. Replace this text with your world's background: the narrator reads it every turn.",
    },
    narratorStyle: "Warm and plain. Short sentences. Describe what the player sees, hears and smells.",
    gameModes: {
      Story: {
        name: "Story",
        description: "Gentle play: danger is rare and never deadly.",
        instructions: "Keep danger low and let the player explore.",
      },
    },
    worldLore: {
      "The Lanterns": {
        text: "Each lantern of the vale is lit from the Beacon Flame kept in the Ridge Watchtower.",
      },
    },
    embeddings: {},
    triggers: {
      start_lost_flame: {
        name: "start_lost_flame",
        conditions: [
          { type: "game-tick", operator: "greaterThan", value: 0 },
          // Offered where its giver stands (lint/quest-offer-lapses), told so it holds a turn later (lint/story-deferred-scene).
          { type: "party-location", operator: "equals", value: "Old Well" },
        ],
        effects: [
          { type: "quest-init", operator: "set", value: "The Lost Flame" },
          {
            type: "story",
            instruction:
              "While the party is still at the Old Well, Mara Flint the lamplighter asks them for help: the Beacon Flame in the Ridge Watchtower has gone out.",
          },
        ],
      },
      relight_the_beacon: {
        name: "relight_the_beacon",
        conditions: [
          { type: "quest-status", questId: "The Lost Flame", operator: "equals", value: "accepted" },
          { type: "party-location", operator: "equals", value: "Ridge Watchtower" },
        ],
        effects: [
          { type: "quest-complete", questId: "The Lost Flame" },
          { type: "story", instruction: "The Beacon Flame catches again and lights the whole ridge." },
        ],
      },
      count_well_visits: {
        name: "count_well_visits",
        conditions: [{ type: "party-location", operator: "equals", value: "Old Well" }],
        effects: [],
        recurring: true,
        script: [
          "// Runs every turn the party is at the Old Well; storage persists between turns.",
          "storage.wellVisits = (storage.wellVisits || 0) + 1;",
          "if (storage.wellVisits === 3) {",
          '  effects.push({ type: "story", instruction: "A coin glints at the bottom of the well." });',
          "}",
          'log("well visits: " + storage.wellVisits);',
        ].join("\n"),
      },
    },
    storyStarts: {
      "Lantern Night": {
        name: "Lantern Night",
        description: "Arrive in Hollowmere as the lanterns are lit.",
        storyStart: "Dusk settles over Hollowmere. One by one, lanterns glow in the windows of the village.",
        locations: ["Hollowmere Village"],
        locationAreas: ["Village Green"],
        startingQuests: [],
        isDefault: true,
      },
    },
    abilities: {},
    npcTypes: {
      human: {
        name: "human",
        description: "An ordinary person.",
        vulnerabilities: [],
        resistances: [],
        immunities: [],
      },
    },
    items: {
      Lantern: {
        name: "Lantern",
        category: "Tool",
        description: "A tin lantern with a glass door.",
        bonuses: [],
      },
    },
    realms: {
      "Lantern Vale": { name: "Lantern Vale", basicInfo: "A green valley between two ridges." },
    },
    regions: {
      Hollowmere: {
        name: "Hollowmere",
        basicInfo: "Meadows, a slow river and the village of Hollowmere.",
        x: 0,
        y: 0,
        realm: "Lantern Vale",
      },
      "Ashen Ridge": {
        name: "Ashen Ridge",
        basicInfo: "A windy ridge of grey stone east of Hollowmere.",
        x: 1,
        y: 0,
        realm: "Lantern Vale",
      },
    },
    locations: {
      "Hollowmere Village": {
        name: "Hollowmere Village",
        basicInfo: "Thatched cottages around a village green.",
        x: 0,
        y: 0,
        radius: 5,
        region: "Hollowmere",
        complexityType: "simple",
        detailType: "basic",
        areas: {
          "Village Green": { description: "Grass, a maypole and lanterns on posts.", paths: ["Mill Lane"] },
          "Mill Lane": { description: "A muddy lane down to the river.", paths: ["Village Green"] },
        },
      },
      "Old Well": {
        name: "Old Well",
        basicInfo: "A mossy stone well at the edge of the meadows.",
        x: 20,
        y: -10,
        radius: 3,
        region: "Hollowmere",
        complexityType: "simple",
        detailType: "basic",
        areas: { Wellside: { description: "A ring of stones around the well.", paths: [] } },
      },
      "Ridge Watchtower": {
        name: "Ridge Watchtower",
        basicInfo: "A round stone tower that holds the Beacon Flame.",
        x: 0,
        y: 10,
        radius: 3,
        region: "Ashen Ridge",
        complexityType: "simple",
        detailType: "basic",
        areas: { "Beacon Room": { description: "A cold hearth under a high window.", paths: [] } },
      },
    },
    factions: {},
    npcs: {
      "Mara Flint": {
        name: "Mara Flint",
        type: "human",
        currentLocation: "Old Well",
        currentArea: "Wellside",
        basicInfo: "The village lamplighter, worried and kind.",
        known: true,
      },
    },
    quests: {
      "The Lost Flame": {
        name: "The Lost Flame",
        questSource: "Mara Flint",
        questGiverNPC: "Mara Flint",
        questStatement: "The Beacon Flame in the Ridge Watchtower has gone out.",
        mainObjective: "Relight the Beacon Flame in the Ridge Watchtower.",
        completionCondition: "The party relights the Beacon Flame.",
        detailType: "basic",
        spatialRelationship: "nearbyNewLocation",
      },
    },
    attributeSettings: {
      attributeNames: ["strength", "wits"],
      startingAttributeValue: 8,
      startingAttributePoints: 4,
      maxStartingAttribute: 14,
      lowAttributeThreshold: 3,
      attributeBonusModifier: 2,
      attributeStatModifiers: {},
      lowAttributeTraits: {},
    },
    skills: {
      climbing: {
        name: "climbing",
        attribute: "strength",
        type: "utility",
        description: "Getting up walls, trees and ridges.",
        startingItems: [],
      },
    },
    skillSettings: {
      trainingCooldown: 10,
      skillBonusModifier: 1,
      xpFromNewSkill: 50,
      maxSkillLevel: 10,
      maxSkillSuccessLevel: 10,
      charXPPerSkillLevel: 20,
      baseXPFromSkillUpgrade: 40,
      additionalXPRequiredPerSkillLevel: 20,
      startingXPToLevelUpSkill: 40,
      baseChanceToLearnNewSkill: 0.3,
      skillLearningBonusModifier: 0.05,
      skillXPRewards: { small: 5, medium: 10, large: 20, huge: 40 },
      skillTypeDifficultyBonus: {},
      newSkillGenerationEnabled: false,
    },
    traits: {
      Steady: {
        name: "Steady",
        description: "Keeps calm when things go wrong.",
        traitNarrativeEffects: "The character stays calm in danger and is good with their hands.",
        skills: [{ skill: "climbing", modifier: 1 }],
        attributes: [{ attribute: "strength", modifier: 1 }],
        resources: [],
        startingItems: [{ item: "Lantern", quantity: 1 }],
        abilities: [],
        unlockedBy: [],
        excludedBy: [],
      },
    },
    traitCategories: {
      Temperament: { name: "Temperament", maxSelections: 1, traits: ["Steady"] },
    },
    locationSettings: {
      regionSize: 100,
      simpleRadius: 3,
      complexRadius: 8,
      regionLocationCount: 3,
      regionFactionCount: 1,
      avgTravelDistance: 25,
      minTravelDistance: 5,
      newRegionGenerationEnabled: false,
      encountersEnabled: false,
    },
    itemSettings: {
      currencyName: "pennies",
      itemCategories: ["Tool"],
      itemSlots: [],
      startingItems: [],
    },
    combatSettings: {
      minCombatXP: 5,
      baseCombatXP: 25,
      abilityCooldown: 3,
      abilityBonus: 2,
      npcDailyHealingAmount: 10,
      damageTypes: ["blunt", "cutting", "fire"],
    },
    otherSettings: {
      startingCharacterLevelUpRequirement: 100,
      extraRequiredXPPerCharacterLevel: 50,
      maxCharacterLevel: 20,
      npcHealthPerLevel: 5,
      npcMinHealth: 10,
    },
    tipSettings: {
      tips: ['Say what you do in plain words: "walk to the Old Well", "talk to Mara Flint".'],
      tipDisplayEnabled: true,
      tipTurnInterval: 5,
      tipMinimumTurns: 1,
      tipMaximumTurns: 30,
    },
    resourceSettings: {
      health: {
        name: "health",
        initialValue: 20,
        maxValue: 20,
        restRechargeMultiplier: 2,
        gainPerLevel: 2,
        rechargeRate: 1,
        color: "#cc3333",
        isHealth: true,
      },
    },
    death: {
      permadeath: false,
      instructions: "The character wakes on the village green, bruised but alive.",
    },
    nameFilterSettings: {},
    premadeCharacters: [
      {
        name: "Wren",
        gender: "female",
        description: "A young lamplighter's apprentice.",
        attributes: { strength: 9, wits: 11 },
        traits: ["Steady"],
      },
    ],
    authorSeeds: {},
    characterArchetypes: {},
    locationArchetypes: {},
    regionArchetypes: {},
    encounterElements: {},
    randomNames: { male: ["Tom", "Bram"], female: ["Nell", "Ivy"] },
  };
}
