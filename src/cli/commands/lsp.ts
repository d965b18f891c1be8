import { defineCommand } from "../command.ts";

export default defineCommand({
  name: "lsp",
  summary:
    "Start the language server for world files and play-tests on stdin and stdout, for editors (docs/editors.md).",
  arguments: [],
  options: [
    {
      flags: "--stdio",
      description: "talk over stdin and stdout (the default and only transport; editors pass it)",
    },
  ],
  about: [
    "Editors start this command themselves: diagnostics of check and lint as you",
    "type, hover, completion, go to definition, references, rename, quick fixes and",
    "an outline for *.world.json and *.test.yaml.",
  ],
  exitCodes: [
    { code: 0, meaning: "the editor closed the connection after a shutdown request" },
    { code: 1, meaning: "the editor closed the connection without a shutdown request" },
  ],
  exitCodesInHelp: "list",
  examples: ["taleforge lsp --stdio"],
  run: async () => (await import("../../lsp/index.ts")).serveStdio(),
});
