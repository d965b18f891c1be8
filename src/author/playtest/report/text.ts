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
  const lines: string[] = [];
  for (const file of result.files) lines.push(...fileLines(file, paint));
  const { passed, failed } = countResults(result);
  if (lines.length > 0) lines.push("");
  const summary = `${passed} passed, ${failed} failed`;
  lines.push(paint(["bold", failed > 0 ? "red" : "green"], summary));
  return `${lines.join("\n")}\n`;
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
