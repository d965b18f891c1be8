import { defineCommand } from "../command.ts";
import type { ExplainOptions } from "../explain.ts";

export default defineCommand({
  name: "explain",
  summary: "Dry-run one turn on a saved game and print why each trigger did or did not fire.",
  arguments: [{ name: "<world>", description: "the world file (.json)" }],
  options: [
    {
      flags: "--save <file>",
      description: "the saved game to start from (it is not changed)",
      required: true,
    },
    { flags: "--act <text>", description: "the player's action", required: true },
    { flags: "--player <name>", description: "the acting player (default: the first)" },
    { flags: "--intent <intent>", description: "pin the classifier's answer" },
    { flags: "--target <place>", description: "pin the intent's target" },
    { flags: "--story <text>", description: "pin the narration text" },
    {
      flags: "--judge <trigger=true|false>",
      description: "pin an AI verdict, by trigger key (repeatable)",
      repeatable: true,
    },
    { flags: "-f, --format <name>", description: "output format: text or json", default: "text" },
  ],
  exitCodes: [
    { code: 0, meaning: "the turn ran and its trace was printed (the save is never written)" },
    { code: 1, meaning: "the world does not load, or the save is damaged or of another world" },
    { code: 2, meaning: "bad option, unknown player or judge trigger, missing or unreadable file" },
  ],
  exitCodesInHelp: "list",
  examples: [
    'taleforge explain examples/harbor.world.json --save game.save.json --act "read the logbook"',
    'taleforge explain my.world.json --save s.json --act "light the lamp" --judge light_the_beacon=true',
    'taleforge explain my.world.json --save s.json --act "go east" --intent travel --target "Old Mill" -f json',
  ],
  run: async ([world], options, io) =>
    (await import("../explain.ts")).explain(world as string, options as ExplainOptions, io),
});
