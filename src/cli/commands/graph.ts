import { defineCommand } from "../command.ts";

export default defineCommand({
  name: "graph",
  summary: "Draw the world's logic: triggers, the quests and events they move, storage keys.",
  arguments: [{ name: "<world>", description: "the world file (.json)" }],
  options: [
    { flags: "-f, --format <name>", description: "mermaid, dot or svg", default: "mermaid" },
    { flags: "-o, --output <file>", description: "write to a file instead of stdout" },
  ],
  exitCodes: [
    { code: 0, meaning: "drawn" },
    { code: 1, meaning: "the world has errors (what is valid is still drawn)" },
    { code: 2, meaning: "could not run" },
  ],
  exitCodesInHelp: "line",
  examples: [
    "taleforge graph examples/harbor.world.json > harbor.mmd",
    "taleforge graph examples/harbor.world.json --format svg -o graph.svg",
    "taleforge graph my.world.json -f dot | dot -Tpng > graph.png",
  ],
  run: async ([world], options, io) =>
    (await import("../graph.ts")).graph(
      world as string,
      options as Parameters<typeof import("../graph.ts").graph>[1],
      io,
    ),
});
