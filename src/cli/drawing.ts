import { writeFile } from "node:fs/promises";
import { countByCode, type Diagnostic, formatCodeCount } from "../world/diagnostic.ts";
import type { LoadedWorld } from "../world/load.ts";
import type { World } from "../world/schema/index.ts";
import { fail, reasonOf } from "./exit.ts";
import type { CliIo } from "./io.ts";
import { readWorldArgument } from "./world-file.ts";

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
      /** The records that passed their shape check, with stand-ins for the rest (ValidationResult.shaped). */
      world: World;
      /** The world as loaded (compatibility steps applied), for reading a save against it. */
      loaded: LoadedWorld;
      errorCount: number;
      /** One line for stderr when there are errors, else "". */
      errorSummary: string;
    }
  | { ok: false; code: number };

export async function readWorldToDraw(file: string, what: string, io: CliIo): Promise<WorldToDraw> {
  const read = await readWorldArgument(file, io);
  if (!read.ok) return read;
  const { loaded, checked } = read;
  if (loaded.fatal || !loaded.value || !checked.shaped) {
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
  return {
    ok: true,
    world: checked.shaped,
    loaded,
    errorCount: checked.errorCount,
    errorSummary: checked.errorCount > 0 ? summarise(loaded.file, checked.diagnostics, what) : "",
  };
}

/** "x.json has 4 errors (quest/no-init-trigger ×4); …": codes by count, most frequent first. */
function summarise(file: string, diagnostics: readonly Diagnostic[], what: string): string {
  const counts = countByCode(diagnostics.filter((d) => d.severity === "error"));
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const codes = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 4)
    .map(([code, n]) => formatCodeCount(code, n));
  const more = counts.size > 4 ? ", …" : "";
  const name = file === "<stdin>" ? "-" : file;
  return `taleforge: ${file} has ${total} error${total === 1 ? "" : "s"} (${codes.join(", ")}${more}); ${what} shows only the records that are well formed. Run "taleforge check ${name}" to see them.\n`;
}

/** A drawing written to a file, with the picture's size when it was rendered to a PNG. */
export type Written = { ok: true; png: { width: number; height: number } | undefined } | { ok: false };

/**
 * Writes a drawing to a file: the text as it is, or with `png` the SVG
 * rendered to an image (with a warning when no font was found, so the image
 * has no text). When it cannot be rendered or written: one line, and the
 * caller exits 2. Each command says what it wrote.
 */
export async function writeDrawing(io: CliIo, path: string, text: string, png: boolean): Promise<Written> {
  let content: string | Uint8Array = text;
  let size: { width: number; height: number } | undefined;
  if (png) {
    try {
      const { svgToPng } = await import("./png.ts");
      const image = await svgToPng(text);
      if (!image.hasText)
        io.stderr(
          "taleforge: no font found on this system, so the PNG has no text. Install one (e.g. apt-get install fonts-dejavu-core) or write an .svg.\n",
        );
      content = image.data;
      size = { width: image.width, height: image.height };
    } catch (error) {
      fail(io, `cannot render a PNG here: ${reasonOf(error)}. Write an .svg instead.`);
      return { ok: false };
    }
  }
  try {
    await writeFile(path, content);
    return { ok: true, png: size };
  } catch (error) {
    fail(io, `cannot write ${path}: ${reasonOf(error)}. Check that its folder exists and is writable.`);
    return { ok: false };
  }
}

/** The lower-cased extension of a path, with its dot ("" when none). */
export function extensionOf(path: string): string {
  const match = /\.[^./\\]+$/.exec(path);
  return match ? match[0].toLowerCase() : "";
}
