import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-active-objective.ts";

const pen = { pen: { id: "pen", text: "Mend the pen.", status: "active" } };
const quest = (fields: Record<string, unknown>) => ({ quests: { "Lost Sheep": fields } });

testRule(rule, {
  valid: [{}, quest({ objectives: pen, activeObjectiveId: "pen" }), quest({ objectives: pen })],
  invalid: [
    {
      name: "a near key",
      patch: quest({ objectives: pen, activeObjectiveId: "Pen" }),
      errors: [
        {
          path: ["quests", "Lost Sheep", "activeObjectiveId"],
          messageId: "unknown",
          data: { quest: '"Lost Sheep"', id: '"Pen"', suggestion: ' Did you mean "pen"?' },
        },
      ],
    },
    {
      name: "no objectives at all",
      patch: quest({ activeObjectiveId: "pen" }),
      errors: [
        {
          path: ["quests", "Lost Sheep", "activeObjectiveId"],
          messageId: "noObjectives",
          data: { quest: '"Lost Sheep"', id: '"pen"' },
        },
      ],
    },
  ],
});
