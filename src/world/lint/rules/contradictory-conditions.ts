import { defineRule } from "../../rule.ts";
import { analyse, describeCondition } from "../analysis.ts";

export default defineRule({
  code: "lint/contradictory-conditions",
  severity: "error",
  description:
    "Two or more conditions of one trigger cannot hold at the same time, so the trigger never fires.",
  why: "A trigger's conditions are all evaluated against the same state (docs/engine.md), so conditions on the same thing must agree: `game-tick equals 3` with `game-tick greaterThan 5`, two `equals` with different values, `equals` and `notEquals` of one value, bounds that leave no number (the tick counts whole turns from 0), `contains` and `notContains` of the same text. Also checked: a `party-area` that is not an area of any location the `party-location` conditions allow (the party's area always belongs to its location), and, on an objective trigger (`{questId}_objective`, which runs only while its quest is `accepted`), a `quest-status` of that quest other than `accepted`. `player-level` and `player-resource` are left out on purpose: they hold when ANY party member matches (docs/format.md, triggers), so `lessThan 3` and `greaterThan 5` can both hold in a party of two. It is an error because such a trigger is certainly dead.",
  messages: {
    clash:
      "This condition ({condition}) cannot hold together with {others} in trigger {trigger}: they test the same value and no value meets them all, so the trigger never fires. Remove one, or fix its value or operator.",
    area: "This condition ({condition}) cannot hold together with {others} in trigger {trigger}: the party's area is always one of its location's areas, and no location allowed here has an area allowed here. Fix the location or the area name.",
    objectiveGate:
      'This condition ({condition}) cannot hold in trigger {trigger}: its name makes it an objective trigger of quest {quest}, which runs only while that quest is "accepted". Remove the condition, or rename the trigger if it should not wait for the quest.',
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: {
          conditions: [
            { type: "game-tick", operator: "equals", value: 3 },
            { type: "game-tick", operator: "greaterThan", value: 5 },
          ],
        },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          conditions: [
            { type: "game-tick", operator: "greaterThan", value: 5 },
            { type: "game-tick", operator: "lessThan", value: 9 },
          ],
        },
      },
    },
  },
  check({ raw, report }) {
    const analysis = analyse(raw);
    for (const [actor, verdict] of analysis.verdicts) {
      for (const clash of verdict.contradictions) {
        const trigger = JSON.stringify(actor.key);
        const condition = describeCondition(clash.condition);
        const gate = clash.with.find((other) => other.index < 0);
        if (gate) {
          report({
            path: clash.condition.path,
            messageId: "objectiveGate",
            data: { condition, trigger, quest: JSON.stringify(gate.ref) },
            related: [{ path: actor.path, message: "the trigger's name makes it wait for its quest" }],
          });
          continue;
        }
        report({
          path: clash.condition.path,
          messageId: clash.kind === "area" ? "area" : "clash",
          data: { condition, trigger, others: clash.with.map(describeCondition).join(" and ") },
          related: clash.with.map((other) => ({
            path: other.path,
            message: "it clashes with this condition",
          })),
        });
      }
    }
  },
});
