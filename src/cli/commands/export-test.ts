import { defineCommand } from "../command.ts";
import type { ExportTestOptions } from "../export-test.ts";

export default defineCommand({
  name: "export-test",
  summary: "Turn a played game (its cassette or save) into a play-test that replays it exactly.",
  arguments: [
    {
      name: "<game>",
      description: "a cassette (play --record, the server's /cassette) or a save (play --save, /save)",
    },
  ],
  options: [
    { flags: "-o, --output <file>", description: "write the play-test to this file (default: stdout)" },
    {
      flags: "--world <file>",
      description: "the world the game was played on (default: the example world that ships with Taleforge)",
    },
    {
      flags: "--from-turn <n>",
      description: "check from this turn on (earlier turns are played, unchecked)",
    },
    { flags: "--to-turn <n>", description: "stop after this turn" },
    { flags: "--loose", description: "keep only the final expectations, none per turn" },
    { flags: "--force", description: "overwrite the output file if it exists" },
  ],
  exitCodes: [
    { code: 0, meaning: "written" },
    {
      code: 1,
      meaning: [
        "the game cannot be exported: played on another world, it no longer replays on this one,",
        "it starts from or loads a save, or (a save) it does not replay offline to where it ended",
      ],
    },
    { code: 2, meaning: "could not run: bad option, a file missing, unreadable or not a save or cassette" },
  ],
  exitCodesInHelp: "list",
  examples: [
    "taleforge export-test game.cassette.jsonl -o tests/quest-bug.test.yaml --world my.world.json",
    "taleforge export-test game.save.json --world my.world.json --from-turn 12 --to-turn 20",
    "taleforge export-test game.cassette.jsonl --loose > smoke.test.yaml",
  ],
  footer: ["", "The format and what an exported test checks: docs/playtests.md"],
  run: async ([game], options, io) =>
    (await import("../export-test.ts")).exportTest(game as string, options as ExportTestOptions, io),
});
