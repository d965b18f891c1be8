import { access, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { starterPlaytest } from "../author/starter-playtest.ts";
import { starterWorld } from "../world/starter.ts";
import { EXIT_OK, fail, reasonOf } from "./exit.ts";
import type { CliIo } from "./io.ts";

export interface InitOptions {
  /** Overwrite files that exist. */
  force?: boolean;
  /** Also write a play-test beside the world (default true; `--no-test` turns it off). */
  test?: boolean;
}

export const DEFAULT_WORLD_FILE = "my.world.json";

/**
 * `taleforge init [file]`: writes the starter world (src/author/starter.ts),
 * which checks and lints clean, and a play-test of it beside it
 * (`<name>.test.yaml`). Refuses to overwrite a file unless --force: an
 * author's world is never replaced by accident. Returns 0, or 2 when a file
 * exists or cannot be written.
 */
export async function init(file: string | undefined, options: InitOptions, io: CliIo): Promise<number> {
  const worldFile = file ?? DEFAULT_WORLD_FILE;
  const cwd = io.cwd ?? process.cwd();
  const worldPath = resolve(cwd, worldFile);
  const stem = basename(worldFile).replace(/(\.world)?\.json$/i, "");
  const testPath = join(dirname(worldPath), `${stem}.test.yaml`);
  const files: [string, string][] = [[worldPath, `${JSON.stringify(starterWorld(), null, 2)}\n`]];
  if (options.test !== false) files.push([testPath, starterPlaytest(basename(worldPath))]);
  const flag = options.force === true ? "w" : "wx";
  if (flag === "wx") {
    // Checked before writing anything, so that a refusal leaves no half of the pair behind.
    for (const [path] of files) {
      if (await exists(path))
        return fail(io, `${path} already exists. Pick another name, or pass --force to overwrite it.`);
    }
  }
  for (const [path, text] of files) {
    try {
      // "wx" creates the file or fails when it exists, with no window between a check and the write.
      await writeFile(path, text, { flag });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST")
        return fail(io, `${path} already exists. Pick another name, or pass --force to overwrite it.`);
      return fail(
        io,
        `cannot write ${path}: ${reasonOf(error)}. Check that its folder exists and is writable.`,
      );
    }
  }
  const [world, test] = files.map(([path]) => relative(cwd, path) || path);
  io.stdout(
    [
      `Wrote ${world}${test ? ` and its play-test ${test}` : ""}.`,
      "Next:",
      `  taleforge check ${world}      # it checks clean; edit it and check again`,
      ...(test ? [`  taleforge test ${test}`] : []),
      `  taleforge play ${world}`,
      "Every section and field is described in docs/format.md (and in `taleforge schema`, for editors).",
      "",
    ].join("\n"),
  );
  return EXIT_OK;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
