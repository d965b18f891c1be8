import { z } from "zod";

export const StartingItem = z.object({ item: z.string(), quantity: z.number() });
export type StartingItem = z.infer<typeof StartingItem>;

/** Spec 2.3. `quirk` (older exports) is read as `traitNarrativeEffects` at load. */
export const Trait = z.object({
  name: z.string(),
  description: z.string(),
  traitNarrativeEffects: z.string(),
  skills: z.array(z.object({ skill: z.string(), modifier: z.number() })),
  attributes: z.array(z.object({ attribute: z.string(), modifier: z.number() })),
  resources: z.array(z.object({ resource: z.string(), modifier: z.number() })),
  startingItems: z.array(StartingItem),
  abilities: z.array(z.string()),
  unlockedBy: z.array(z.string()),
  excludedBy: z.array(z.string()),
  vulnerabilities: z.array(z.string()).optional(),
  resistances: z.array(z.string()).optional(),
  immunities: z.array(z.string()).optional(),
  category: z.string().optional(),
  /** The older name of `traitNarrativeEffects`, used by real V33 exports. */
  quirk: z.string().optional(),
});
export type Trait = z.infer<typeof Trait>;

export const TraitCategory = z.object({
  name: z.string(),
  maxSelections: z.number(),
  traits: z.array(z.string()),
});
export type TraitCategory = z.infer<typeof TraitCategory>;
