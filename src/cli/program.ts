import { Command, CommanderError } from "commander";
import { type CommandSpec, helpAfter } from "./command.ts";
import { EXIT_OK, EXIT_USAGE, fail, reasonOf } from "./exit.ts";
import { type CliIo, terminalSafeIo, wantsColor } from "./io.ts";
import { TOOL } from "./tool.ts";

/**
 * Runs a command line made of the given commands and returns the exit code;
 * never throws and never exits. main.ts runs it with every command; the
 * built `check` and `lint` (check-cli.ts) with those two, which is the same
 * program for any command line that starts with either.
 */
export async function runProgram(
  argv: readonly string[],
  given: CliIo,
  commands: readonly CommandSpec[],
): Promise<number> {
  // Nothing any command prints may drive the terminal (issue 15 item 11).
  const io = terminalSafeIo(given);
  let code = EXIT_OK;
  const program = buildProgram(io, commands, (result) => {
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

function buildProgram(io: CliIo, commands: readonly CommandSpec[], done: (code: number) => void): Command {
  const program = new Command("taleforge")
    .description("Author toolkit for V33 worlds: AI-narrated, turn-based text role-playing games.")
    .version(TOOL.version, "-v, --version", "print the version")
    .helpOption("-h, --help", "print help")
    .exitOverride()
    .configureOutput(outputFor(io, "taleforge"));
  for (const spec of commands) register(program, io, done, spec);
  return program;
}

/** One command from its module: arguments, options and help text; `run` loads the command only when it runs. */
function register(program: Command, io: CliIo, done: (code: number) => void, spec: CommandSpec): void {
  const command = program
    .command(spec.name)
    .configureOutput(outputFor(io, `taleforge ${spec.name}`))
    .description(spec.summary);
  for (const argument of spec.arguments)
    if (argument.default === undefined) command.argument(argument.name, argument.description);
    else command.argument(argument.name, argument.description, argument.default);
  for (const option of spec.options) {
    const add = (option.required ? command.requiredOption : command.option).bind(command);
    if (option.repeatable) add(option.flags, option.description, collect);
    else if (option.default !== undefined) add(option.flags, option.description, option.default);
    else add(option.flags, option.description);
  }
  command.addHelpText("after", helpAfter(spec)).action(async (...parsed: unknown[]) => {
    // Commander passes the arguments in order, then the options and the command itself.
    const args = parsed.slice(0, spec.arguments.length);
    const options = parsed[spec.arguments.length] as Record<string, unknown>;
    done(await spec.run(args, options, io));
  });
}

/** Collects a repeatable option's values in order. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
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
