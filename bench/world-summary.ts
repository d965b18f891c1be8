import { isSemanticTrigger } from "../src/world/rules/limit/trigger-count.ts";

/** What a generated world holds, measured from the world itself rather than from the generator's plan. */
export interface WorldSummary {
  chars: number;
  mechanical: number;
  semantic: number;
  maxConditions: number;
  maxEffects: number;
  scripts: number;
  questsWithInit: number;
  quests: number;
  regions: number;
  regionsChars: number;
  locations: number;
  areas: number;
  npcs: number;
  traits: number;
  traitCategories: number;
}

type Records = Record<string, Record<string, unknown>>;

export function summarise(world: Record<string, unknown>, text: string): WorldSummary {
  const triggers = Object.values(world.triggers as Records);
  const conditions = triggers.map((t) => (t.conditions as unknown[]).length);
  const effects = triggers.map((t) => t.effects as { type: string; value?: unknown }[]);
  const initialised = new Set(
    effects
      .flat()
      .filter((e) => e.type === "quest-init")
      .map((e) => e.value),
  );
  const quests = Object.keys(world.quests as Records);
  const locations = Object.values(world.locations as Records);
  return {
    chars: text.length,
    mechanical: triggers.filter((t) => !isSemanticTrigger(t)).length,
    semantic: triggers.filter((t) => isSemanticTrigger(t)).length,
    maxConditions: Math.max(...conditions),
    maxEffects: Math.max(...effects.map((e) => e.length)),
    scripts: triggers.filter((t) => typeof t.script === "string").length,
    questsWithInit: quests.filter((q) => initialised.has(q)).length,
    quests: quests.length,
    regions: Object.keys(world.regions as Records).length,
    regionsChars: JSON.stringify(world.regions, null, 2).length,
    locations: locations.length,
    areas: locations.reduce((n, l) => n + Object.keys((l.areas ?? {}) as object).length, 0),
    npcs: Object.keys(world.npcs as Records).length,
    traits: Object.keys(world.traits as Records).length,
    traitCategories: Object.keys(world.traitCategories as Records).length,
  };
}
