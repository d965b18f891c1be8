import { plural } from "../../author/paint.ts";
import { cleanWorld } from "../../host/outside-text.ts";
import { readCheckedWorld } from "../../world/checked-file.ts";
import { countByCode, formatCodeCount, formatPosition } from "../../world/diagnostic.ts";
import { playableWorld } from "../../world/repair.ts";
import type { World } from "../../world/schema/index.ts";
import { blockingErrors } from "../../world/validate.ts";
import { EXIT_PROBLEMS, fail } from "../exit.ts";
import type { CliIo } from "../io.ts";
import { stderrWrapped } from "./wrapper.ts";

/** A warning or error about the world on stderr, word-wrapped at a terminal (wrapper.ts). */
function warn(io: CliIo, text: string): void {
  stderrWrapped(io, text);
}

/**
 * The world, validated; or the exit code after saying why it cannot be played.
 * A world whose errors have one obvious reading (a missing map, an array for a
 * map, a trait requirement without amount, a name that differs from its key) is
 * repaired on a copy, with one warning line per repair (src/world/repair.ts);
 * `strict` refuses any error instead.
 */
export async function loadChecked(
  path: string,
  shown: string,
  io: CliIo,
  strict = false,
): Promise<World | number> {
  const read = await readCheckedWorld(path);
  if (!read.ok) return fail(io, read.unreadable.message.replace(path, shown));
  const errors = read.checked.diagnostics.filter((d) => d.severity === "error");
  if (strict && errors.length > 0) {
    warn(
      io,
      [
        `taleforge play: ${shown} has ${plural(errors.length, "error")} (${countCodes(errors)}), and --strict plays only a world without errors:`,
        ...errors.slice(0, 5).map((d) => `  ${formatPosition(shown, d)}  ${d.code}  ${d.message}`),
        ...(errors.length > 5 ? [`  ... and ${errors.length - 5} more.`] : []),
        `Run "taleforge check ${shown}" for the full report, or play without --strict.`,
        "",
      ].join("\n"),
    );
    return EXIT_PROBLEMS;
  }
  const playable = playableWorld(read.loaded, read.checked);
  if (playable.world) {
    for (const repair of playable.repairs)
      warn(io, `taleforge play: warning: ${shown}: repaired: ${repair.message}.\n`);
    if (playable.repairs.length > 0)
      warn(
        io,
        `taleforge play: ${shown} plays with ${plural(playable.repairs.length, "repair")}; "taleforge check ${shown}" still reports them as errors, and --strict refuses them.\n`,
      );
    // Rule errors leave a playable world (a quest that never starts, a stray reference): say so, then play.
    const left = playable.checked.diagnostics.filter((d) => d.severity === "error");
    if (left.length > 0)
      warn(
        io,
        `taleforge play: ${shown} has ${plural(left.length, "error")} (${countCodes(left)}); playing anyway, but they may break the story. Run "taleforge check ${shown}" for the details.\n`,
      );
    // Its text (names, descriptions) cleaned as the narration is: every view prints it plain.
    return cleanWorld(playable.world);
  }
  // Only what blocks play is named as the reason; rule errors are counted after (docs/cli.md: they do not block).
  const blocking = blockingErrors(read.checked);
  const others = errors.length - blocking.length;
  const shownErrors = blocking
    .slice(0, 5)
    .map((d) => `  ${formatPosition(shown, d)}  ${d.code}  ${d.message}`);
  warn(
    io,
    [
      `taleforge play: ${shown} has ${plural(blocking.length, "error")} that ${blocking.length === 1 ? "makes" : "make"} it impossible to play:`,
      ...shownErrors,
      ...(blocking.length > 5 ? [`  ... and ${blocking.length - 5} more.`] : []),
      ...(others > 0
        ? [
            `It also has ${plural(others, "rule error")} (${countCodes(errors.filter((d) => !blocking.includes(d)))}), which would not block play on their own.`,
          ]
        : []),
      `Run "taleforge check ${shown}" for the full report.`,
      "",
    ].join("\n"),
  );
  return EXIT_PROBLEMS;
}

/** "quest/no-init-trigger ×4, keys/name-mismatch": the codes of some diagnostics, counted. */
function countCodes(diagnostics: readonly { code: string }[]): string {
  return [...countByCode(diagnostics)].map(([code, n]) => formatCodeCount(code, n)).join(", ");
}
