import { indexWorld, type WorldIndex } from "../../engine/world-index.ts";
import { formatPath, formatPosition } from "../../world/diagnostic.ts";
import type { World } from "../../world/schema/index.ts";
import type { ValidationResult } from "../../world/validate.ts";
import { isSpecialFile, readCheckedWorld } from "../world-file.ts";

export type WorldEntry = { ok: true; world: World; index: WorldIndex } | { ok: false; message: string };

/** How many of a broken world's errors a failure quotes. */
const SHOWN = 3;

/**
 * Worlds by absolute path, each loaded and checked once however many
 * play-tests name it. A world that cannot be read or has errors is an entry
 * with a message that says so (and how to see every error).
 */
export class WorldCache {
  private readonly entries = new Map<string, Promise<WorldEntry>>();

  get(path: string, display: string): Promise<WorldEntry> {
    let entry = this.entries.get(path);
    if (!entry) {
      entry = load(path, display);
      this.entries.set(path, entry);
    }
    return entry;
  }
}

async function load(path: string, display: string): Promise<WorldEntry> {
  let result: ValidationResult;
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
  } catch (error) {
    return { ok: false, message: `Cannot check the world ${display}: ${(error as Error).message}.` };
  }
  if (result.world && result.errorCount === 0)
    return { ok: true, world: result.world, index: indexWorld(result.world) };
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  const shown = errors
    .slice(0, SHOWN)
    .map(
      (d) => `${d.line !== null ? formatPosition(display, d) : formatPath(d.path)} ${d.code}: ${d.message}`,
    )
    .join("; ");
  const more = errors.length > SHOWN ? `; and ${errors.length - SHOWN} more` : "";
  return {
    ok: false,
    message: `The world ${display} has ${errors.length} error${errors.length === 1 ? "" : "s"}, so its play-tests cannot run: ${shown}${more}. Run \`taleforge check ${display}\` to see them all.`,
  };
}
