import { testRule } from "../../../../test/helpers/world.ts";
import { STRAY_GOAT } from "../../rules/examples.ts";
import rule from "./quest-never-available.ts";

const INIT_GOAT = { type: "quest-init", operator: "set", value: "Stray Goat" };
const trigger = (name: string, conditions: unknown[], effects: unknown[], script?: string) => ({
  name,
  conditions,
  effects,
  ...(script === undefined ? {} : { script }),
});
/** The goat quest, started by `start_goat` under the given conditions, plus more triggers. */
const goatWhen = (
  conditions: unknown[],
  more: Record<string, unknown> = {},
  patch: Record<string, unknown> = {},
) => ({
  ...patch,
  quests: { "Stray Goat": STRAY_GOAT },
  triggers: { start_goat: trigger("start_goat", conditions, [INIT_GOAT]), ...more },
});
const goatWarning = { path: ["quests", "Stray Goat"], messageId: "unreachable" };

testRule(rule, {
  valid: [
    { name: "the base world's quest is started at tick 1", patch: {} },
    {
      name: "gated on another quest being accepted, which can happen",
      patch: goatWhen([
        { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "accepted" },
      ]),
    },
    {
      name: "a chain: one trigger writes the key the starting trigger reads",
      patch: goatWhen([{ type: "read-number", key: "visits", operator: "greaterThanOrEqual", value: 3 }], {
        count: trigger(
          "count",
          [{ type: "party-location", operator: "equals", value: "Fen Hut" }],
          [{ type: "write-number", key: "visits", operator: "add", value: 1 }],
        ),
      }),
    },
    {
      name: "the key is written by a script",
      patch: goatWhen([{ type: "read-boolean", key: "heard", operator: "equals", value: true }], {
        listen: trigger("listen", [], [], "storage.heard = true;"),
      }),
    },
    {
      name: "a script writes keys built at run time: any key may be written",
      patch: goatWhen([{ type: "read-string", key: "mood", operator: "equals", value: "calm" }], {
        listen: trigger("listen", [], [], 'const k = "mo" + "od"; storage[k] = "calm";'),
      }),
    },
    {
      name: "a script that cannot be followed may do anything",
      patch: goatWhen(
        [{ type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "completed" }],
        {
          wild: trigger("wild", [], [], "const e = JSON.parse(storage.next); effects.push(e);"),
        },
      ),
    },
    {
      name: "the quest is completed by a trigger that can fire, so the gate can open",
      patch: goatWhen([{ type: "quests-completed", operator: "contains", value: "Lost Sheep" }], {
        finish: trigger(
          "finish",
          [{ type: "party-location", operator: "equals", value: "Fen Hut" }],
          [{ type: "quest-complete", questId: "Lost Sheep" }],
        ),
      }),
    },
    {
      name: "startingQuests makes it available, whatever its trigger",
      patch: goatWhen(
        [{ type: "game-tick", operator: "lessThan", value: 0 }],
        {},
        {
          storyStarts: { Morning: { startingQuests: ["Stray Goat"] } },
        },
      ),
    },
    {
      name: "a quest with no quest-init at all is quest/no-init-trigger's",
      patch: { quests: { "Stray Goat": STRAY_GOAT } },
    },
    {
      name: "started from a narrative event's completion, and the event is started",
      patch: {
        quests: { "Stray Goat": STRAY_GOAT },
        narrativeEvents: { Storm: { title: "Storm", beats: "Rain.", onCompleteEffects: [INIT_GOAT] } },
        triggers: {
          storm: trigger("storm", [], [{ type: "narrative-event-start", eventId: "Storm" }]),
        },
      },
    },
    {
      name: "pushed by a script of a trigger that can fire",
      patch: {
        quests: { "Stray Goat": STRAY_GOAT },
        triggers: {
          goat_script: trigger("goat_script", [], [], `effects.push(${JSON.stringify(INIT_GOAT)});`),
        },
      },
    },
    {
      name: "in a trigger that a script adds",
      patch: {
        quests: { "Stray Goat": STRAY_GOAT },
        triggers: {
          adder: trigger(
            "adder",
            [],
            [],
            `triggers.later = { name: "later", conditions: [], effects: [${JSON.stringify(INIT_GOAT)}] };`,
          ),
        },
      },
    },
    {
      name: "the objective trigger of a quest that can be accepted",
      patch: {
        quests: { "Stray Goat": STRAY_GOAT },
        triggers: { "Lost Sheep_objective": trigger("Lost Sheep_objective", [], [INIT_GOAT]) },
      },
    },
  ],
  invalid: [
    {
      name: "gated on a quest that is never completed",
      patch: goatWhen([
        { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "completed" },
      ]),
      errors: [
        {
          ...goatWarning,
          data: {
            quest: '"Stray Goat"',
            first:
              'trigger "start_goat" can never fire: its condition quest-status "Lost Sheep" equals "completed" never holds',
          },
        },
      ],
    },
    {
      name: "gated on a value no write stores",
      patch: goatWhen([{ type: "read-string", key: "mood", operator: "equals", value: "calm" }], {
        sulk: trigger("sulk", [], [{ type: "write-string", key: "mood", operator: "set", value: "grim" }]),
      }),
      errors: [goatWarning],
    },
    {
      name: "its starting trigger's conditions contradict each other",
      patch: goatWhen([
        { type: "game-tick", operator: "equals", value: 3 },
        { type: "game-tick", operator: "greaterThan", value: 5 },
      ]),
      errors: [
        {
          ...goatWarning,
          data: {
            quest: '"Stray Goat"',
            first:
              'trigger "start_goat" can never fire: its condition game-tick greaterThan 5 cannot hold together with game-tick equals 3',
          },
        },
      ],
    },
    {
      name: "a circle: it starts only once it is accepted",
      patch: goatWhen([
        { type: "quest-status", questId: "Stray Goat", operator: "equals", value: "accepted" },
      ]),
      errors: [goatWarning],
    },
    {
      name: "only in the objective trigger of a quest that is never available",
      patch: {
        quests: { "Stray Goat": STRAY_GOAT, "Lost Kid": { ...STRAY_GOAT, name: "Lost Kid" } },
        triggers: {
          "Lost Kid_objective": trigger("Lost Kid_objective", [], [INIT_GOAT]),
          start_kid: trigger(
            "start_kid",
            [{ type: "game-tick", operator: "lessThan", value: 0 }],
            [{ type: "quest-init", operator: "set", value: "Lost Kid" }],
          ),
        },
      },
      errors: [goatWarning, { path: ["quests", "Lost Kid"], messageId: "unreachable" }],
    },
    {
      name: "only in the completion of a narrative event nothing starts",
      patch: {
        quests: { "Stray Goat": STRAY_GOAT },
        narrativeEvents: { Storm: { title: "Storm", beats: "Rain.", onCompleteEffects: [INIT_GOAT] } },
      },
      errors: [
        {
          ...goatWarning,
          data: { quest: '"Stray Goat"', first: 'narrative event "Storm" is never started' },
        },
      ],
    },
    {
      name: "pushed by the script of a trigger that can never fire",
      patch: {
        quests: { "Stray Goat": STRAY_GOAT },
        triggers: {
          goat_script: trigger(
            "goat_script",
            [{ type: "party-location", operator: "contains", value: "castle" }],
            [],
            `effects.push(${JSON.stringify(INIT_GOAT)});`,
          ),
        },
      },
      errors: [goatWarning],
    },
  ],
});
