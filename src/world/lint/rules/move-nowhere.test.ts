import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./move-nowhere.ts";

const scripted = (script: string) => ({
  triggers: { mover: { name: "mover", conditions: [], effects: [], script } },
});
const moves = (effects: unknown[], script?: string) => ({
  triggers: {
    mover: { name: "mover", conditions: [], effects, ...(script === undefined ? {} : { script }) },
  },
});
const to = (type: string, value: string) => ({ type, operator: "set", value });

testRule(rule, {
  valid: [
    { name: "the base world", patch: {} },
    {
      name: "a script moves to a location that exists",
      patch: scripted(`effects.push(${JSON.stringify(to("party-location", "Old Mill"))});`),
    },
    {
      name: "a destination computed at run time is not judged",
      patch: scripted('effects.push({ type: "party-location", operator: "set", value: pick() });'),
    },
    {
      name: "a location, then one of its areas",
      patch: moves([to("party-location", "Old Mill"), to("party-area", "Loft")]),
    },
    { name: "an area move with no location move before it", patch: moves([to("party-area", "Porch")]) },
    {
      name: "a script may remove the location move, so the list is not judged",
      patch: moves([to("party-location", "Fen Hut"), to("party-area", "Loft")], "effects.shift();"),
    },
    {
      name: "an area of no location at all is reference/unknown-destination's",
      patch: moves([to("party-location", "Fen Hut"), to("party-area", "Attic")]),
    },
  ],
  invalid: [
    {
      name: "a script pushes a move to a location that does not exist",
      patch: scripted(`log("off");\neffects.push(${JSON.stringify(to("party-location", "Old Mil"))});`),
      errors: [
        {
          path: ["triggers", "mover", "script"],
          messageId: "script",
          data: {
            trigger: '"mover"',
            type: "party-location",
            name: '"Old Mil"',
            line: 2,
            kind: "location",
            suggestion: ' Did you mean "Old Mill"?',
          },
        },
      ],
    },
    {
      name: "a trigger a script adds moves to a region that does not exist",
      patch: scripted(
        `triggers.later = { name: "later", conditions: [], effects: [${JSON.stringify(to("party-region", "Eastfield"))}] };`,
      ),
      errors: [{ path: ["triggers", "mover", "script"], messageId: "script" }],
    },
    {
      name: "an area of another location after a location move",
      patch: moves([to("party-location", "Fen Hut"), to("party-realm", "Vale"), to("party-area", "Loft")]),
      errors: [
        {
          path: ["triggers", "mover", "effects", 2, "value"],
          messageId: "area",
          data: { area: '"Loft"', location: '"Fen Hut"', areas: '"Porch"' },
        },
      ],
    },
    {
      name: "in a narrative event's completion effects",
      patch: {
        narrativeEvents: {
          Storm: {
            title: "Storm",
            beats: "Rain.",
            onCompleteEffects: [to("party-location", "Old Mill"), to("party-area", "Porch")],
          },
        },
      },
      errors: [{ path: ["narrativeEvents", "Storm", "onCompleteEffects", 1, "value"], messageId: "area" }],
    },
  ],
});
