import { analyse } from "../world/lint/analysis.ts";
import type { WorldDocument } from "./document.ts";
import { SECTION_KINDS } from "./names.ts";

/** What `taleforge.summary` answers: how many of each thing, the problems, and what lint finds can never happen. */
export interface WorldSummary {
  counts: Record<string, number>;
  errors: number;
  warnings: number;
  /** Quests no trigger, start or event can ever make available. */
  unreachableQuests: string[];
  /** Triggers that can never fire. */
  triggersNeverFiring: string[];
  /** The same, as text for an editor's message. */
  text: string;
}

export function summarise(world: WorldDocument): WorldSummary {
  const value = world.value ?? {};
  const counts: Record<string, number> = {};
  for (const section of Object.keys(SECTION_KINDS)) {
    const v = value[section];
    if (v && typeof v === "object" && !Array.isArray(v)) counts[section] = Object.keys(v).length;
  }
  const diagnostics = [...world.check(), ...world.lint()];
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  let unreachableQuests: string[] = [];
  let triggersNeverFiring: string[] = [];
  if (world.value && !world.loaded.fatal) {
    const analysis = analyse(world.value);
    unreachableQuests = analysis.facts.availableAll
      ? []
      : [...analysis.model.quests].filter((quest) => !analysis.evaluator.availablePossible(quest));
    triggersNeverFiring = analysis.model.actors
      .filter((a) => a.kind === "trigger" && !analysis.fires.has(a))
      .map((a) => a.key);
  }
  const parts = Object.entries(counts).map(([k, n]) => `${n} ${k}`);
  const text = [
    parts.join(", "),
    `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`,
    unreachableQuests.length
      ? `Quests never available: ${unreachableQuests.join(", ")}`
      : "Every quest can become available.",
    triggersNeverFiring.length
      ? `Triggers that never fire: ${triggersNeverFiring.join(", ")}`
      : "Every trigger can fire.",
  ].join("\n");
  return { counts, errors, warnings, unreachableQuests, triggersNeverFiring, text };
}
