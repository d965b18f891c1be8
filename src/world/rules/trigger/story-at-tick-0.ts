import { conditionPlan } from "../../check-plans.ts";
import { objectiveQuestOf } from "../../objectives.ts";
import { matchPattern } from "../../pattern.ts";
import { defineRule } from "../../rule.ts";
import { isConditionType } from "../../schema/condition-table.ts";
import type { World } from "../../schema/world.ts";
import { accepts } from "../../shape-plan.ts";
import { keysOf } from "../names.ts";

/** What the state holds when tick-0 triggers are evaluated (resolutions: Ticks, Quests, Story starts). */
interface TickZero {
  /** Quests that start `available` (named in some story start's startingQuests); all others are `hidden`. */
  availableQuests: Set<string>;
  /** Where the party can stand; undefined when unknown (no story start). */
  locations: Set<string> | undefined;
  questKeys: ReadonlySet<string>;
}

export default defineRule({
  code: "trigger/story-at-tick-0",
  severity: "warning",
  description: "A trigger with a `story` effect has no condition that rules out tick 0.",
  why: "Creating a game is tick 0: the opening is written from the story start first, then the tick-0 triggers run (docs/engine.md). A `story` effect that fires then does not reach the opening (docs/engine.md), so the author's instruction lands a turn late. These rule out tick 0: a `game-tick` comparison that 0 fails (`greaterThan 0`, `greaterThanOrEqual 1`, `equals 3`); an `action` or `action-text` condition (planning-phase triggers, and tick 0 has no player action); a `quest-status` needing a status other than `hidden` (or `available` for a quest named in a story start's startingQuests); `quests-completed contains`; a `narrative-event-status` other than `inactive`; a `read-*` condition that fails on the empty storage's fallback value (0, \"\", false, []); `party-location equals` a location no story start can open at; and a trigger named `{questId}_objective(_N)`, which waits for its quest to be accepted. Only typed `story` effects are checked, and gating done inside a script is not seen. A trigger with a malformed condition is left to the condition rules. A recurring trigger is not reported: a recurring trigger may fire again at tick 1, and that narration tells its story.",
  messages: {
    tickZero:
      'Trigger {trigger} has a story effect but no condition that rules out tick 0, so it can fire when the game is created, after the opening is written: a story effect at tick 0 does not reach the opening. Gate it on game-tick greaterThan 0 (add {"type": "game-tick", "operator": "greaterThan", "value": 0}); to shape the opening itself, write it into the story start\'s storyStart text.',
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: {
          conditions: [],
          effects: [{ type: "story", instruction: "Sheep bleat in the distance." }],
        },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          conditions: [{ type: "game-tick", operator: "greaterThan", value: 0 }],
          effects: [{ type: "story", instruction: "Sheep bleat in the distance." }],
        },
      },
    },
  },
  check({ world, raw, report }) {
    let facts: TickZero | undefined;
    for (const [key, trigger] of Object.entries(world.triggers)) {
      const story = storyEffect(trigger.effects);
      // A recurring trigger fires again at tick 1 (spec), and its story reaches that narration (issue 35).
      if (story < 0 || trigger.recurring === true) continue;
      const conditions = trigger.conditions as unknown as Record<string, unknown>[];
      facts ??= tickZeroFacts(world, raw);
      // Most triggers have a condition that tick 0 fails: that cheap test first, and the shape
      // plans of the well-formed test (which a malformed condition's reading does not need) after.
      if (!allCanHoldAtTickZero(conditions, facts)) continue;
      if (!conditions.every(isWellFormed)) continue;
      if (objectiveQuestOf(key, facts.questKeys) !== undefined) continue;
      report({
        path: ["triggers", key, "effects", story],
        messageId: "tickZero",
        data: { trigger: JSON.stringify(key) },
      });
    }
  },
});

/*
 * Loops rather than findIndex and some with arrow functions made per trigger: such a closure loses
 * its optimised code to the next full collection, so checking world after world compiled it again.
 */

