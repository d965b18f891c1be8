import { type Stats, statSync } from "node:fs";
import { FILE_NOT_FOUND } from "./codes.ts";
import type { Diagnostic } from "./diagnostic.ts";
import { type LoadedWorld, loadWorld, parseWorld } from "./load.ts";
import { type ValidationResult, validateWorld } from "./validate.ts";

/**
 * A world file read and checked, as every tool that takes one starts: the
 * loaded world and its check; or, when the file is not there (or is a
 * folder, or cannot be read), the diagnostic that says so, since that is a
 * problem with the command rather than with a world. Each caller words its
 * own messages.
 */
export type CheckedWorldFile =
  | { ok: true; loaded: LoadedWorld; checked: ValidationResult }
  | { ok: false; unreadable: Diagnostic };

export interface ReadWorldOptions {
  /** The world's text, read from stdin (the file is then `-`, named `<stdin>`). */
  stdin?: string;
  /** The check to run: validateWorld by default (lintWorld for `lint`). */
  analyse?: (loaded: LoadedWorld) => ValidationResult;
}

export async function readCheckedWorld(
  file: string,
  options: ReadWorldOptions = {},
): Promise<CheckedWorldFile> {
  const loaded = options.stdin === undefined ? await loadWorld(file) : parseWorld(options.stdin, "<stdin>");
  const unreadable = loaded.diagnostics.find((d) => d.code === FILE_NOT_FOUND.code);
  if (unreadable) return { ok: false, unreadable };
  const analyse = options.analyse ?? ((world: LoadedWorld) => validateWorld(world));
  return { ok: true, loaded, checked: analyse(loaded) };
}

/**
 * True for a path that exists but is neither a file nor a folder: a device or
 * a pipe, which would be read forever. A missing path is false: reading it
 * reports it, with its reason.
 */
export async function isSpecialFile(path: string): Promise<boolean> {
  // Sync, as loadWorld reads: no node:fs/promises in the modules of `check` (load.ts).
  let info: Stats;
  try {
    info = statSync(path);
  } catch {
    return false;
  }
  return !info.isFile() && !info.isDirectory();
}
