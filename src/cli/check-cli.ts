// The command line of `taleforge check` and `taleforge lint` alone: what dist/taleforge.js runs for
// them. scripts/build.ts bundles it into one classic script (dist/check-cli.cjs) with a V8 code cache
// made at build time, so that these commands, which authors run on every save, start without
// compiling their modules (see fast-start.ts). The program is main.ts's with only these two commands
// registered, which is the same program for any command line that starts with either of them.
import check from "./commands/check.ts";
import lint from "./commands/lint.ts";
import { type CliIo, processIo } from "./io.ts";
import { runDirect, runProgram } from "./program.ts";

const COMMANDS = [check, lint];

/** Runs a command line that starts with `check` or `lint`; resolves to the exit code. */
export function run(argv: readonly string[], io: CliIo): Promise<number> {
  return runDirect(argv, io, COMMANDS) ?? runProgram(argv, io, COMMANDS);
}

export async function main(): Promise<void> {
  process.exitCode = await run(process.argv.slice(2), processIo());
}
