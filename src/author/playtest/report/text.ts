import { formatPosition } from "../../../world/diagnostic.ts";
import { codeFrame } from "../../../world/source.ts";
import { type Paint, painter } from "../../paint.ts";
import type { Problem } from "../problem.ts";
import { countResults, type FileResult, type RunResult, type TestResult } from "../run.ts";

export interface TextOptions {
  color: boolean;
}

/**
 * Play-test results for people: one line per test (✔ or ✖, file › name,
 * steps and time), one line per failure with its file position, a code frame
 * under each problem of a file that cannot run, and a closing
 * `N passed, N failed` line. A pure function of the results.
 */
export function formatResults(result: RunResult, options: TextOptions): string {
  const paint = painter(options.color);
  const lines: string[] = worldErrorLines(result, paint);
  for (const file of result.files) lines.push(...fileLines(file, paint));
  const { passed, failed } = countResults(result);
  if (lines.length > 0) lines.push("");
  const summary = `${passed} passed, ${failed} failed`;
  lines.push(paint(["bold", failed > 0 ? "red" : "green"], summary));
  return `${lines.join("\n")}\n`;
}

/**
 * The heading of a run whose worlds have errors that do not stop play (all
 * from rules): the play-tests ran as `taleforge play` would, and --strict
 * makes such a world fail them. Empty when every world is clean.
 */
export function formatWorldErrors(result: RunResult, options: TextOptions): string {
  const lines = worldErrorLines(result, painter(options.color));
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}

function worldErrorLines(result: RunResult, paint: Paint): string[] {
  const lines: string[] = [];
  for (const { world, errors } of result.worldErrors ?? []) {
    const count = `${errors.length} error${errors.length === 1 ? "" : "s"}`;
    lines.push(
      `${paint(["bold", "yellow"], "⚠")} ${paint("bold", world)} has ${count}, all from rules: its play-tests ran anyway, as \`taleforge play\` runs it (--strict fails them).`,
    );
    for (const error of errors.slice(0, 10)) lines.push(`    ${error}`);
    if (errors.length > 10)
      lines.push(`    … and ${errors.length - 10} more: run \`taleforge check ${world}\`.`);
    lines.push("");
  }
  return lines;
}

function fileLines(file: FileResult, paint: Paint): string[] {
  const lines: string[] = [];
  if (file.problems.length > 0) {
    const count = file.problems.length;
    lines.push(
      `${paint("red", "✖")} ${paint("bold", file.file)} ${paint("gray", `(cannot run: ${count} problem${count === 1 ? "" : "s"} in the file)`)}`,
    );
    for (const p of file.problems) lines.push(...problemLines(file, p, paint));
  }
  for (const test of file.tests) lines.push(...testLines(file, test, paint));
  return lines;
}

function testLines(file: FileResult, test: TestResult, paint: Paint): string[] {
  const mark = test.passed ? paint("green", "✔") : paint("red", "✖");
  const steps =
    test.ran === test.steps
      ? `${test.steps} step${test.steps === 1 ? "" : "s"}`
      : `${test.ran} of ${test.steps} steps`;
  const lines = [
    `${mark} ${file.file} › ${paint("bold", test.name)} ${paint("gray", `(${steps}, ${formatMs(test.durationMs)})`)}`,
  ];
  for (const f of test.failures)
    lines.push(`    ${paint("bold", formatPosition(file.file, f))}  ${f.message}`);
  return lines;
}

function problemLines(file: FileResult, p: Problem, paint: Paint): string[] {
  const lines = [
    `    ${paint("bold", formatPosition(file.file, p))}  ${paint("gray", p.code)}  ${p.message}`,
  ];
  if (p.line !== null && p.column !== null && file.source.text !== "") {
    for (const line of codeFrame(file.source, p.line, p.column).split("\n")) lines.push(`      ${line}`);
  }
  return lines;
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
