import { formatPosition } from "../../../world/diagnostic.ts";
import { escapeXml } from "../../xml.ts";
import { countResults, type FileResult, type RunResult, type TestResult } from "../run.ts";

/**
 * JUnit XML for CI systems: one <testsuite> per play-test file, one
 * <testcase> per play-test, a <failure> holding every failed expectation
 * with its position. A file that cannot run is one <testcase> with an
 * <error>. A pure function of the results; the output is well-formed XML
 * whatever the names hold.
 */
export function formatJunit(result: RunResult): string {
  const { passed, failed } = countResults(result);
  const time = seconds(sum(result.files.flatMap((f) => f.tests.map((t) => t.durationMs))));
  const errors = result.files.filter((f) => f.problems.length > 0).length;
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="taleforge test" tests="${passed + failed}" failures="${failed - errors}" errors="${errors}" time="${time}">`,
  ];
  for (const file of result.files) lines.push(...suite(file));
  lines.push("</testsuites>");
  return `${lines.join("\n")}\n`;
}

function suite(file: FileResult): string[] {
  const name = attr(file.file);
  if (file.problems.length > 0) {
    const body = file.problems.map((p) => `${formatPosition(file.file, p)}  ${p.code}  ${p.message}`);
    return [
      `  <testsuite name="${name}" tests="1" failures="0" errors="1" skipped="0" time="0" file="${name}">`,
      `    <testcase name="${attr("(play-test file)")}" classname="${name}" file="${name}" time="0">`,
      `      <error message="${attr(`The play-test file cannot run: ${file.problems[0]!.message}`)}" type="${attr(file.problems[0]!.code)}">${text(body)}</error>`,
      "    </testcase>",
      ...file.tests.flatMap((t) => testcase(file, t)),
      "  </testsuite>",
    ];
  }
  const failures = file.tests.filter((t) => !t.passed).length;
  const time = seconds(sum(file.tests.map((t) => t.durationMs)));
  return [
    `  <testsuite name="${name}" tests="${file.tests.length}" failures="${failures}" errors="0" skipped="0" time="${time}" file="${name}">`,
    ...file.tests.flatMap((t) => testcase(file, t)),
    "  </testsuite>",
  ];
}

function testcase(file: FileResult, test: TestResult): string[] {
  const open = `    <testcase name="${attr(test.name)}" classname="${attr(file.file)}" file="${attr(file.file)}" time="${seconds(test.durationMs)}"`;
  if (test.passed) return [`${open}/>`];
  const first = test.failures[0];
  const count = test.failures.length;
  const message = `${first ? `${formatPosition(file.file, first)} ${first.message}` : "failed"}${count > 1 ? ` (and ${count - 1} more)` : ""}`;
  const body = test.failures.map((f) => `${formatPosition(file.file, f)}  ${f.message}`);
  return [
    `${open}>`,
    `      <failure message="${attr(message)}" type="expectation">${text(body)}</failure>`,
    "    </testcase>",
  ];
}

function attr(value: string): string {
  return escapeXml(value);
}

/** Element text: escaped line by line, the line breaks kept as they are. */
function text(lines: string[]): string {
  return lines.map((l) => escapeXml(l)).join("\n");
}

function seconds(ms: number): string {
  return (Math.round(ms) / 1000).toFixed(3);
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
