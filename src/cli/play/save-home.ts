import { constants } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import { basename, isAbsolute, join } from "node:path";

/**
 * Where a game played at a terminal without `--save` is kept, so that a
 * player who quits, presses Ctrl-D or closes the window never loses it: the
 * user's state folder (XDG_STATE_HOME, else ~/.local/state; LOCALAPPDATA on
 * Windows), under taleforge/saves, one file per game started. Only the
 * environment given is read (tests pass their own), never process.env.
 */
export type SaveHome = { ok: true; path: string; shown: string } | { ok: false; reason: string };

/** The save file of a new game of `worldFile` started at `now`, its folder created; or why there is none. */
export async function newSavePath(
  env: Readonly<Record<string, string | undefined>>,
  worldFile: string,
  now: Date,
): Promise<SaveHome> {
  const folder = saveFolder(env);
  if (folder === null)
    return {
      ok: false,
      reason: "no home folder is set (HOME, XDG_STATE_HOME or LOCALAPPDATA)",
    };
  try {
    // Saves hold the player's game: readable by them alone.
    await mkdir(folder, { recursive: true, mode: 0o700 });
  } catch (error) {
    return {
      ok: false,
      reason: `${folder} could not be created (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    };
  }
  const path = await reserve(folder, `${gameName(worldFile)}-${stamp(now)}`);
  if (path === null) return { ok: false, reason: `no new file could be created in ${folder}` };
  const home = env.HOME;
  const shown = home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
  return { ok: true, path, shown };
}

/** The folder of default saves, or null when the environment names no place for them. */
export function saveFolder(env: Readonly<Record<string, string | undefined>>): string | null {
  // A relative XDG_STATE_HOME is invalid by the XDG spec and is ignored.
  const xdg = env.XDG_STATE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "taleforge", "saves");
  if (process.platform === "win32" && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, "taleforge", "saves");
  if (env.HOME && isAbsolute(env.HOME)) return join(env.HOME, ".local", "state", "taleforge", "saves");
  return null;
}

/** The world file's name without `.world.json` or `.json`, reduced to characters safe in any file system. */
function gameName(worldFile: string): string {
  const name = basename(worldFile)
    .replace(/(\.world)?\.json$/i, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[.-]+/, "")
    .slice(0, 60);
  return name === "" ? "game" : name;
}

/**
 * Creates the first free file of `name.json`, `name-2.json`, ... (exclusively:
 * two games started in the same second never share a file) and answers its
 * path. The game writes its first save into it as soon as it has started.
 */
async function reserve(folder: string, name: string): Promise<string | null> {
  for (let n = 1; n <= 100; n++) {
    const path = join(folder, n === 1 ? `${name}.json` : `${name}-${n}.json`);
    try {
      const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      await handle.close();
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return null;
    }
  }
  return null;
}

/** 2026-11-26-054419 in local time: the files sort by when their games began. */
function stamp(now: Date): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}-${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}`;
}
