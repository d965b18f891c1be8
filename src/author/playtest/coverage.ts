import type { QuestStatus, SessionState, TurnResult, WorldIndex } from "../../engine/index.ts";
import { QUEST_STATUSES } from "../../world/schema/conditions.ts";

/** What the play-tests of one world reached, across all of them. */
export interface WorldCoverage {
  /** The world file as shown in reports. */
  world: string;
  triggers: TriggerCoverage[];
  effects: EffectCoverage[];
  quests: QuestCoverage[];
}

export interface TriggerCoverage {
  trigger: string;
  /** world: in the world's map; engine: a `{quest}_objective` trigger; script: added by a script during play. */
  origin: "world" | "engine" | "script";
  /** Turns in which it fired, over all play-tests. */
  fired: number;
}

export interface EffectCoverage {
  /** A trigger key, or `narrativeEvents/<key>` for an event's onCompleteEffects. */
  owner: string;
  index: number;
  type: string;
  /** Times it changed the state ("applied" in the trace). */
  applied: number;
}

export interface QuestCoverage {
  quest: string;
  /** The statuses the quest reached in some play-test, in lifecycle order ("hidden" is where every quest starts). */
  reached: QuestStatus[];
}

interface Tally {
  world: string;
  triggers: Map<string, TriggerCoverage>;
  effects: Map<string, EffectCoverage>;
  quests: Map<string, Set<QuestStatus>>;
}

/**
 * Collects coverage while play-tests run: every trigger that fired, every
 * typed effect (and narrative-event effect) that applied, every quest status
 * reached. Triggers a script adds join the list when they first appear.
 */
export class CoverageCollector {
  private readonly tallies = new Map<string, Tally>();

  /** Registers a world (once per world file). */
  addWorld(id: string, display: string, index: WorldIndex): void {
    if (this.tallies.has(id)) return;
    const tally: Tally = { world: display, triggers: new Map(), effects: new Map(), quests: new Map() };
    for (const [key, trigger] of Object.entries(index.baseTriggers)) {
      const origin =
        Object.hasOwn(index.madeTriggers, key) && !Object.hasOwn(index.world.triggers, key)
          ? "engine"
          : "world";
      tally.triggers.set(key, { trigger: key, origin, fired: 0 });
      addEffects(tally, key, trigger.effects);
    }
    for (const [key, event] of Object.entries(index.world.narrativeEvents ?? {}))
      addEffects(tally, `narrativeEvents/${key}`, event.onCompleteEffects ?? []);
    for (const quest of Object.keys(index.world.quests)) tally.quests.set(quest, new Set(["hidden"]));
    this.tallies.set(id, tally);
  }

  /** Records a turn (or the opening) and the state after it. */
  turn(id: string, result: TurnResult, state: SessionState): void {
    const tally = this.tallies.get(id);
    if (!tally) return;
    this.scriptTriggers(tally, state);
    for (const key of result.fired) {
      const entry = tally.triggers.get(key);
      if (entry) entry.fired++;
      else tally.triggers.set(key, { trigger: key, origin: "script", fired: 1 });
    }
    for (const phase of result.trace.phases)
      for (const t of phase.triggers)
        for (const e of t.effects) if (e.status === "applied") hit(tally, t.trigger, e.index);
    const event = result.trace.event;
    if (event)
      for (const e of event.effects)
        if (e.status === "applied") hit(tally, `narrativeEvents/${event.event}`, e.index);
    this.quests(id, state);
  }

  /** Records the quest statuses a state went through (its transitions). */
  quests(id: string, state: SessionState): void {
    const tally = this.tallies.get(id);
    if (!tally) return;
    for (const [quest, entry] of Object.entries(state.quests)) {
      const reached = tally.quests.get(quest);
      if (!reached) continue;
      reached.add(entry.status);
      for (const t of entry.transitions) reached.add(t.status);
    }
  }

  private scriptTriggers(tally: Tally, state: SessionState): void {
    for (const key of state.triggerEdits.added) {
      if (tally.triggers.has(key)) continue;
      tally.triggers.set(key, { trigger: key, origin: "script", fired: 0 });
      const added = state.triggerEdits.overrides[key] as { effects?: unknown } | undefined;
      if (Array.isArray(added?.effects)) addEffects(tally, key, added.effects);
    }
  }

  report(): WorldCoverage[] {
    return [...this.tallies.values()].map((t) => ({
      world: t.world,
      triggers: [...t.triggers.values()].map((x) => ({ ...x })),
      effects: [...t.effects.values()].map((x) => ({ ...x })),
      quests: [...t.quests.entries()].map(([quest, reached]) => ({
        quest,
        reached: QUEST_STATUSES.filter((s) => reached.has(s)),
      })),
    }));
  }
}

function addEffects(tally: Tally, owner: string, effects: readonly unknown[]): void {
  effects.forEach((effect, index) => {
    const type =
      typeof (effect as { type?: unknown })?.type === "string" ? (effect as { type: string }).type : "?";
    tally.effects.set(`${index}:${owner}`, { owner, index, type, applied: 0 });
  });
}

/** Effects a script pushed beyond the typed list have no entry: the typed list is what an author wrote. */
function hit(tally: Tally, owner: string, index: number): void {
  const entry = tally.effects.get(`${index}:${owner}`);
  if (entry) entry.applied++;
}
