import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./unknown-name.ts";

const script = (text: string) => ({ triggers: { start_sheep: { script: text } } });

testRule(rule, {
  valid: [
    {},
    rule.examples!.good,
    {
      name: "known names of every kind",
      patch: script(
        'effects.push({ type: "party-location", operator: "set", value: "Fen Hut" }, { type: "party-area", operator: "set", value: "Porch" }, { type: "player-traits", operator: "add", value: ["Brave"] }, { type: "known-entity", entity: "Ada Reed", operator: "set", value: true });',
      ),
    },
    {
      name: "a name built at run time is not read",
      patch: script('effects.push({ type: "quest-init", operator: "set", value: "Lost " + "Sheep" });'),
    },
  ],
  invalid: [
    {
      name: "example: a quest-init for a quest the world does not define, with did-you-mean",
      patch: rule.examples!.bad,
      errors: [
        {
          path: ["triggers", "start_sheep", "script"],
          messageId: "unknown",
          data: {
            trigger: '"start_sheep"',
            type: "quest-init",
            line: 1,
            column: 14,
            kind: "quest",
            name: '"Lost sheep"',
            suggestion: ' Did you mean "Lost Sheep"?',
          },
        },
      ],
    },
    {
      name: "a quest that does not exist at all, on line 2",
      patch: script(
        'storage.n = 1;\neffects.push({ type: "quest-init", operator: "set", value: "Burn the Old Mill" });',
      ),
      errors: [{ path: ["triggers", "start_sheep", "script"], messageId: "unknown" }],
    },
    {
      name: "places, events, traits and entities",
      patch: script(
        'effects.push({ type: "party-location", operator: "set", value: "Old Mil" });\neffects.push({ type: "narrative-event-start", eventId: "Flood" });\neffects.push({ type: "player-traits", operator: "add", value: "Brav" });\neffects.push({ type: "known-entity", entity: "Ada", operator: "set", value: true });\neffects.push({ type: "party-area", operator: "set", value: "Attic" });',
      ),
      errors: [
        { path: ["triggers", "start_sheep", "script"], messageId: "unknown" },
        { path: ["triggers", "start_sheep", "script"], messageId: "unknown" },
        { path: ["triggers", "start_sheep", "script"], messageId: "unknown" },
        { path: ["triggers", "start_sheep", "script"], messageId: "unknown" },
        { path: ["triggers", "start_sheep", "script"], messageId: "unknown" },
      ],
    },
    {
      name: "the effects of a trigger the script adds",
      patch: script(
        'triggers.later = { conditions: [], effects: [{ type: "quest-complete", questId: "Dragon Hunt" }] };',
      ),
      errors: [{ path: ["triggers", "start_sheep", "script"], messageId: "unknown" }],
    },
  ],
});
