/**
 * Writes docs/rules.md from the catalogue. With --check, writes nothing and
 * fails when the file on disk is not what would be written (CI runs this).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { LINT_RULES } from "../src/world/lint/index.ts";
import { CATALOGUE, RULES } from "../src/world/rules/index.ts";
import { readBaseWorld, renderRulesDoc } from "./rules-doc.ts";

const NAME = "docs/rules.md";
const TARGET = new URL(`../${NAME}`, import.meta.url);

const expected = renderRulesDoc(CATALOGUE, [...RULES, ...LINT_RULES], readBaseWorld());
if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(TARGET, "utf8");
  } catch {
    // A missing file is stale like any other.
  }
  if (current !== expected) {
    console.error(
      `${NAME} is out of date with the rules catalogue. Run \`npm run docs\` and commit the result.`,
    );
    process.exitCode = 1;
  } else console.log(`${NAME} is up to date.`);
} else {
  writeFileSync(TARGET, expected);
  console.log(`Wrote ${NAME} (${CATALOGUE.length} codes).`);
}
