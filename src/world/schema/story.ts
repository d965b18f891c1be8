import { z } from "zod";
import { OBJECTIVE_STATUSES } from "./conditions.ts";
import { describe, NAME_RULE, UNUSED } from "./describe.ts";
import { Effect } from "./effects.ts";

const NextStep = describe(
  z.object({
    text: describe(z.string(), 'The hint, shown in the journal ("Find the keeper\'s logbook").'),
    source: describe(
      z.enum(["objective", "narrative-event"]),
      "Where the hint comes from: an objective or a narrative event.",
    ),
  }),
  "The quest's next-step hint at the start. Optional; objective and next-step effects change it.",
);

/** Quest objectives, referenced by `objectiveId`. */
export const Objective = describe(
  z.object({
    id: describe(z.string(), "The objective's id: equal to its key in `objectives`."),
    text: describe(z.string(), "What to do, shown in the journal when the objective is active."),
    status: describe(
      z.enum(OBJECTIVE_STATUSES),
      "The status at the start: `hidden` (not shown yet), `active` or `completed`. `quest-objective-reveal` makes it active, `quest-objective-complete` completes it (lint/objective-stuck).",
    ),
  }),
  "One step of a quest, shown in the journal.",
  [{ id: "find_logbook", text: "Find the keeper's logbook.", status: "hidden" }],
);
export type Objective = z.infer<typeof Objective>;

const questCommon = {
  name: describe(z.string(), `The quest's title. ${NAME_RULE}`),
  questSource: describe(z.string(), "Who or what gives the quest (an NPC's name, a notice board)."),
  questStatement: describe(z.string(), "The quest as the journal states it."),
  mainObjective: describe(
    z.string(),
    "What completes the quest, in a sentence; `quest-progress` marks it done.",
  ),
  completionCondition: describe(
    z.string(),
    'When the quest is complete, as a question the AI can judge. For a `detailed` quest a non-blank one makes the engine add a trigger `<quest>_objective` that judges it and progresses the quest. May be "".',
  ),
  conclusive: describe(
    z.boolean().optional(),
    `Whether completing the quest ends the story. ${UNUSED} Optional, default false.`,
  ),
  questDesignBrief: describe(z.string().optional(), `Notes for quest generation. ${UNUSED} Optional.`),
  questGiverNPC: describe(z.string().optional(), "The key of the NPC who gives the quest. Optional."),
  objectives: describe(
    z.record(z.string(), Objective).optional(),
    "The quest's objectives by id, in journal order. Optional.",
  ),
  activeObjectiveId: describe(
    z.string().optional(),
    "The id of the objective active at the start. Optional.",
  ),
  nextStep: NextStep.optional(),
};

export const Quest = describe(
  z.discriminatedUnion("detailType", [
    describe(
      z.object({
        ...questCommon,
        detailType: describe(z.literal("basic"), "A quest whose place the AI may choose."),
        spatialRelationship: describe(
          z.enum([
            "existingLocalArea",
            "newLocalArea",
            "nearbyNewLocation",
            "distantNewLocation",
            "existingLocationNewAreas",
          ]),
          "Where the quest takes place relative to where it is given: the same area, a new area nearby, a new location nearby or far away, or new areas of an existing location.",
        ),
      }),
      "A `basic` quest: its place is described by `spatialRelationship`.",
    ),
    describe(
      z.object({
        ...questCommon,
        detailType: describe(z.literal("detailed"), "A quest set in a place the author chose."),
        questLocation: describe(z.string(), "The key of the location where the quest takes place."),
      }),
      "A `detailed` quest: it names its `questLocation`.",
    ),
  ]),
  "A quest. Every quest starts `hidden`; a `quest-init` effect makes it `available` (every quest needs a trigger with one: quest/no-init-trigger), the player accepts or rejects it, and `quest-complete` (or `quest-progress` on an accepted quest) completes it (docs/engine.md, Quests).",
);
export type Quest = z.infer<typeof Quest>;

