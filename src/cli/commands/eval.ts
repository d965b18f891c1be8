import { defineCommand } from "../command.ts";
import type { EvalCliOptions } from "../eval.ts";

export default defineCommand({
  name: "eval",
  summary: "Measure how well the world's AI-judged conditions judge: labelled cases through the judge.",
  arguments: [
    { name: "<world>", description: "the world file (.json)" },
    {
      name: "[cases]",
      description:
        "a cases file (*.cases.yaml); default: the play-tests beside the world (and under tests/) and the starter set",
    },
  ],
  options: [
    {
      flags: "--init",
      description:
        "write the starter set (<name>.cases.yaml beside the world, or [cases]) for you to correct",
    },
    { flags: "--force", description: "with --init: overwrite the cases file if it exists" },
    { flags: "-f, --format <name>", description: "output format: text or json", default: "text" },
    {
      flags: "--samples <n>",
      description: "verdicts asked per case; a case whose verdicts differ is flaky",
      default: "3",
    },
    { flags: "--provider <name>", description: "offline (default) or openai (any OpenAI-compatible server)" },
    { flags: "--model <name>", description: "the model name (openai provider)" },
    { flags: "--base-url <url>", description: "the server's base URL (implies openai)" },
    { flags: "--api-key <key>", description: "the API key (prefer TALEFORGE_API_KEY or OPENAI_API_KEY)" },
    { flags: "--timeout <seconds>", description: "per-request timeout of the openai provider" },
    {
      flags: "--context-tokens <tokens>",
      description: "the server's context window; prompt budgets derive from it",
    },
    { flags: "--config <file>", description: "a JSON config file with provider settings" },
  ],
  exitCodes: [
    { code: 0, meaning: "the report was printed (or --init wrote the cases file)" },
    { code: 1, meaning: "the world or the cases file is broken, or the world has no AI-judged condition" },
    {
      code: 2,
      meaning: "could not run: bad option, missing file, no provider, a cases file that exists (--init)",
    },
  ],
  exitCodesInHelp: "list",
  examples: [
    "taleforge eval examples/harbor.world.json                 # the offline judge",
    "taleforge eval my.world.json --init                       # my.cases.yaml, to correct",
    "taleforge eval my.world.json my.cases.yaml --base-url http://127.0.0.1:11434/v1 --model llama3.1",
    "taleforge eval my.world.json --format json > eval.json",
  ],
  footer: ["", "How to read the report and word a condition that judges well: docs/eval.md"],
  run: async ([world, cases], options, io) =>
    (await import("../eval.ts")).evalCommand(
      world as string,
      cases as string | undefined,
      options as EvalCliOptions,
      io,
    ),
});
