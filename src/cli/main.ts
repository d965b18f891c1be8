import { COMMANDS } from "./commands/index.ts";
import { type CliIo, processIo } from "./io.ts";
import { runProgram } from "./program.ts";

/**
 * Runs the command line and returns the exit code; never throws and never
 * exits, so that tests can call it. Each command's module is loaded only when
 * that command runs, which keeps `--help` and `--version` fast.
 */
export function run(argv: readonly string[], given: CliIo): Promise<number> {
  return runProgram(argv, given, COMMANDS);
}

/** The process entry (bin/taleforge.js): the only place that sets the exit code. */
export async function main(): Promise<void> {
  process.exitCode = await run(process.argv.slice(2), processIo());
}
