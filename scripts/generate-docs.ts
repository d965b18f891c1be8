/**
 * Writes docs/rules.md from the catalogue. With --check, writes nothing and
 * fails when the file on disk is not what would be written (CI runs this).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CATALOGUE, RULES } from "../src/world/rules/index.ts";
import { readBaseWorld, renderRulesDoc } from "./rules-doc.ts";

const NAME = "docs/rules.md";
const TARGET = new URL(`../${NAME}`, import.meta.url);

/** The page as `biome check` wants it (it formats the JSON blocks too), so that the lint step agrees. */
function formatWithBiome(text: string): string {
  const biome = fileURLToPath(new URL("../node_modules/@biomejs/biome/bin/biome", import.meta.url));
  const result = spawnSync(process.execPath, [biome, "format", `--stdin-file-path=${NAME}`], {
    input: text,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`biome could not format ${NAME}:\n${result.stderr}`);
  return result.stdout;
}

const expected = formatWithBiome(renderRulesDoc(CATALOGUE, RULES, readBaseWorld()));
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
