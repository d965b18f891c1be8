import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./judged-wording.ts";

const judged = (type: "story" | "action", query: string) => ({
  triggers: { start_sheep: { conditions: [{ type, query }] } },
});
const atQuery = ["triggers", "start_sheep", "conditions", 0, "query"];

testRule(rule, {
  valid: [
    {
      name: "one observable act, asked positively",
      patch: judged("action", "Does the player pay the toll?"),
    },
    {
      name: "a story fact in the world's names",
      patch: judged("story", "Corvin Slade threatens the player or their friends"),
    },
    {
      name: "an attempt is an act",
      patch: judged("action", "Does the player try to pick the lock of the tollhouse?"),
    },
    { name: "'plans' as a noun", patch: judged("action", "Does the player steal the miller's plans?") },
    {
      name: "a mechanical condition is not judged",
      patch: {
        triggers: {
          start_sheep: { conditions: [{ type: "action-text", operator: "contains", value: "not" }] },
        },
      },
    },
  ],
  invalid: [
    {
      name: "a negation",
      patch: judged("story", "The player has not paid the toll"),
      errors: [{ path: atQuery, messageId: "negation" }],
    },
    {
      name: "a contracted negation",
      patch: judged("action", "The player doesn't answer the miller"),
      errors: [{ path: atQuery, messageId: "negation" }],
    },
    {
      name: "two questions in one",
      patch: judged("action", "Does the player open the sluice? Does the wheel turn?"),
      errors: [{ path: atQuery, messageId: "several" }],
    },
    {
      name: "a very long question",
      patch: judged(
        "story",
        "Has the player by this point in the story gone down to the old mill by the river at the edge of the village and spoken at some length with the miller about the broken wheel and the missing key",
      ),
      errors: [{ path: atQuery, messageId: "long" }],
    },
    {
      name: "an intention instead of an act",
      patch: judged("story", "The player wants to leave the village"),
      errors: [{ path: atQuery, messageId: "intention" }],
    },
  ],
});
