import { z } from "zod";
import { StartingItem } from "./trait.ts";

export const Npc = z.object({
  name: z.string(),
  type: z.string(),
  currentLocation: z.string(),
  currentArea: z.string(),
  properName: z.string().optional(),
  gender: z.string().optional(),
  tier: z.enum(["trivial", "weak", "average", "strong", "elite", "boss", "mythic"]).optional(),
  faction: z.string().optional(),
  basicInfo: z.string().optional(),
  hiddenInfo: z.string().optional(),
  visualDescription: z.string().optional(),
  portraitUrl: z.string().optional(),
  personality: z.array(z.string()).optional(),
  abilities: z.array(z.string()).optional(),
  known: z.boolean().optional(),
  embeddingId: z.string().optional(),
  detailType: z.enum(["basic", "detailed"]).optional(),
  level: z.number().optional(),
  hpMax: z.number().optional(),
  hpCurrent: z.number().optional(),
  healthMultiplier: z.number().optional(),
});
export type Npc = z.infer<typeof Npc>;

export const NpcType = z.object({
  name: z.string(),
  description: z.string(),
  vulnerabilities: z.array(z.string()),
  resistances: z.array(z.string()),
  immunities: z.array(z.string()),
});
export type NpcType = z.infer<typeof NpcType>;

export const AbilityRequirement = z.discriminatedUnion("type", [
  z.object({
    type: z.enum(["resource", "attribute", "skill", "trait"]),
    variable: z.string(),
    amount: z.number(),
  }),
  z.object({ type: z.literal("characterLevel"), amount: z.number() }),
]);

export const Ability = z.object({
  name: z.string(),
  description: z.string(),
  requirements: z.array(AbilityRequirement),
  bonus: z.number(),
  cooldown: z.number(),
});
export type Ability = z.infer<typeof Ability>;

export const Item = z.object({
  name: z.string(),
  category: z.string(),
  description: z.string(),
  bonuses: z.array(
    z.object({
      type: z.enum(["resource", "stat", "attribute", "skill"]),
      variable: z.string(),
      value: z.number(),
    }),
  ),
  slot: z.string().optional(),
  mediaContent: z.string().optional(),
});
export type Item = z.infer<typeof Item>;

export const Skill = z.object({
  name: z.string(),
  attribute: z.string(),
  type: z.string(),
  description: z.string(),
  startingItems: z.array(StartingItem),
});
export type Skill = z.infer<typeof Skill>;

export const PremadeCharacter = z.object({
  name: z.string(),
  gender: z.string(),
  description: z.string(),
  attributes: z.record(z.string(), z.number()),
  traits: z.array(z.string()),
  backstory: z.string().optional(),
  portraitUrl: z.string().optional(),
  replacesNpc: z.string().optional(),
});
export type PremadeCharacter = z.infer<typeof PremadeCharacter>;
