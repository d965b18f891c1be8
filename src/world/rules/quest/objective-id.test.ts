import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./objective-id.ts";

const objectives = (entries: Record<string, string>) => ({
  quests: {
    "Lost Sheep": {
      objectives: Object.fromEntries(
        Object.entries(entries).map(([key, id]) => [key, { id, text: "Do it.", status: "hidden" }]),
      ),
    },
  },
});

testRule(rule, {
  valid: [{}, objectives({ pen: "pen", "find sheep": "find sheep" })],
  invalid: [
    {
      patch: objectives({ pen: "pen", gate: "Gate", fetch: "fetch " }),
      errors: [
        {
          path: ["quests", "Lost Sheep", "objectives", "gate", "id"],
          messageId: "mismatch",
          data: { key: '"gate"', quest: '"Lost Sheep"', id: '"Gate"' },
        },
        {
          path: ["quests", "Lost Sheep", "objectives", "fetch", "id"],
          messageId: "mismatch",
          data: { key: '"fetch"', quest: '"Lost Sheep"', id: '"fetch "' },
        },
      ],
    },
  ],
});
