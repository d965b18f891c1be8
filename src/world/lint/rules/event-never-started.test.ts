import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./event-never-started.ts";

const START = { type: "narrative-event-start", eventId: "Storm" };
const storm = (extra: Record<string, unknown> = {}) => ({
  Storm: { title: "Storm", beats: "Rain.", ...extra },
});
const withStorm = (triggers: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  narrativeEvents: storm(extra),
  triggers,
});
const trigger = (name: string, conditions: unknown[], effects: unknown[], script?: string) => ({
  [name]: { name, conditions, effects, ...(script === undefined ? {} : { script }) },
});
const STORM_EVENT = ["narrativeEvents", "Storm"];

testRule(rule, {
  valid: [
    { name: "the base world has no events", patch: {} },
    { name: "started by a trigger", patch: withStorm(trigger("storm", [], [START])) },
    {
      name: "started by a script",
      patch: withStorm(trigger("storm", [], [], `effects.push(${JSON.stringify(START)});`)),
    },
    {
      name: "started by another event's completion, which is started",
      patch: {
        narrativeEvents: { ...storm(), Calm: { title: "Calm", beats: "Sun.", onCompleteEffects: [START] } },
        triggers: trigger("calm", [], [{ type: "narrative-event-start", eventId: "Calm" }]),
      },
    },
    {
      name: "a script that cannot be followed may start any event",
      patch: withStorm(trigger("wild", [], [], "effects.push(pick());")),
    },
  ],
  invalid: [
    {
      name: "nothing starts it",
      patch: { narrativeEvents: storm() },
      errors: [{ path: STORM_EVENT, messageId: "noStart", data: { event: '"Storm"' } }],
    },
    {
      name: "its only start is in a trigger that can never fire",
      patch: withStorm(trigger("storm", [{ type: "game-tick", operator: "lessThan", value: 0 }], [START])),
      errors: [
        {
          path: STORM_EVENT,
          messageId: "unreachable",
          data: {
            event: '"Storm"',
            first: 'trigger "storm" can never fire: its condition game-tick lessThan 0 never holds',
          },
        },
      ],
    },
    {
      name: "it only starts itself",
      patch: withStorm({}, { onCompleteEffects: [START] }),
      errors: [
        {
          path: STORM_EVENT,
          messageId: "unreachable",
          data: { event: '"Storm"', first: 'narrative event "Storm" is never started' },
        },
      ],
    },
  ],
});
