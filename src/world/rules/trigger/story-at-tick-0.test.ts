import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./story-at-tick-0.ts";

const story = { type: "story", instruction: "Sheep bleat somewhere below the mill." };
const tick = (operator: string, value: unknown) => ({ type: "game-tick", operator, value });
const when = (...conditions: object[]) => ({ triggers: { start_sheep: { conditions, effects: [story] } } });
const named = (name: string, conditions: object[] = []) => ({
  triggers: { [name]: { name, conditions, effects: [story] } },
});
const at = (trigger = "start_sheep", index = 0) => ({
  path: ["triggers", trigger, "effects", index],
  messageId: "tickZero",
  data: { trigger: JSON.stringify(trigger) },
});

testRule(rule, {
  valid: [
    { name: "no story effect", patch: {} },
    {
      name: "a recurring trigger fires again at tick 1, where its story is told",
      patch: { triggers: { start_sheep: { recurring: true, conditions: [], effects: [story] } } },
    },
    { name: "game-tick greaterThan 0", patch: when(tick("greaterThan", 0)) },
    { name: "game-tick greaterThanOrEqual 1", patch: when(tick("greaterThanOrEqual", 1)) },
    { name: "game-tick equals 3", patch: when(tick("equals", 3)) },
    { name: "game-tick notEquals 0", patch: when(tick("notEquals", 0)) },
    {
      name: "any excluding condition among others",
      patch: when({ type: "story", query: "x" }, tick("greaterThan", 0)),
    },
    {
      name: "an action condition: planning phase",
      patch: when({ type: "action", query: "The player whistles." }),
    },
    {
      name: "an action-text condition: planning phase",
      patch: when({ type: "action-text", operator: "contains", value: "whistle" }),
    },
    {
      name: "quest-status accepted",
      patch: when({ type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "accepted" }),
    },
    {
      name: "quest-status available for a quest no story start lists",
      patch: when({ type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "available" }),
    },
    {
      name: "quest-status notEquals hidden for a quest no story start lists",
      patch: when({ type: "quest-status", questId: "Lost Sheep", operator: "notEquals", value: "hidden" }),
    },
    {
      name: "quests-completed contains",
      patch: when({ type: "quests-completed", operator: "contains", value: "Lost Sheep" }),
    },
    {
      name: "narrative event active",
      patch: when({ type: "narrative-event-status", eventId: "storm", operator: "equals", value: "active" }),
    },
    {
      name: "read-number above the 0 fallback",
      patch: when({ type: "read-number", key: "n", operator: "greaterThan", value: 0 }),
    },
    {
      name: "read-boolean true",
      patch: when({ type: "read-boolean", key: "b", operator: "equals", value: true }),
    },
    {
      name: "read-string equals a text",
      patch: when({ type: "read-string", key: "s", operator: "equals", value: "met" }),
    },
    {
      name: "read-string regex needing a letter",
      patch: when({ type: "read-string", key: "s", operator: "regex", value: "m" }),
    },
    {
      name: "read-array contains",
      patch: when({ type: "read-array", key: "a", operator: "contains", value: 1 }),
    },
    {
      name: "party-location no story start opens at",
      patch: when({ type: "party-location", operator: "equals", value: "Fen Hut" }),
    },
    {
      name: "party-location notEquals the only opening location",
      patch: when({ type: "party-location", operator: "notEquals", value: "Old Mill" }),
    },
    { name: "an objective trigger of a quest waits for acceptance", patch: named("Lost Sheep_objective_2") },
    {
      name: "a malformed condition is left to the condition rules",
      patch: when({ type: "game-tick", operator: "greaterThan", value: "0" }),
    },
    {
      name: "a malformed condition that could hold at tick 0 is left to the condition rules too",
      patch: when(
        { type: "read-string", key: "s", operator: "regex", value: 5 },
        { type: "quest-status", questId: 3, operator: "equals", value: { status: "hidden" } },
        { type: "party-location", operator: "equals", value: ["Old Mill"] },
      ),
    },
  ],
  invalid: [
    { name: "no conditions at all", patch: when(), errors: [at()] },
    {
      name: "reported at the first story effect",
      patch: {
        triggers: {
          start_sheep: {
            conditions: [],
            effects: [{ type: "quest-init", operator: "set", value: "Lost Sheep" }, story, story],
          },
        },
      },
      errors: [at("start_sheep", 1)],
    },
    { name: "game-tick greaterThanOrEqual 0", patch: when(tick("greaterThanOrEqual", 0)), errors: [at()] },
    { name: "game-tick lessThan 5", patch: when(tick("lessThan", 5)), errors: [at()] },
    { name: "game-tick equals 0", patch: when(tick("equals", 0)), errors: [at()] },
    {
      name: "an AI-judged story condition can hold on the opening",
      patch: when({ type: "story", query: "dawn" }),
      errors: [at()],
    },
    {
      name: "story-text can match the opening",
      patch: when({ type: "story-text", operator: "contains", value: "Dawn" }),
      errors: [at()],
    },
    {
      name: "quest-status available for a starting quest",
      patch: {
        ...when({ type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "available" }),
        storyStarts: { Morning: { startingQuests: ["Lost Sheep"] } },
      },
      errors: [at()],
    },
    {
      name: "quest-status hidden",
      patch: when({ type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "hidden" }),
      errors: [at()],
    },
    {
      name: "read-number equals the fallback 0",
      patch: when({ type: "read-number", key: "n", operator: "equals", value: 0 }),
      errors: [at()],
    },
    {
      name: "read-array notContains",
      patch: when({ type: "read-array", key: "a", operator: "notContains", value: 1 }),
      errors: [at()],
    },
    {
      name: "party-location of the opening",
      patch: when({ type: "party-location", operator: "equals", value: "Old Mill" }),
      errors: [at()],
    },
    {
      name: "party-location notEquals a place the party does not open at",
      patch: when({ type: "party-location", operator: "notEquals", value: "Fen Hut" }),
      errors: [at()],
    },
    {
      name: "party-location equals any location when a story start lists none",
      patch: {
        ...when({ type: "party-location", operator: "equals", value: "Fen Hut" }),
        storyStarts: { Morning: { locations: [] } },
      },
      errors: [at()],
    },
    {
      name: "an objective-like name of no quest does not wait",
      patch: named("Stray Goat_objective"),
      errors: [at("Stray Goat_objective")],
    },
  ],
});
