import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./narrator-directive.ts";

const start = (storyStart: string) => ({ storyStarts: { Morning: { storyStart } } });
const story = (instruction: string) => ({
  triggers: { start_sheep: { effects: [{ type: "story", instruction }] } },
});
const atStart = ["storyStarts", "Morning", "storyStart"];
const atEffect = ["triggers", "start_sheep", "effects", 0, "instruction"];

testRule(rule, {
  valid: [
    { name: "a story start told as what happens", patch: start("Dawn light spills over the millyard.") },
    {
      name: "an imperative to the player",
      patch: start("The wheel groans. Make your way to the sluice before the water rises."),
    },
    {
      name: "'should' in a subordinate clause",
      patch: story("The peg where the mill key should hang is bare, and the dust on it is fresh."),
    },
    {
      name: "a character who says the writer's words",
      patch: story("The miller shrugs. “Describe the thief to me and I'll tell you his name.”"),
    },
    {
      name: "a gate the narrator resolves, then prose",
      patch: story(
        "Disregard this instruction if the player is not asking about the wheel. The miller says the axle cracked.",
      ),
    },
    {
      name: "a turn of phrase a narrator tells as prose",
      patch: story("The party now knows who broke the wheel. Let that weigh on them as the evening comes."),
    },
  ],
  invalid: [
    {
      name: "a story start that names the PC, the rest prose-like",
      patch: start("The PC has just taken work as a mill hand. Wind whips the yard."),
      errors: [{ path: atStart, messageId: "directive" }],
    },
    {
      name: "a scripted beat: someone should do something",
      patch: story("At noon the foreman should ring the yard bell and call the hands in."),
      errors: [{ path: atEffect, messageId: "directive" }],
    },
    {
      name: "a stage direction in brackets",
      patch: story("[Paint the flooded cellar in grim detail] Water laps at the stairs."),
      errors: [{ path: atEffect, messageId: "directive" }],
    },
    {
      name: "a closing direction after prose",
      patch: start(
        "Rain drums on the roof of the mill. Once you have established the scene, stop without further complications.",
      ),
      errors: [{ path: atStart, messageId: "directive" }],
    },
    {
      name: "a writer's verb after a semicolon",
      patch: story("The sluice gate is jammed; mention that the water is rising fast."),
      errors: [{ path: atEffect, messageId: "directive" }],
    },
    {
      name: "a story effect of a narrative event",
      patch: {
        narrativeEvents: {
          Flood: {
            beats: "1. The river rises.",
            onCompleteEffects: [{ type: "story", instruction: "Describe the water going down." }],
          },
        },
      },
      errors: [
        { path: ["narrativeEvents", "Flood", "onCompleteEffects", 0, "instruction"], messageId: "directive" },
      ],
    },
  ],
});
