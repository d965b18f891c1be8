import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";

/** The names a folder search picks up. */
export const PLAYTEST_FILE = /\.test\.(ya?ml|json)$/i;

/**
 * The play-test files named by the command line, in argument order: a file
 * as given (whatever its name), a folder searched recursively for
 * *.test.yaml, *.test.yml and *.test.json, sorted, skipping node_modules and
 * hidden folders. A path that does not exist, or a folder without a
 * play-test, is an error: a typo in CI must not pass as "0 failed".
 */
export async function findPlaytests(
  paths: readonly string[],
  cwd: string,
): Promise<{ files: string[]; errors: string[] }> {
  const files: string[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  const add = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    files.push(file);
  };
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(absolute);
    } catch {
      errors.push(`no such file or folder: ${path}`);
      continue;
    }
    if (!info.isDirectory()) {
      add(absolute);
      continue;
    }
    let entries: string[];
    try {
      entries = await readdir(absolute, { recursive: true, encoding: "utf8" });
    } catch (error) {
      errors.push(`cannot read the folder ${path}: ${(error as Error).message}`);
      continue;
    }
    const found = entries
      .filter((entry) => PLAYTEST_FILE.test(entry))
      .filter(
        (entry) => !entry.split(/[\\/]/).some((part) => part === "node_modules" || part.startsWith(".")),
      )
      .map((entry) => entry.split("\\").join("/"))
      .sort();
    if (found.length === 0) errors.push(`no play-tests (*.test.yaml, *.test.yml, *.test.json) in ${path}`);
    for (const entry of found) add(join(absolute, entry));
  }
  return { files, errors };
}
