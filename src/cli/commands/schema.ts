import { defineCommand } from "../command.ts";

export default defineCommand({
  name: "schema",
  summary: "Print the JSON Schema of the world format, for completion and inline errors in editors.",
  arguments: [],
  options: [{ flags: "-o, --output <file>", description: "write the schema to a file instead of stdout" }],
  exitCodes: [
    { code: 0, meaning: "printed or written" },
    { code: 2, meaning: "the file cannot be written" },
  ],
  exitCodesInHelp: "none",
  examples: ["taleforge schema --output world.schema.json"],
  run: async (_args, options, io) =>
    (await import("../schema.ts")).schema(options as { output?: string }, io),
});
