import { fail } from "./exit.ts";
import type { CliIo } from "./io.ts";

// Placeholder while the command is written (issue 5/6 work in progress).
export async function explain(_input: unknown, _options: Record<string, unknown>, io: CliIo): Promise<number> {
  return fail(io, "this command is not available yet.");
}
