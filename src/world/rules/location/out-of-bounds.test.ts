import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./out-of-bounds.ts";

const at = (x: number, y: number) => ({ locations: { "Fen Hut": { x, y } } });

testRule(rule, {
  valid: [
    {},
    { name: "on the edges", patch: at(-50, 50) },
    { name: "inside a larger region", patch: { ...at(70, -70), locationSettings: { regionSize: 140 } } },
    {
      name: "skipped while locationSettings has a shape problem",
      patch: { ...at(90, 0), locationSettings: { regionSize: "100" } },
    },
  ],
  invalid: [
    {
      name: "past the edge on both axes",
      patch: at(50.5, -95),
      errors: [
        {
          path: ["locations", "Fen Hut", "x"],
          messageId: "outside",
          data: { location: "Fen Hut", axis: "x", value: 50.5, min: -50, max: 50 },
        },
        {
          path: ["locations", "Fen Hut", "y"],
          messageId: "outside",
          data: { location: "Fen Hut", axis: "y", value: -95, min: -50, max: 50 },
        },
      ],
    },
    {
      name: "bounds follow regionSize",
      patch: { locationSettings: { regionSize: 18 } },
      errors: [
        {
          path: ["locations", "Fen Hut", "x"],
          messageId: "outside",
          data: { location: "Fen Hut", axis: "x", value: 10, min: -9, max: 9 },
        },
        {
          path: ["locations", "Fen Hut", "y"],
          messageId: "outside",
          data: { location: "Fen Hut", axis: "y", value: -10, min: -9, max: 9 },
        },
      ],
    },
  ],
});
