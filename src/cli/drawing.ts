import { writeFile } from "node:fs/promises";
import { drawableWorld } from "../author/drawable.ts";
import { FILE_NOT_FOUND } from "../world/codes.ts";
import { type LoadedWorld, loadWorld, parseWorld } from "../world/load.ts";
import type { World } from "../world/schema/index.ts";
import { validateWorld } from "../world/validate.ts";
import { fail, reasonOf } from "./exit.ts";
import type { CliIo } from "./io.ts";

/**
 * What `taleforge graph` and `taleforge map` share: reading the world, and
 * writing the drawing. A world with errors is still drawn (the records of the
 * right shape, as `taleforge check` sees them), because an author fixing a
 * world wants its picture most; the command then exits 1 and says so on
 * stderr. A file that is not a world at all (invalid JSON, a mod fragment,
 * another format version) cannot be drawn: exit 1 with the reason.
 */
export type WorldToDraw =
  | {
      ok: true;
      /** The records that passed their shape check, with stand-ins for the rest. */
      world: World;
      /** The world as loaded (compatibility steps applied), for reading a save against it. */
      loaded: LoadedWorld;
      errorCount: number;
      /** One line for stderr when there are errors, else "". */
      errorSummary: string;
    }
  | { ok: false; code: number };

export async function readWorldToDraw(file: string, what: string, io: CliIo): Promise<WorldToDraw> {
  let loaded: LoadedWorld;
  if (file === "-") {
    let text: string;
    try {
      text = await io.readStdin();
    } catch (error) {
      return { ok: false, code: fail(io, `cannot read stdin: ${reasonOf(error)}.`) };
    }
    loaded = parseWorld(text, "<stdin>");
  } else loaded = await loadWorld(file);
  const unreadable = loaded.diagnostics.find((d) => d.code === FILE_NOT_FOUND.code);
  if (unreadable) return { ok: false, code: fail(io, unreadable.message) };
  if (loaded.fatal || !loaded.value) {
    const first = loaded.diagnostics.find((d) => d.severity === "error");
    // A position helps with a syntax error; the top of the file (a mod fragment, another version) says nothing.
    const where =
      first?.line && (first.line > 1 || (first.column ?? 1) > 1)
        ? ` (line ${first.line}, column ${first.column})`
        : "";
    io.stderr(
      `taleforge: cannot draw ${loaded.file}: ${first?.message ?? "it is not a V33 world."}${where}\n`,
    );
    return { ok: false, code: 1 };
  }
  const checked = validateWorld(loaded);
  const world = drawableWorld(loaded.value);
  return {
    ok: true,
    world,
    loaded,
    errorCount: checked.errorCount,
    errorSummary: checked.errorCount > 0 ? summarise(loaded.file, checked.diagnostics, what) : "",
  };
}

/** "x.json has 4 errors (quest/no-init-trigger ×4); …": codes by count, most frequent first. */
function summarise(file: string, diagnostics: { code: string; severity: string }[], what: string): string {
  const counts = new Map<string, number>();
  for (const d of diagnostics) if (d.severity === "error") counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const codes = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 4)
    .map(([code, n]) => (n > 1 ? `${code} ×${n}` : code));
  const more = counts.size > 4 ? ", …" : "";
  const name = file === "<stdin>" ? "-" : file;
  return `taleforge: ${file} has ${total} error${total === 1 ? "" : "s"} (${codes.join(", ")}${more}); ${what} shows only the records that are well formed. Run "taleforge check ${name}" to see them.\n`;
}

/** Writes a drawing to a file; exit 2 with one line when the file cannot be written. */
export async function writeDrawing(io: CliIo, path: string, content: string | Uint8Array): Promise<boolean> {
  try {
    await writeFile(path, content);
    return true;
  } catch (error) {
    fail(io, `cannot write ${path}: ${reasonOf(error)}. Check that its folder exists and is writable.`);
    return false;
  }
}

/** The lower-cased extension of a path, with its dot ("" when none). */
export function extensionOf(path: string): string {
  const match = /\.[^./\\]+$/.exec(path);
  return match ? match[0].toLowerCase() : "";
}
