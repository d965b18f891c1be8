import { z } from "zod";
import { OBJECTIVE_STATUSES } from "./conditions.ts";
import { Effect } from "./effects.ts";

const NextStep = z.object({ text: z.string(), source: z.enum(["objective", "narrative-event"]) });

/** Resolutions: quest objectives, referenced by `objectiveId`. */
export const Objective = z.object({
  id: z.string(),
  text: z.string(),
  status: z.enum(OBJECTIVE_STATUSES),
});
export type Objective = z.infer<typeof Objective>;

const questCommon = {
  name: z.string(),
  questSource: z.string(),
  questStatement: z.string(),
  mainObjective: z.string(),
  completionCondition: z.string(),
  conclusive: z.boolean().optional(),
  questDesignBrief: z.string().optional(),
  questGiverNPC: z.string().optional(),
  objectives: z.record(z.string(), Objective).optional(),
  activeObjectiveId: z.string().optional(),
  nextStep: NextStep.optional(),
};

export const Quest = z.discriminatedUnion("detailType", [
  z.object({
    ...questCommon,
    detailType: z.literal("basic"),
    spatialRelationship: z.enum([
      "existingLocalArea",
      "newLocalArea",
      "nearbyNewLocation",
      "distantNewLocation",
      "existingLocationNewAreas",
    ]),
  }),
  z.object({ ...questCommon, detailType: z.literal("detailed"), questLocation: z.string() }),
]);
export type Quest = z.infer<typeof Quest>;

export const StoryStart = z.object({
  name: z.string(),
  description: z.string(),
  storyStart: z.string(),
  locations: z.array(z.string()),
  locationAreas: z.array(z.string()),
  startingQuests: z.array(z.string()).optional(),
  startingItems: z.array(z.object({ item: z.string(), quantity: z.number() })).optional(),
  isDefault: z.boolean().optional(),
  startingPartyNPCs: z.array(z.string()).optional(),
  firstQuest: z.string().optional(),
  questGenerationGuidance: z.string().optional(),
});
export type StoryStart = z.infer<typeof StoryStart>;

/** Resolutions: optional top-level `narrativeEvents`. */
export const NarrativeEvent = z.object({
  title: z.string(),
  beats: z.string(),
  targetTurns: z.number().optional(),
  onCompleteEffects: z.array(Effect).optional(),
});
export type NarrativeEvent = z.infer<typeof NarrativeEvent>;

export const GameMode = z.object({
  name: z.string(),
  description: z.string(),
  instructions: z.string(),
  difficulty: z.string().optional(),
  askTheNarratorPrompt: z.string().optional(),
});
export type GameMode = z.infer<typeof GameMode>;

export const LoreEntry = z.object({ text: z.string(), embeddingId: z.string().optional() });
