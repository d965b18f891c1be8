import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { ApiError } from "../errors.ts";

/**
 * SQLite mode serves from one process: a lock file in the data folder holds
 * the owner's pid. A second process finds it and stops with a clear error; a
 * lock left by a process that died (kill -9) is taken over.
 */
export function lockDataFolder(folder: string): () => void {
  const path = join(folder, "taleforge.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number.parseInt(readFileSync(path, "utf8"), 10);
      if (Number.isInteger(owner) && owner !== process.pid && alive(owner))
        throw new ApiError("store/locked", "in-use", { folder, pid: owner }, { folder, pid: owner });
      unlinkSync(path);
    }
  }
  throw new ApiError("store/locked", "lock-failed", { folder }, { folder });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
