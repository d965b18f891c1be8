import { Command, CommanderError } from "commander";
import { EXIT_OK, EXIT_USAGE, fail, reasonOf } from "./exit.ts";
import { type CliIo, processIo, wantsColor } from "./io.ts";
import { TOOL } from "./tool.ts";

/**
 * Runs the command line and returns the exit code; never throws and never
 * exits, so that tests can call it. Each command's module is loaded only when
 * that command runs, which keeps `--help` and `--version` fast.
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let code = EXIT_OK;
  const program = buildProgram(io, (result) => {
    code = result;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (error) {
    // Commander has already printed its message (help and --version are "errors" with code 0).
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    return fail(
      io,
      `internal error: ${reasonOf(error)}. This is a Taleforge bug: please report it with the command you ran.`,
    );
  }
  return code;
}

/** The process entry (bin/taleforge.js): the only place that sets the exit code. */
export async function main(): Promise<void> {
  process.exitCode = await run(process.argv.slice(2), processIo());
}

function buildProgram(io: CliIo, done: (code: number) => void): Command {
  const program = new Command("taleforge")
    .description("Author toolkit for V33 worlds: AI-narrated, turn-based text role-playing games.")
    .version(TOOL.version, "-v, --version", "print the version")
    .helpOption("-h, --help", "print help")
    .exitOverride()
    .configureOutput(outputFor(io, "taleforge"));

  const check = program
    .command("check")
    .description("Check a world file: its JSON, the shape of every section, and every rule.")
    .argument("<world>", "the world file (.json), or - to read it from stdin")
    .option("-f, --format <name>", "output format: stylish, json or sarif", "stylish")
    .option("--max-warnings <n>", "exit with 1 when there are more than n warnings")
    .addHelpText(
      "after",
      [
        "",
        "Exit codes:",
        "  0  no errors (and no more warnings than --max-warnings)",
        "  1  the world has errors (or too many warnings)",
        "  2  it could not be checked: bad option, missing or unreadable file",
        "",
        "Examples:",
        "  taleforge check examples/harbor.world.json",
        "  taleforge check --format sarif my.world.json > taleforge.sarif",
        "  cat my.world.json | taleforge check -",
      ].join("\n"),
    )
    .action(async (world: string, options: { format: string; maxWarnings?: string }) => {
      const { check } = await import("./check.ts");
      done(await check(world, options, io));
    });
  check.configureOutput(outputFor(io, "taleforge check"));

  const schema = program
    .command("schema")
    .description("Print the JSON Schema of the world format, for completion and inline errors in editors.")
    .option("-o, --output <file>", "write the schema to a file instead of stdout")
    .addHelpText("after", "\nExample:\n  taleforge schema --output world.schema.json")
    .action(async (options: { output?: string }) => {
      const { schema } = await import("./schema.ts");
      done(await schema(options, io));
    });
  schema.configureOutput(outputFor(io, "taleforge schema"));

  return program;
}

/** Commander's output through our writers, with its errors as one line that says where to look. */
function outputFor(io: CliIo, command: string) {
  return {
    writeOut: (text: string) => io.stdout(text),
    writeErr: (text: string) => io.stderr(text),
    getOutHasColors: () => wantsColor(io),
    getErrHasColors: () => false,
    getOutHelpWidth: () => 80,
    getErrHelpWidth: () => 80,
    outputError: (text: string, write: (text: string) => void) => {
      const message = text
        .trim()
        .replace(/^error: /, "")
        .replace(/\s*\n\s*/g, " ")
        .replace(/\.$/, "");
      write(`${command}: ${message}. Run "${command} --help" for usage.\n`);
    },
  };
}
