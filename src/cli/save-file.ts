import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { lstat, open, readdir, readlink, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

/**
 * Writes a save file atomically and durably, or not at all (issue 15 item 6):
 *
 * - only to a regular file: a device (`/dev/full`, `/dev/null`), a folder or
 *   a FIFO is refused with a message, never replaced by a file;
 * - through symlinks: the link's target is written (the link stays a link),
 *   and an existing file keeps its permissions;
 * - through a temporary file in the same folder, fsynced, renamed over the
 *   target, and the folder fsynced, so that a crash or a kill leaves either
 *   the old save or the new one, whole;
 * - a failed write removes its temporary file, and temporary files left by
 *   killed earlier writes (whose process is gone) are removed on the next save.
 *
 * Answers null when the save was written, else why it was not (one sentence).
 */
export async function writeSaveFile(path: string, text: string): Promise<string | null> {
  let target: string;
  try {
    target = await realTarget(path);
  } catch (error) {
    return reasonOf(error);
  }
  const existing = await stat(target).catch(() => null);
  if (existing && !existing.isFile())
    return `${target} is ${kindOf(existing)}, not a regular file: save to a file such as game.save.json.`;
  const folder = dirname(target);
  await removeStaleTemporaries(folder, basename(target));
  const temporary = join(folder, `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  let written = false;
  try {
    const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o666);
    try {
      await handle.writeFile(text, "utf8");
      // The creation mode went through the umask; an existing save keeps exactly its own.
      if (existing) await handle.chmod(existing.mode & 0o7777);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
    written = true;
    await syncFolder(folder);
    return null;
  } catch (error) {
    return reasonOf(error);
  } finally {
    if (!written) await unlink(temporary).catch(() => undefined);
  }
}

/** The file a path names once every symlink is followed (also a dangling one: the save creates its target). */
async function realTarget(path: string): Promise<string> {
  let current = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    const info = await lstat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return null;
      throw error;
    });
    if (info === null || !info.isSymbolicLink()) return current;
    current = resolve(dirname(current), await readlink(current));
  }
  throw new Error(`${path} is a chain of more than 40 symbolic links`);
}

function kindOf(info: Awaited<ReturnType<typeof stat>>): string {
  if (info.isDirectory()) return "a folder";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  if (info.isFIFO()) return "a pipe (FIFO)";
  if (info.isSocket()) return "a socket";
  return "not a file";
}

/** fsyncs a folder so that the rename itself survives a power cut; some systems cannot, and that is no failure. */
async function syncFolder(folder: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | null = null;
  try {
    handle = await open(folder, constants.O_RDONLY);
    await handle.sync();
  } catch {
    // EISDIR/EINVAL/EPERM on platforms that do not fsync folders: the data itself was synced.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Temporary files of this save left by writes whose process died (kill -9 mid-save). */
async function removeStaleTemporaries(folder: string, name: string): Promise<void> {
  const entries = await readdir(folder).catch(() => [] as string[]);
  const prefix = `.${name}.`;
  for (const entry of entries) {
    if (!entry.startsWith(prefix) || !entry.endsWith(".tmp")) continue;
    const pid = Number(entry.slice(prefix.length).split(".")[0]);
    if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
    await unlink(join(folder, entry)).catch(() => undefined);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "ENOSPC")
    return "the disk is full (nothing was written; the previous save, if any, is intact).";
  if (code === "EACCES" || code === "EPERM") return `permission denied (${message}).`;
  return `${message}.`;
}

/** For tests: the name pattern of this module's temporary files. */
export const TEMPORARY_PATTERN = /^\..+\.\d+\.[0-9a-f]{8}\.tmp$/;

/** The largest save `--load` and `/load` read (a save is a few hundred KB; /dev/zero is endless). */
export const MAX_SAVE_BYTES = 64 * 1024 * 1024;

/** Why a path cannot take a save (a device, a folder…), or null when it can; checked before a game starts. */
export async function saveTargetProblem(path: string): Promise<string | null> {
  try {
    const info = await stat(await realTarget(path)).catch(() => null);
    if (info && !info.isFile())
      return `${path} is ${kindOf(info)}, not a regular file: save to a file such as game.save.json.`;
    return null;
  } catch (error) {
    return reasonOf(error);
  }
}

/** Reads a save: a regular file of at most MAX_SAVE_BYTES; throws an Error whose message says what is wrong. */
export async function readSaveText(path: string): Promise<string> {
  const info = await stat(path);
  if (!info.isFile()) throw new Error(`it is ${kindOf(info)}, not a save file`);
  if (info.size > MAX_SAVE_BYTES)
    throw new Error(
      `it is ${Math.round(info.size / 2 ** 20)} MB; saves are at most ${MAX_SAVE_BYTES / 2 ** 20} MB, so this is not one`,
    );
  const handle = await open(path, constants.O_RDONLY);
  try {
    const buffer = Buffer.alloc(Math.min(info.size, MAX_SAVE_BYTES) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_SAVE_BYTES)
      throw new Error(`it grew past ${MAX_SAVE_BYTES / 2 ** 20} MB while being read`);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}
