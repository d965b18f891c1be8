import { defineRule } from "../../rule.ts";
import { didYouMean } from "../../suggest.ts";

export default defineRule({
  code: "quest/unknown-active-objective",
  severity: "error",
  description: "A quest's `activeObjectiveId` is not a key of its `objectives`.",
  why: "`activeObjectiveId` names the objective the journal shows as current (docs/engine.md). When it names no objective, the quest starts with no current objective and its next-step hint has nothing to follow.",
  messages: {
    unknown:
      "Quest {quest} has activeObjectiveId {id}, which is not a key of its objectives.{suggestion} Use one of its objective keys, or remove activeObjectiveId.",
    noObjectives:
      'Quest {quest} has activeObjectiveId {id} but no "objectives". Add an "objectives" map with this key ({ "id", "text", "status" }), or remove activeObjectiveId.',
  },
  examples: {
    bad: {
      quests: {
        "Lost Sheep": {
          objectives: { pen: { id: "pen", text: "Mend the pen.", status: "active" } },
          activeObjectiveId: "fence",
        },
      },
    },
    good: {
      quests: {
        "Lost Sheep": {
          objectives: { pen: { id: "pen", text: "Mend the pen.", status: "active" } },
          activeObjectiveId: "pen",
        },
      },
    },
  },
  check({ world, report }) {
    for (const [key, quest] of Object.entries(world.quests)) {
      const id = quest.activeObjectiveId;
      if (id === undefined) continue;
      const path = ["quests", key, "activeObjectiveId"];
      const data = { quest: JSON.stringify(key), id: JSON.stringify(id) };
      if (quest.objectives === undefined) {
        report({ path, messageId: "noObjectives", data });
      } else if (!Object.hasOwn(quest.objectives, id)) {
        const keys = Object.keys(quest.objectives);
        report({ path, messageId: "unknown", data: { ...data, suggestion: didYouMean(id, keys) } });
      }
    }
  },
});
