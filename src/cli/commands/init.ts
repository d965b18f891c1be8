import { defineCommand } from "../command.ts";
import type { InitOptions } from "../init.ts";

export default defineCommand({
  name: "init",
  summary: "Start a world: write a small world that checks clean, and a play-test of it.",
  arguments: [{ name: "[file]", description: "the world file to write", default: "my.world.json" }],
  options: [
    { flags: "--force", description: "overwrite the files if they exist" },
    { flags: "--no-test", description: "write only the world, not its play-test (<name>.test.yaml)" },
  ],
  exitCodes: [
    { code: 0, meaning: "written" },
    { code: 2, meaning: "a file exists (without --force) or cannot be written" },
  ],
  exitCodesInHelp: "line",
  examples: [
    "taleforge init                     # my.world.json and my.test.yaml",
    "taleforge init castle.world.json   # castle.world.json and castle.test.yaml",
  ],
  run: async ([file], options, io) =>
    (await import("../init.ts")).init(file as string, options as InitOptions, io),
});
