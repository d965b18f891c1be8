import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./story-deferred-scene.ts";

const atHut = { type: "party-location", operator: "equals", value: "Fen Hut" };
const inLoft = { type: "party-area", operator: "equals", value: "Loft" };
const tick = { type: "game-tick", operator: "greaterThan", value: 0 };
const story = (instruction: string) => ({ type: "story", instruction });
const trigger = (conditions: unknown[], instruction: string) => ({
  triggers: { start_sheep: { conditions, effects: [story(instruction)] } },
});
const at = { path: ["triggers", "start_sheep", "effects", 0], messageId: "scene" };

testRule(rule, {
  valid: [
    {
      name: "a trigger bound to no place",
      patch: trigger([tick], "Ada Reed waves from the porch of the Fen Hut."),
    },
    {
      name: "a guard the narrator can resolve",
      patch: trigger([atHut], "While the party is still at the Fen Hut, Ada Reed waves from the porch."),
    },
    {
      name: "what the party knows holds anywhere",
      patch: trigger([atHut], "The party now knows Ada Reed lost her flock at the Fen Hut."),
    },
    {
      name: "the NPC as a topic, not acting",
      patch: trigger([atHut], "The sheep were bought from Ada Reed last spring."),
    },
    { name: "naming neither the place nor anyone there", patch: trigger([inLoft], "Dust hangs in the air.") },
    {
      name: "an action-text regex that names no NPC (case-sensitive), beside words that would",
      patch: trigger([{ type: "action-text", operator: "regex", value: "ada" }], "Ada answers."),
    },
  ],
  invalid: [
    {
      name: "the place it is bound to, described as present",
      patch: trigger([atHut], "The Fen Hut creaks on its stilts."),
      errors: [{ ...at, data: { name: '"Fen Hut"', trigger: '"start_sheep"', bound: "party-location" } }],
    },
    {
      name: "an NPC who stands there acts",
      patch: trigger([atHut], "Ada Reed waves from the porch and asks for help."),
      errors: [
        { ...at, data: { name: '"Ada Reed"', trigger: '"start_sheep"', bound: 'an NPC at "Fen Hut"' } },
      ],
    },
    {
      name: "bound by area: the area named",
      patch: trigger([inLoft], "In the Loft a beam cracks overhead."),
      errors: [{ ...at, data: { name: '"Loft"', trigger: '"start_sheep"', bound: "party-area" } }],
    },
    {
      name: "an NPC named by the action-text, by first name",
      patch: trigger(
        [{ type: "action-text", operator: "regex", value: "[Aa]da" }],
        "Ada answers, and hands over a crook.",
      ),
      errors: [
        { ...at, data: { name: '"Ada Reed"', trigger: '"start_sheep"', bound: "named by its action-text" } },
      ],
    },
    {
      // The rule keeps which NPCs a condition names per operator and value, shared by the triggers:
      // the same value as words names Ada, as a case-sensitive regex it does not.
      name: "triggers sharing an action-text value, as words and as a regex",
      patch: {
        triggers: {
          start_sheep: {
            conditions: [{ type: "action-text", operator: "contains", value: "ada" }],
            effects: [story("Ada answers.")],
          },
          by_regex: {
            conditions: [{ type: "action-text", operator: "regex", value: "ada" }],
            effects: [story("Ada answers.")],
          },
          by_words_again: {
            conditions: [{ type: "action-text", operator: "contains", value: "ada" }],
            effects: [story("Ada answers.")],
          },
        },
      },
      errors: [
        { ...at, data: { name: '"Ada Reed"', trigger: '"start_sheep"', bound: "named by its action-text" } },
        {
          path: ["triggers", "by_words_again", "effects", 0],
          messageId: "scene",
          data: { name: '"Ada Reed"', trigger: '"by_words_again"', bound: "named by its action-text" },
        },
      ],
    },
  ],
});
