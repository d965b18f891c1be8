import { testRule } from "../../../../test/helpers/world.ts";
import { STRAY_GOAT } from "../examples.ts";
import rule from "./no-init-trigger.ts";

const withGoat = (patch: Record<string, unknown> = {}) => ({
  ...patch,
  quests: { "Stray Goat": STRAY_GOAT },
});
const script = (source: string) => ({
  triggers: { goat_script: { name: "goat_script", conditions: [], effects: [], script: source } },
});
const goatError = (messageId: string, data?: Record<string, string>) => ({
  path: ["quests", "Stray Goat"],
  messageId,
  ...(data ? { data } : {}),
});

testRule(rule, {
  valid: [
    { name: "the base world's quest has its trigger", patch: {} },
    {
      name: "a typed quest-init in a second trigger",
      patch: withGoat({
        triggers: {
          start_goat: {
            name: "start_goat",
            conditions: [],
            effects: [{ type: "quest-init", operator: "set", value: "Stray Goat" }],
          },
        },
      }),
    },
    {
      name: "a quest-init pushed by a script",
      patch: withGoat(
        script(
          'if (storage.heard) effects.push({type: "quest-init", operator: "set", value: "Stray Goat"});',
        ),
      ),
    },
    {
      name: "a quest-init in a narrative event's completion effects",
      patch: withGoat({
        narrativeEvents: {
          storm: {
            title: "Storm",
            beats: "A storm breaks.",
            onCompleteEffects: [{ type: "quest-init", operator: "set", value: "Stray Goat" }],
          },
        },
      }),
    },
    {
      name: "no quests",
      patch: { quests: { "Lost Sheep": undefined }, triggers: { start_sheep: undefined } },
    },
  ],
  invalid: [
    {
      name: "a quest nothing starts",
      patch: withGoat(),
      errors: [goatError("missing", { quest: '"Stray Goat"' })],
    },
    {
      name: "no triggers at all: every quest is reported",
      patch: { triggers: { start_sheep: undefined } },
      errors: [{ path: ["quests", "Lost Sheep"], messageId: "missing", data: { quest: '"Lost Sheep"' } }],
    },
    {
      name: "a quest-init naming the quest with the wrong case",
      patch: {
        triggers: {
          start_sheep: { effects: [{ type: "quest-init", operator: "set", value: "lost sheep" }] },
        },
      },
      errors: [
        {
          path: ["quests", "Lost Sheep"],
          messageId: "nearMiss",
          data: { quest: '"Lost Sheep"', where: 'trigger "start_sheep"', value: '"lost sheep"' },
        },
      ],
    },
    {
      name: "a script pushing the name with other case and spaces",
      patch: withGoat(script('effects.push({type: "quest-init", operator: "set", value: "stray goat "});')),
      errors: [
        goatError("nearMiss", {
          quest: '"Stray Goat"',
          where: 'the script of trigger "goat_script" (line 1)',
          value: '"stray goat "',
        }),
      ],
    },
    {
      name: "a script's quest-init without the set operator is dropped by the engine",
      patch: withGoat(script('effects.push({type: "quest-init", value: "Stray Goat"});')),
      errors: [
        goatError("dropped", {
          quest: '"Stray Goat"',
          where: 'the script of trigger "goat_script" (line 1)',
        }),
      ],
    },
    {
      name: "a quest-init naming the quest's shown name instead of its key",
      patch: {
        quests: { "goat-quest": { ...STRAY_GOAT } },
        triggers: {
          start_goat: {
            name: "start_goat",
            conditions: [],
            effects: [{ type: "quest-init", operator: "set", value: "Stray Goat" }],
          },
        },
      },
      errors: [
        {
          path: ["quests", "goat-quest"],
          messageId: "nearMiss",
          data: { quest: '"goat-quest"', where: 'trigger "start_goat"', value: '"Stray Goat"' },
        },
      ],
    },
    {
      name: "a typo further off is left to reference/unknown-quest's did-you-mean",
      patch: withGoat(script('effects.push({type: "quest-init", operator: "set", value: "Stray Goats"});')),
      errors: [goatError("missing")],
    },
    {
      name: "a name built at run time is not seen",
      patch: withGoat(
        script(
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is a script, not a template
          'const what = "Goat";\neffects.push({type: "quest-init", operator: "set", value: `Stray ${what}`});',
        ),
      ),
      errors: [goatError("missing")],
    },
    {
      name: "a script that does not parse never runs",
      patch: withGoat(script('effects.push({type: "quest-init", operator: "set", value: "Stray Goat"}')),
      errors: [goatError("missing")],
    },
    {
      name: "startingQuests alone is not enough",
      patch: withGoat({ storyStarts: { Morning: { startingQuests: ["Stray Goat"] } } }),
      errors: [goatError("startingOnly", { quest: '"Stray Goat"', start: '"Morning"' })],
    },
  ],
});
