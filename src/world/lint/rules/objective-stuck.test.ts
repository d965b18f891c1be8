import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./objective-stuck.ts";

const INIT = { type: "quest-init", operator: "set", value: "Lost Sheep" };
const move = (type: string, objectiveId = "pen") => ({ type, questId: "Lost Sheep", objectiveId });
const withObjective = (status: string, effects: unknown[], extra: Record<string, unknown> = {}) => ({
  quests: { "Lost Sheep": { objectives: { pen: { id: "pen", text: "Mend the pen.", status } } } },
  triggers: { start_sheep: { effects: [INIT, ...effects] } },
  ...extra,
});
const PEN = ["quests", "Lost Sheep", "objectives", "pen"];
const data = { quest: '"Lost Sheep"', objective: '"pen"' };

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    { name: "already completed", patch: withObjective("completed", []) },
    {
      name: "a hidden objective completed straight away",
      patch: withObjective("hidden", [move("quest-objective-complete")]),
    },
    {
      name: "completed by a script",
      patch: withObjective("active", [], {
        triggers: {
          start_sheep: {
            effects: [INIT],
            script: `effects.push(${JSON.stringify(move("quest-objective-complete"))});`,
          },
        },
      }),
    },
    {
      name: "completed by a narrative event's onCompleteEffects",
      patch: withObjective("active", [{ type: "narrative-event-start", eventId: "Storm" }], {
        narrativeEvents: {
          Storm: { title: "Storm", beats: "Rain.", onCompleteEffects: [move("quest-objective-complete")] },
        },
      }),
    },
    {
      name: "a script that cannot be followed may complete anything",
      patch: withObjective("hidden", [], {
        triggers: { start_sheep: { effects: [INIT], script: "effects.push(pick());" } },
      }),
    },
  ],
  invalid: [
    {
      name: "example: revealed, never completed",
      patch: rule.examples!.bad,
      errors: [{ path: PEN, messageId: "open", data: { ...data, status: "hidden or active" } }],
    },
    {
      name: "hidden, and nothing names it",
      patch: withObjective("hidden", [move("quest-objective-reveal", "gate")]),
      errors: [{ path: PEN, messageId: "hidden", data }],
    },
    {
      name: "active, and nothing completes it",
      patch: withObjective("active", [move("quest-objective-reveal")]),
      errors: [{ path: PEN, messageId: "open", data: { ...data, status: "active" } }],
    },
  ],
});
