import { type CheckedWorldFile, type ReadWorldOptions, readCheckedWorld } from "../world/checked-file.ts";
import { fail, reasonOf } from "./exit.ts";
import type { CliIo } from "./io.ts";

/**
 * The world argument of `check`, `lint`, `graph` and `map`: a file, or stdin
 * for `-`, read and checked. Stdin that cannot be read, or a file that is not
 * there, is a problem with the command: exit 2 with one line.
 */
export async function readWorldArgument(
  file: string,
  io: CliIo,
  analyse?: ReadWorldOptions["analyse"],
): Promise<Extract<CheckedWorldFile, { ok: true }> | { ok: false; code: number }> {
  let stdin: string | undefined;
  if (file === "-") {
    try {
      stdin = await io.readStdin();
    } catch (error) {
      return { ok: false, code: fail(io, `cannot read stdin: ${reasonOf(error)}.`) };
    }
  }
  const read = await readCheckedWorld(file, { stdin, analyse });
  if (!read.ok) return { ok: false, code: fail(io, read.unreadable.message) };
  return read;
}
