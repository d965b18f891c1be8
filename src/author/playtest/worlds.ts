import { indexWorld, type WorldIndex } from "../../engine/index.ts";
import { isSpecialFile, readCheckedWorld } from "../../world/checked-file.ts";
import { type Diagnostic, formatPath, formatPosition } from "../../world/diagnostic.ts";
import type { World } from "../../world/schema/index.ts";
import { runnableWorld, type ValidationResult } from "../../world/validate.ts";

/**
 * A world the play-tests can run, with the errors it runs despite (all from
 * rules, as `taleforge play` allows: the report shows them as a heading), or
 * the message that says why it cannot run.
 */
export type WorldEntry =
  | { ok: true; world: World; index: WorldIndex; errors: string[] }
  | { ok: false; message: string };

/** How many of a broken world's errors a failure quotes. */
const SHOWN = 3;

/**
 * Worlds by absolute path, each loaded and checked once however many
 * play-tests name it. A world that cannot be read, or whose errors keep it
 * from running (load and shape errors; any error with `strict`), is an entry
 * with a message that says so (and how to see every error). A world whose
 * errors all come from rules runs, as in `taleforge play`: a play-test is
 * where an author sees what the runtime does with a broken script.
 */
export class WorldCache {
  private readonly entries = new Map<string, Promise<WorldEntry>>();

  constructor(private readonly strict = false) {}

  get(path: string, display: string): Promise<WorldEntry> {
    let entry = this.entries.get(path);
    if (!entry) {
      entry = readWorldEntry(path, display, this.strict);
      this.entries.set(path, entry);
    }
    return entry;
  }
}

/** A world file read and checked, as a play-test sees it (uncached). */
export async function readWorldEntry(path: string, display: string, strict = false): Promise<WorldEntry> {
  let result: ValidationResult;
  let runnable: World | undefined;
  try {
    if (await isSpecialFile(path))
      return { ok: false, message: `The world ${display} is not a regular file.` };
    const read = await readCheckedWorld(path);
    if (!read.ok)
      return {
        ok: false,
        message: `Cannot read the world file ${display} (${path}): it is missing, a folder, or unreadable. \`world:\` is relative to the play-test file.`,
      };
    result = read.checked;
    runnable = strict ? result.world : runnableWorld(read.loaded, result);
  } catch (error) {
    return { ok: false, message: `Cannot check the world ${display}: ${(error as Error).message}.` };
  }
  return worldEntryOf(runnable, result, display, strict);
}

/**
 * The entry for a world already loaded and checked (the language server's
 * open world, whose text may not be saved yet).
 */
export function worldEntryOf(
  runnable: World | undefined,
  result: ValidationResult,
  display: string,
  strict = false,
): WorldEntry {
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  const line = (d: Diagnostic) =>
    `${d.line !== null ? formatPosition(display, d) : formatPath(d.path)} ${d.code}: ${d.message}`;
  if (runnable && (errors.length === 0 || !strict))
    return { ok: true, world: runnable, index: indexWorld(runnable), errors: errors.map(line) };
  const shown = errors.slice(0, SHOWN).map(line).join("; ");
  const more = errors.length > SHOWN ? `; and ${errors.length - SHOWN} more` : "";
  return {
    ok: false,
    message: `The world ${display} has ${errors.length} error${errors.length === 1 ? "" : "s"}, so its play-tests cannot run${strict ? " (--strict)" : ""}: ${shown}${more}. Run \`taleforge check ${display}\` to see them all.`,
  };
}
