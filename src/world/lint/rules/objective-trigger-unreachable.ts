import { defineRule } from "../../rule.ts";
import { STRAY_GOAT } from "../../rules/examples.ts";
import { analyse } from "../analysis.ts";

export default defineRule({
  code: "lint/objective-trigger-unreachable",
  severity: "warning",
  description:
    "A trigger named `{questId}_objective` (or `{questId}_objective_N`) belongs to a quest that can never be accepted.",
  why: "Triggers named after a quest's objective stay out of the pool until that quest is `accepted` (docs/format.md, triggers, Naming). A quest is accepted only after it became available, so when nothing that can fire makes the quest available (no `quest-init` that can apply, and it is not in a story start's `startingQuests`) the trigger never runs, whatever its conditions. Either the quest is broken (see `lint/quest-never-available` or `quest/no-init-trigger`) or the trigger's name makes it wait for a quest by accident.",
  messages: {
    neverAccepted:
      "Trigger {trigger} is an objective trigger of quest {quest} (by its name), so it runs only while that quest is accepted, and {quest} can never be accepted: nothing that can fire makes it available. Make the quest reachable, or rename the trigger if it should not wait for the quest.",
  },
  examples: {
    bad: {
      quests: {
        "Stray Goat": STRAY_GOAT,
      },
      triggers: {
        "Stray Goat_objective": {
          name: "Stray Goat_objective",
          conditions: [{ type: "party-area", operator: "equals", value: "Loft" }],
          effects: [{ type: "quest-complete", questId: "Stray Goat" }],
        },
      },
    },
    good: {
      triggers: {
        "Lost Sheep_objective": {
          name: "Lost Sheep_objective",
          conditions: [{ type: "party-location", operator: "equals", value: "Fen Hut" }],
          effects: [{ type: "quest-complete", questId: "Lost Sheep" }],
        },
      },
    },
  },
  check({ raw, report }) {
    const analysis = analyse(raw);
    for (const [actor, verdict] of analysis.verdicts) {
      if (!verdict.gateClosed || actor.objectiveOf === undefined) continue;
      report({
        path: actor.path,
        atKey: true,
        messageId: "neverAccepted",
        data: { trigger: JSON.stringify(actor.key), quest: JSON.stringify(actor.objectiveOf) },
        related: [{ path: ["quests", actor.objectiveOf], message: "the quest is here" }],
      });
    }
  },
});
