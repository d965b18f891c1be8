import { z } from "zod";

const LevelRange = z.object({ min: z.number(), max: z.number() });

export const Realm = z.object({
  name: z.string(),
  basicInfo: z.string(),
  embeddingId: z.string().optional(),
  known: z.boolean().optional(),
});
export type Realm = z.infer<typeof Realm>;

/** Spec 2.4. */
export const Region = z.object({
  name: z.string(),
  basicInfo: z.string(),
  x: z.number(),
  y: z.number(),
  realm: z.string().optional(),
  factions: z.array(z.string()).optional(),
  hiddenInfo: z.string().optional(),
  embeddingId: z.string().optional(),
  known: z.boolean().optional(),
  npcLevelRange: LevelRange.optional(),
  imageUrl: z.string().optional(),
});
export type Region = z.infer<typeof Region>;

export const Area = z.object({ description: z.string(), paths: z.array(z.string()) });
export type Area = z.infer<typeof Area>;

export const Location = z.object({
  name: z.string(),
  basicInfo: z.string(),
  x: z.number(),
  y: z.number(),
  radius: z.number(),
  region: z.string(),
  complexityType: z.enum(["simple", "complex", "wilderness"]),
  detailType: z.enum(["basic", "detailed"]),
  areas: z.record(z.string(), Area).optional(),
  factions: z.array(z.string()).optional(),
  visualTags: z.array(z.string()).optional(),
  hiddenInfo: z.string().optional(),
  embeddingId: z.string().optional(),
  known: z.boolean().optional(),
  npcLevelRange: LevelRange.optional(),
  imageUrl: z.string().optional(),
});
export type Location = z.infer<typeof Location>;

export const Faction = z.object({
  name: z.string(),
  basicInfo: z.string(),
  factionType: z.enum(["minor", "major"]),
  hiddenInfo: z.string().optional(),
  embeddingId: z.string().optional(),
  known: z.boolean().optional(),
});
export type Faction = z.infer<typeof Faction>;