export const StoryStart = describe(
  z.object({
    name: describe(z.string(), `The story start's name. ${NAME_RULE}`),
    description: describe(z.string(), "What this start is, shown when players choose one."),
    storyStart: describe(z.string(), "The opening text the narrator writes the first scene from."),
    locations: describe(
      z.array(z.string()),
      "Keys of the locations the game may start in (one is picked with the game's seed); [] for any location.",
    ),
    locationAreas: describe(
      z.array(z.string()),
      "Keys of the areas the party may start in: one of those in the picked location is picked with the seed (any of its areas when none is). Keep story NPCs out of these (story-start/ rules).",
    ),
    startingQuests: describe(
      z.array(z.string()).optional(),
      "Quests available at game start. Keep it []: quests should start through `quest-init` triggers (a listed quest bypasses them, with a warning).",
    ),
    startingItems: describe(
      z
        .array(
          describe(
            z.object({
              item: describe(z.string(), "The key of the item."),
              quantity: describe(z.number(), "How many of the item (negative removes)."),
            }),
            "An item given at this start.",
          ),
        )
        .optional(),
      "Items the party gets at this start. Optional.",
    ),
    isDefault: describe(
      z.boolean().optional(),
      "True for the start used when none is chosen; else the first start is used. Optional.",
    ),
    startingPartyNPCs: describe(
      z.array(z.string()).optional(),
      "Keys of NPCs who start in the party, known. Optional.",
    ),
    firstQuest: describe(z.string().optional(), `The quest this start leads into. ${UNUSED} Optional.`),
    questGenerationGuidance: describe(
      z.string().optional(),
      `Guidance for generated quests at this start. ${UNUSED} Optional.`,
    ),
  }),
  "A way to begin the game: where, and with what opening text.",
);
export type StoryStart = z.infer<typeof StoryStart>;

/** Optional top-level `narrativeEvents`. */
export const NarrativeEvent = describe(
  z.object({
    title: describe(z.string(), "The event's title."),
    beats: describe(
      z.string(),
      "What should happen while the event is active: sent to the narrator every active turn.",
    ),
    targetTurns: describe(
      z.number().optional(),
      "The turns the event should take: it is completed by force after twice as many active turns. Optional; without it only the AI's verdict ends it.",
    ),
    onCompleteEffects: describe(
      z.array(Effect).optional(),
      "Effects applied when the event completes (outside the 5-effect cap of triggers). Optional.",
    ),
  }),
  "A narrative event: a stretch of story the narrator plays out once a `narrative-event-start` effect starts it. Each active turn the AI judges whether it is completed or stopped (docs/engine.md, Narrative events).",
  [{ title: "The Storm", beats: "A storm breaks; the lamp must be lit before dawn.", targetTurns: 3 }],
);
export type NarrativeEvent = z.infer<typeof NarrativeEvent>;

export const GameMode = describe(
  z.object({
    name: describe(z.string(), `The mode's name (\`taleforge play --mode\`). ${NAME_RULE}`),
    description: describe(z.string(), "What the mode is, shown when players choose it."),
    instructions: describe(z.string(), "Instructions the narrator follows in this mode."),
    difficulty: describe(z.string().optional(), `A difficulty label. ${UNUSED} Optional.`),
    askTheNarratorPrompt: describe(
      z.string().optional(),
      `The prompt for out-of-game questions to the narrator. ${UNUSED} Optional.`,
    ),
  }),
  "A game mode: instructions the narrator follows for the whole game.",
);
export type GameMode = z.infer<typeof GameMode>;

export const LoreEntry = describe(
  z.object({
    text: describe(
      z.string(),
      "A fact of the world. The entries most relevant to the turn are sent to the narrator (docs/prompts.md, Lore).",
    ),
    embeddingId: describe(
      z.string().optional(),
      "Assigned by the engine that computes embeddings; leave it out.",
    ),
  }),
  "One entry of world lore.",
);