/** The index of the first `story` effect, or -1. */
function storyEffect(effects: readonly { type: string }[]): number {
  for (let i = 0; i < effects.length; i++) if (effects[i]!.type === "story") return i;
  return -1;
}

function allCanHoldAtTickZero(conditions: readonly Record<string, unknown>[], facts: TickZero): boolean {
  for (let i = 0; i < conditions.length; i++) if (!canHoldAtTickZero(conditions[i]!, facts)) return false;
  return true;
}

function isWellFormed(condition: Record<string, unknown>): boolean {
  return isConditionType(condition.type) && accepts(conditionPlan(condition.type), condition);
}

function tickZeroFacts(world: World, raw: Readonly<Record<string, unknown>>): TickZero {
  const availableQuests = new Set<string>();
  for (const start of Object.values(world.storyStarts)) {
    for (const quest of start.startingQuests ?? []) availableQuests.add(quest);
  }
  return {
    availableQuests,
    locations: openingLocations(world, raw),
    questKeys: keysOf(raw, "quests") ?? new Set(),
  };
}

/** Every location a story start can open at; undefined when that is unknown. */
function openingLocations(world: World, raw: Readonly<Record<string, unknown>>): Set<string> | undefined {
  const starts = Object.values(world.storyStarts);
  if (starts.length === 0) return undefined;
  const all = keysOf(raw, "locations");
  const out = new Set<string>();
  for (const start of starts) {
    // An empty list means any location (resolutions, Story starts).
    const options = start.locations.length > 0 ? start.locations : all;
    if (!options) return undefined;
    for (const location of options) out.add(location);
  }
  return out;
}

/** False only when the condition certainly fails in the state that tick-0 triggers are evaluated against. */
function canHoldAtTickZero(condition: Record<string, unknown>, facts: TickZero): boolean {
  const { type, operator, value } = condition;
  switch (type) {
    case "action":
    case "action-text":
      return false;
    case "game-tick":
    case "read-number":
      return compareNumber(0, operator, value);
    case "read-string":
      return compareText("", operator, value);
    case "read-boolean":
      return operator === "equals" ? value === false : value !== false;
    case "read-array":
      return operator === "notContains";
    case "quests-completed":
      return operator === "notContains";
    case "quest-status": {
      const questId = condition.questId as string;
      const statuses = facts.availableQuests.has(questId) ? ["hidden", "available"] : ["hidden"];
      return statuses.some((status) => (operator === "equals" ? status === value : status !== value));
    }
    case "narrative-event-status":
      return operator === "equals" ? value === "inactive" : value !== "inactive";
    case "party-location":
      if (!facts.locations) return true;
      if (operator === "equals") return facts.locations.has(value as string);
      if (operator === "notEquals") return facts.locations.size > 1 || !facts.locations.has(value as string);
      return true;
    default:
      return true;
  }
}

function compareNumber(actual: number, operator: unknown, value: unknown): boolean {
  const n = value as number;
  switch (operator) {
    case "equals":
      return actual === n;
    case "notEquals":
      return actual !== n;
    case "greaterThan":
      return actual > n;
    case "lessThan":
      return actual < n;
    case "greaterThanOrEqual":
      return actual >= n;
    case "lessThanOrEqual":
      return actual <= n;
    default:
      return true;
  }
}

function compareText(actual: string, operator: unknown, value: unknown): boolean {
  const text = value as string;
  switch (operator) {
    case "equals":
      return actual === text;
    case "notEquals":
      return actual !== text;
    case "contains":
      return actual.includes(text);
    case "notContains":
      return !actual.includes(text);
    case "regex":
      // A bad pattern is another rule's problem (condition/regex-pattern); assume the condition may hold.
      // A value that is no pattern (a malformed condition, skipped by the caller) is not compiled.
      return typeof text !== "string" || (matchPattern(text, actual) ?? true);
    default:
      return true;
  }
}
