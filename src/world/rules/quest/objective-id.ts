import { defineRule } from "../../rule.ts";

export default defineRule({
  code: "quest/objective-id",
  severity: "error",
  description: "A quest objective's `id` differs from its key in `objectives`.",
  why: "`objectives` maps an objective id to an objective whose `id` equals that key (docs/engine.md). A differing `id` is usually a rename done in one place only: effects reach the objective by its key (`objectiveId`), so anything written against the inner `id` misses it.",
  messages: {
    mismatch:
      "Objective key {key} of quest {quest} differs from its id {id}. Make them identical: rename the key or the id (effects find objectives by key, through objectiveId).",
  },
  examples: {
    bad: {
      quests: {
        "Lost Sheep": { objectives: { pen: { id: "fence", text: "Mend the pen.", status: "hidden" } } },
      },
    },
    good: {
      quests: {
        "Lost Sheep": { objectives: { pen: { id: "pen", text: "Mend the pen.", status: "hidden" } } },
      },
    },
  },
  check({ world, report }) {
    for (const [key, quest] of Object.entries(world.quests)) {
      for (const [objective, body] of Object.entries(quest.objectives ?? {})) {
        if (body.id === objective) continue;
        report({
          path: ["quests", key, "objectives", objective, "id"],
          messageId: "mismatch",
          data: { key: JSON.stringify(objective), quest: JSON.stringify(key), id: JSON.stringify(body.id) },
          related: [{ path: ["quests", key, "objectives", objective], message: "the key is here" }],
        });
      }
    }
  },
});
