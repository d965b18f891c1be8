import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./never-true-condition.ts";

/** A trigger `gated` on these conditions, plus more triggers. */
const startWhen = (
  conditions: unknown[],
  triggers: Record<string, unknown> = {},
  patch: Record<string, unknown> = {},
) => ({
  ...patch,
  triggers: { gated: { name: "gated", conditions, effects: [] }, ...triggers },
});
const writer = (name: string, effects: unknown[], conditions: unknown[] = []) => ({
  name,
  conditions,
  effects,
});
const at = (index: number) => ["triggers", "gated", "conditions", index, "value"];
const STORM = { Storm: { title: "Storm", beats: "Rain." } };

testRule(rule, {
  valid: [
    { name: "the base world", patch: {} },
    { name: "a tick that comes", patch: startWhen([{ type: "game-tick", operator: "equals", value: 4 }]) },
    {
      name: "contains ignores case",
      patch: startWhen([{ type: "party-location", operator: "contains", value: "mill" }]),
    },
    {
      name: "a regex some area meets",
      patch: startWhen([{ type: "party-area", operator: "regex", value: "^Lo" }]),
    },
    {
      name: "a regex that does not compile is left to the engine's notice",
      patch: startWhen([{ type: "party-area", operator: "regex", value: "(" }]),
    },
    {
      name: "notEquals of one name: other places remain",
      patch: startWhen([{ type: "party-realm", operator: "notEquals", value: "Vale" }]),
    },
    {
      name: "a quest that can be accepted",
      patch: startWhen([
        { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "rejected" },
      ]),
    },
    {
      name: "a quest completed by quest-progress once accepted",
      patch: startWhen([{ type: "quests-completed", operator: "contains", value: "Lost Sheep" }], {
        found: writer("found", [{ type: "quest-progress", questId: "Lost Sheep" }]),
      }),
    },
    {
      name: "an event that is started",
      patch: startWhen(
        [{ type: "narrative-event-status", eventId: "Storm", operator: "equals", value: "stopped" }],
        { storm: writer("storm", [{ type: "narrative-event-start", eventId: "Storm" }]) },
        { narrativeEvents: STORM },
      ),
    },
    {
      name: "a string value that is written",
      patch: startWhen([{ type: "read-string", key: "mood", operator: "equals", value: "calm" }], {
        calm: writer("calm", [{ type: "write-string", key: "mood", operator: "set", value: "calm" }]),
      }),
    },
    {
      name: "arithmetic reaches any number",
      patch: startWhen([{ type: "read-number", key: "n", operator: "equals", value: 7 }], {
        count: writer("count", [{ type: "write-number", key: "n", operator: "add", value: 2 }]),
      }),
    },
    {
      name: "a boolean toggled",
      patch: startWhen([{ type: "read-boolean", key: "b", operator: "equals", value: true }], {
        flip: writer("flip", [{ type: "write-boolean", key: "b", operator: "toggle" }]),
      }),
    },
    {
      name: "an element added",
      patch: startWhen([{ type: "read-array", key: "seen", operator: "contains", value: "fox" }], {
        see: writer("see", [{ type: "write-array", key: "seen", operator: "add", value: "fox" }]),
      }),
    },
    {
      name: "a script that writes the key may write anything",
      patch: startWhen([{ type: "read-string", key: "mood", operator: "equals", value: "calm" }], {
        calm: writer("calm", [{ type: "write-string", key: "mood", operator: "set", value: "grim" }]),
        script: { name: "script", conditions: [], effects: [], script: "storage.mood = pick();" },
      }),
    },
    {
      name: "a script effect with a computed value may write anything",
      patch: startWhen([{ type: "read-string", key: "mood", operator: "equals", value: "calm" }], {
        calm: writer("calm", [{ type: "write-string", key: "mood", operator: "set", value: "grim" }]),
        script: {
          name: "script",
          conditions: [],
          effects: [],
          script: 'effects.push({ type: "write-string", key: "mood", operator: "set", value: pick() });',
        },
      }),
    },
    {
      name: "an unknown quest, event or place is left to check's reference rules",
      patch: startWhen([
        { type: "quest-status", questId: "Nope", operator: "equals", value: "accepted" },
        { type: "narrative-event-status", eventId: "Nope", operator: "equals", value: "active" },
        { type: "party-location", operator: "equals", value: "Nowhere" },
        { type: "quests-completed", operator: "contains", value: "Nope" },
      ]),
    },
    {
      name: "a key never written at all is lint/storage-never-written's",
      patch: startWhen([{ type: "read-boolean", key: "never", operator: "equals", value: true }]),
    },
  ],
  invalid: [
    {
      name: "a negative tick",
      patch: startWhen([{ type: "game-tick", operator: "lessThan", value: 0 }]),
      errors: [{ path: at(0), messageId: "tick", data: { condition: "game-tick lessThan 0" } }],
    },
    {
      name: "a tick that is not a whole number",
      patch: startWhen([{ type: "game-tick", operator: "equals", value: 2.5 }]),
      errors: [{ path: at(0), messageId: "tick" }],
    },
    {
      name: "no location contains the text",
      patch: startWhen([{ type: "party-location", operator: "contains", value: "castle" }]),
      errors: [
        {
          path: at(0),
          messageId: "place",
          data: { condition: 'party-location contains "castle"', kind: "location" },
        },
      ],
    },
    {
      name: "no region matches the pattern",
      patch: startWhen([{ type: "party-region", operator: "regex", value: "^Z" }]),
      errors: [{ path: at(0), messageId: "place" }],
    },
    {
      name: "a quest that is never completed",
      patch: startWhen([
        { type: "game-tick", operator: "greaterThan", value: 0 },
        { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "completed" },
      ]),
      errors: [
        {
          path: at(1),
          messageId: "questStatus",
          data: {
            condition: 'quest-status "Lost Sheep" equals "completed"',
            quest: '"Lost Sheep"',
            statuses: '"hidden", "available", "accepted", "rejected", "expired", "abandoned"',
            hint: "Nothing that can fire completes it: add a quest-complete effect (or a quest-progress while it is accepted) to a trigger that can fire.",
          },
        },
      ],
    },
    {
      name: "a quest that never leaves hidden",
      patch: startWhen(
        [{ type: "quest-status", questId: "Lost Sheep", operator: "notEquals", value: "hidden" }],
        {
          start_sheep: { conditions: [{ type: "game-tick", operator: "lessThan", value: 0 }] },
        },
      ),
      errors: [
        { path: ["triggers", "start_sheep", "conditions", 0, "value"], messageId: "tick" },
        {
          path: at(0),
          messageId: "questStatus",
          data: {
            condition: 'quest-status "Lost Sheep" notEquals "hidden"',
            quest: '"Lost Sheep"',
            statuses: '"hidden"',
            hint: "Nothing that can fire makes it available: give it a quest-init in a trigger that can fire.",
          },
        },
      ],
    },
    {
      name: "quests-completed of a quest never completed",
      patch: startWhen([{ type: "quests-completed", operator: "contains", value: "Lost Sheep" }]),
      errors: [{ path: at(0), messageId: "questCompleted" }],
    },
    {
      name: "an event that is never started",
      patch: startWhen(
        [{ type: "narrative-event-status", eventId: "Storm", operator: "notEquals", value: "inactive" }],
        {},
        { narrativeEvents: STORM },
      ),
      errors: [
        {
          path: at(0),
          messageId: "eventStatus",
          data: { condition: 'narrative-event-status "Storm" notEquals "inactive"', event: '"Storm"' },
        },
      ],
    },
    {
      name: "a string never written with that value",
      patch: startWhen([{ type: "read-string", key: "mood", operator: "equals", value: "calm" }], {
        sulk: writer("sulk", [{ type: "write-string", key: "mood", operator: "set", value: "grim" }]),
      }),
      errors: [
        {
          path: at(0),
          messageId: "storageValue",
          data: {
            condition: 'read-string "mood" equals "calm"',
            kind: "a string",
            key: '"mood"',
            values: '"" (unwritten) or "grim"',
          },
        },
      ],
    },
    {
      name: "a boolean only ever set false",
      patch: startWhen([{ type: "read-boolean", key: "b", operator: "equals", value: true }], {
        off: writer("off", [{ type: "write-boolean", key: "b", operator: "set", value: false }]),
      }),
      errors: [{ path: at(0), messageId: "storageValue" }],
    },
    {
      name: "a number only ever set to other values",
      patch: startWhen([{ type: "read-number", key: "n", operator: "greaterThan", value: 3 }], {
        one: writer("one", [{ type: "write-number", key: "n", operator: "set", value: 1 }]),
      }),
      errors: [{ path: at(0), messageId: "storageValue" }],
    },
    {
      name: "an element never added",
      patch: startWhen([{ type: "read-array", key: "seen", operator: "contains", value: "fox" }], {
        see: writer("see", [{ type: "write-array", key: "seen", operator: "set", value: ["hare", "owl"] }]),
      }),
      errors: [{ path: at(0), messageId: "storageValue" }],
    },
    {
      name: "the only write is in a trigger that can never fire",
      patch: startWhen([{ type: "read-boolean", key: "b", operator: "equals", value: true }], {
        never: writer(
          "never",
          [{ type: "write-boolean", key: "b", operator: "set", value: true }],
          [{ type: "game-tick", operator: "lessThanOrEqual", value: -1 }],
        ),
      }),
      errors: [
        { path: at(0), messageId: "storageValue" },
        { path: ["triggers", "never", "conditions", 0, "value"], messageId: "tick" },
      ],
    },
  ],
});
