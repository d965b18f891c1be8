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

/**
 * A command line that is only a command's name and its one argument (`taleforge check my.world.json`,
 * what authors run on every save), run as commander would run it: the command's run with that
 * argument and its options' defaults, through the same writers and the same last guard. Building
 * the program and parsing the line with commander cost such a `check` about 15 M instructions
 * (docs/benchmarks.md, issue 38). Undefined for any other line, and for a command with an option
 * that is required, repeatable or negatable (`--no-x`, whose default commander sets itself), or
 * an argument that is not one required value: those go through commander.
 */
export function runDirect(
  argv: readonly string[],
  given: CliIo,
  commands: readonly CommandSpec[],
): Promise<number> | undefined {
  if (argv.length !== 2) return undefined;
  const [name, value] = argv as [string, string];
  if (value.startsWith("-")) return undefined;
  const spec = commands.find((c) => c.name === name);
  if (!spec) return undefined;
  if (spec.arguments.length !== 1 || !/^<[^.<>[\]]+>$/.test(spec.arguments[0]!.name)) return undefined;
  const options: Record<string, unknown> = {};
  for (const option of spec.options) {
    const long = /--([a-z][a-z0-9-]*)/.exec(option.flags)?.[1];
    if (!long || option.required || option.repeatable || long.startsWith("no-")) return undefined;
    if (option.default !== undefined)
      options[long.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())] = option.default;
  }
  const io = terminalSafeIo(given);
  return spec
    .run([value], options, io)
    .catch((error: unknown) =>
      fail(
        io,
        `internal error: ${reasonOf(error)}. This is a Taleforge bug: please report it with the command you ran.`,
      ),
    );
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
