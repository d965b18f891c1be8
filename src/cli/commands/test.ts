import { defineCommand } from "../command.ts";
import type { TestOptions } from "../test.ts";

export default defineCommand({
  name: "test",
  summary: "Run play-tests (*.test.yaml): scripted turns with expectations on the state.",
  arguments: [
    {
      name: "<paths...>",
      description: "play-test files, or folders to search for *.test.yaml / *.test.json",
    },
  ],
  options: [
    { flags: "-f, --format <name>", description: "output format: text or junit", default: "text" },
    {
      flags: "--coverage",
      description: "report which triggers, effects and quest statuses the tests reached",
    },
    {
      flags: "--strict",
      description:
        "fail the play-tests of a world with errors (by default rule errors are shown and it runs)",
    },
  ],
  exitCodes: [
    { code: 0, meaning: "every play-test passed" },
    {
      code: 1,
      meaning: [
        "a play-test failed, or a play-test file (or its world) is broken",
        "(a world whose errors all come from rules runs, as in play, unless --strict)",
      ],
    },
    { code: 2, meaning: "nothing ran: bad option, a path that does not exist, a folder without play-tests" },
  ],
  exitCodesInHelp: "list",
  examples: [
    "taleforge test examples/tests",
    "taleforge test examples/tests/main-quest.test.yaml --coverage",
    "taleforge test tests --format junit > playtests.xml",
  ],
  footer: ["", "The format: docs/playtests.md"],
  run: async ([paths], options, io) =>
    (await import("../test.ts")).test(paths as string[], options as TestOptions, io),
});
