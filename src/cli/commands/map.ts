import { defineCommand } from "../command.ts";

export default defineCommand({
  name: "map",
  summary: "Draw a realm's map: the region grid and its locations, known and unknown.",
  arguments: [{ name: "<world>", description: "the world file (.json)" }],
  options: [
    { flags: "--realm <name>", description: "the realm to draw (default: the first)" },
    { flags: "--save <file>", description: "style places as known or unknown in this saved game" },
    { flags: "-o, --output <file>", description: "map.svg or map.png (default: SVG on stdout)" },
  ],
  exitCodes: [
    { code: 0, meaning: "drawn" },
    { code: 1, meaning: "the world has errors (what is valid is still drawn)" },
    { code: 2, meaning: "could not run" },
  ],
  exitCodesInHelp: "line",
  examples: [
    "taleforge map examples/harbor.world.json -o map.png",
    'taleforge map my.world.json --realm "Underdark" --save game.json -o underdark.svg',
  ],
  run: async ([world], options, io) =>
    (await import("../map.ts")).map(
      world as string,
      options as Parameters<typeof import("../map.ts").map>[1],
      io,
    ),
});
