/**
 * Writes docs/rules.md from the catalogue. With --check, writes nothing and
 * fails when the file on disk is not what would be written (CI runs this).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { CATALOGUE } from "../src/world/catalogue.ts";
import { LINT_RULES } from "../src/world/lint/index.ts";
import { RULES } from "../src/world/rules/index.ts";
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

// docs/format.md: every section and field of the format, from the schemas' descriptions.
{
  const { renderFormatDoc } = await import("./format-doc.ts");
  const { starterWorld } = await import("../src/world/starter.ts");
  const FORMAT = "docs/format.md";
  const target = new URL(`../${FORMAT}`, import.meta.url);
  const harbor = JSON.parse(readFileSync(new URL("../examples/harbor.world.json", import.meta.url), "utf8"));
  const text = renderFormatDoc([starterWorld(), harbor]);
  if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(target, "utf8");
    } catch {
      // A missing file is stale like any other.
    }
    if (current !== text) {
      console.error(`${FORMAT} is out of date with the schemas. Run \`npm run docs\` and commit the result.`);
      process.exitCode = 1;
    } else console.log(`${FORMAT} is up to date.`);
  } else {
    writeFileSync(target, text);
    console.log(`Wrote ${FORMAT}.`);
  }
}

// docs/errors.md: the error tables of the engine, the AI layer, the play-tests and the server.
{
  const { ERROR_TABLES, renderErrorsDoc } = await import("./errors-doc.ts");
  const ERRORS = "docs/errors.md";
  const target = new URL(`../${ERRORS}`, import.meta.url);
  const text = renderErrorsDoc(ERROR_TABLES);
  if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(target, "utf8");
    } catch {
      // A missing file is stale like any other.
    }
    if (current !== text) {
      console.error(
        `${ERRORS} is out of date with the error tables. Run \`npm run docs\` and commit the result.`,
      );
      process.exitCode = 1;
    } else console.log(`${ERRORS} is up to date.`);
  } else {
    writeFileSync(target, text);
    console.log(`Wrote ${ERRORS}.`);
  }
}

// docs/cli.md: its synopsis and command reference, from the command modules (the prose is by hand).
{
  const { renderCliDoc } = await import("./cli-doc.ts");
  const { COMMANDS } = await import("../src/cli/commands/index.ts");
  const CLI = "docs/cli.md";
  const target = new URL(`../${CLI}`, import.meta.url);
  const current = readFileSync(target, "utf8");
  const text = renderCliDoc(current, COMMANDS);
  if (process.argv.includes("--check")) {
    if (current !== text) {
      console.error(`${CLI} is out of date with the commands. Run \`npm run docs\` and commit the result.`);
      process.exitCode = 1;
    } else console.log(`${CLI} is up to date.`);
  } else {
    writeFileSync(target, text);
    console.log(`Wrote ${CLI}.`);
  }
}

// docs/server.md: the table of the event stream's messages, from the one union of game events.
{
  const { renderEventsDoc } = await import("./events-doc.ts");
  const SERVER = "docs/server.md";
  const target = new URL(`../${SERVER}`, import.meta.url);
  const current = readFileSync(target, "utf8");
  const text = renderEventsDoc(current);
  if (process.argv.includes("--check")) {
    if (current !== text) {
      console.error(
        `${SERVER} is out of date with the game events. Run \`npm run docs\` and commit the result.`,
      );
      process.exitCode = 1;
    } else console.log(`${SERVER} is up to date.`);
  } else {
    writeFileSync(target, text);
    console.log(`Wrote ${SERVER}.`);
  }
}
