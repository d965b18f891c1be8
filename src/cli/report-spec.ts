import type { CommandArgument, CommandOption, ExitCode } from "./command.ts";

/** What `check` and `lint` share: the world argument, the report options and the exit codes. */
export const WORLD_ARGUMENT: CommandArgument = {
  name: "<world>",
  description: "the world file (.json), or - to read it from stdin",
};

export const REPORT_OPTIONS: readonly CommandOption[] = [
  { flags: "-f, --format <name>", description: "output format: stylish, json or sarif", default: "stylish" },
  { flags: "--max-warnings <n>", description: "exit with 1 when there are more than n warnings" },
];

/** "it could not be <participle>". */
export function reportExitCodes(participle: string): readonly ExitCode[] {
  return [
    { code: 0, meaning: "no errors (and no more warnings than --max-warnings)" },
    { code: 1, meaning: "the world has errors (or too many warnings)" },
    { code: 2, meaning: `it could not be ${participle}: bad option, missing or unreadable file` },
  ];
}
