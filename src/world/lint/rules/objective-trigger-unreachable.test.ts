import { testRule } from "../../../../test/helpers/world.ts";
import { STRAY_GOAT } from "../../rules/examples.ts";
import rule from "./objective-trigger-unreachable.ts";

const COMPLETE_GOAT = { type: "quest-complete", questId: "Stray Goat" };
const trigger = (name: string, conditions: unknown[] = [], effects: unknown[] = [COMPLETE_GOAT]) => ({
  name,
  conditions,
  effects,
});
const withGoat = (triggers: Record<string, unknown>, patch: Record<string, unknown> = {}) => ({
  ...patch,
  quests: { "Stray Goat": STRAY_GOAT },
  triggers,
});

testRule(rule, {
  valid: [
    { name: "no objective triggers", patch: {} },
    {
      name: "the objective trigger of a quest that becomes available",
      patch: { triggers: { "Lost Sheep_objective": trigger("Lost Sheep_objective") } },
    },
    {
      name: "a numbered objective trigger of a quest that becomes available",
      patch: { triggers: { "Lost Sheep_objective_2": trigger("Lost Sheep_objective_2") } },
    },
    {
      name: "a name that looks like an objective trigger of no quest is not gated",
      patch: { triggers: { goat_objective: trigger("goat_objective") } },
    },
    {
      name: "a quest made available by a story start's startingQuests",
      patch: withGoat(
        { "Stray Goat_objective": trigger("Stray Goat_objective") },
        { storyStarts: { Morning: { startingQuests: ["Stray Goat"] } } },
      ),
    },
    {
      name: "a script that cannot be followed may make any quest available",
      patch: withGoat({
        "Stray Goat_objective": trigger("Stray Goat_objective"),
        wild: { name: "wild", conditions: [], effects: [], script: "effects.push(storage.next);" },
      }),
    },
  ],
  invalid: [
    {
      name: "a quest nothing makes available",
      patch: withGoat({ "Stray Goat_objective": trigger("Stray Goat_objective") }),
      errors: [
        {
          path: ["triggers", "Stray Goat_objective"],
          messageId: "neverAccepted",
          data: { trigger: '"Stray Goat_objective"', quest: '"Stray Goat"' },
        },
      ],
    },
    {
      name: "numbered, and the quest's only quest-init waits for the quest itself",
      patch: withGoat({
        "Stray Goat_objective_3": trigger(
          "Stray Goat_objective_3",
          [],
          [{ type: "quest-init", operator: "set", value: "Stray Goat" }],
        ),
      }),
      errors: [{ path: ["triggers", "Stray Goat_objective_3"], messageId: "neverAccepted" }],
    },
    {
      name: "the quest's starting trigger can never fire",
      patch: withGoat(
        {
          start_goat: trigger(
            "start_goat",
            [{ type: "narrative-event-status", eventId: "Storm", operator: "equals", value: "active" }],
            [{ type: "quest-init", operator: "set", value: "Stray Goat" }],
          ),
          "Stray Goat_objective": trigger("Stray Goat_objective"),
        },
        { narrativeEvents: { Storm: { title: "Storm", beats: "Rain." } } },
      ),
      errors: [{ path: ["triggers", "Stray Goat_objective"], messageId: "neverAccepted" }],
    },
  ],
});
