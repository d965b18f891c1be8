import type { CliIo } from "./io.ts";

/** Exit codes, as ESLint uses them: 0 clean, 1 problems in the input, 2 could not run. */
export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;

/** Prints a one-line message on stderr and gives the "could not run" code. */
export function fail(io: Pick<CliIo, "stderr">, message: string): number {
  io.stderr(`taleforge: ${message}\n`);
  return EXIT_USAGE;
}

export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
