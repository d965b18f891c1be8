import { defineRule } from "../../rule.ts";
import { STRAY_GOAT } from "../../rules/examples.ts";
import { analyse, effectSites, neverApplies } from "../analysis.ts";

export default defineRule({
  code: "lint/quest-never-available",
  severity: "warning",
  description: "A quest has `quest-init` effects, but none of them can ever apply: the quest stays hidden.",
  why: "Every quest starts hidden and only a `quest-init` (or a story start's `startingQuests`) makes it available (docs/engine.md). Here every trigger that fires the quest's `quest-init` can never fire (its conditions can never hold, or they contradict each other), or the init is in a narrative event that is never started, so the whole quest is dead content. The analysis follows what can happen from a new game to a fixpoint (a trigger that can fire adds what its effects and script can do) and reports only what can never happen; a script it cannot follow counts as able to do anything. A quest with no `quest-init` at all is `quest/no-init-trigger`, reported by `taleforge check`.",
  messages: {
    unreachable:
      "Quest {quest} can never become available: no quest-init that names it can ever apply ({first}). Fix the conditions of the trigger that should start it, or start it from a trigger that can fire.",
  },
  examples: {
    bad: {
      quests: { "Stray Goat": STRAY_GOAT },
      triggers: {
        start_goat: {
          name: "start_goat",
          conditions: [
            { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "completed" },
          ],
          effects: [{ type: "quest-init", operator: "set", value: "Stray Goat" }],
        },
      },
    },
    good: {
      quests: { "Stray Goat": STRAY_GOAT },
      triggers: {
        start_goat: {
          name: "start_goat",
          conditions: [
            { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "accepted" },
          ],
          effects: [{ type: "quest-init", operator: "set", value: "Stray Goat" }],
        },
      },
    },
  },
  check({ raw, report }) {
    const analysis = analyse(raw);
    if (analysis.facts.availableAll) return;
    const inits = effectSites(analysis, "quest-init");
    for (const quest of analysis.model.quests) {
      if (analysis.evaluator.availablePossible(quest)) continue;
      const never = neverApplies(analysis, inits, "value", quest, (site) =>
        site.index === undefined ? `the quest-init of ${site.where}` : "this quest-init",
      );
      if (!never) continue;
      report({
        path: ["quests", quest],
        atKey: true,
        messageId: "unreachable",
        data: { quest: JSON.stringify(quest), first: never.first },
        related: never.related,
      });
    }
  },
});
