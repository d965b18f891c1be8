import type { CliIo } from "./io.ts";

/**
 * One command of `taleforge`, as data: what `--help` shows, what
 * docs/cli.md's reference lists (both are rendered from it), and `run`.
 * A command module (src/cli/commands/<name>.ts) stays small: `run` loads the
 * command's implementation only when the command runs, so `--help`,
 * `--version` and every other command start without it.
 */
export interface CommandSpec {
  name: string;
  /** One sentence: what the command does (the help's description). */
  summary: string;
  arguments: readonly CommandArgument[];
  options: readonly CommandOption[];
  /** Lines of help before the exit codes, if any. */
  about?: readonly string[];
  exitCodes: readonly ExitCode[];
  /** How `--help` shows the exit codes: one per line, on one line, or not at all (docs/cli.md always lists them). */
  exitCodesInHelp: "list" | "line" | "none";
  /** Command lines, each optionally followed by `  # a comment`. */
  examples: readonly string[];
  /** Lines of help after the examples, as written. */
  footer?: readonly string[];
  /** Runs the command with commander's parsed arguments (in order) and options; resolves to the exit code. */
  run(args: readonly unknown[], options: Record<string, unknown>, io: CliIo): Promise<number>;
}

export interface CommandArgument {
  /** `<name>` (required), `[name]` (optional), `<name...>` (one or more). */
  name: string;
  description: string;
  default?: string;
}

export interface CommandOption {
  /** Commander's flags: `-f, --format <name>`, `--force`, `--no-test`. */
  flags: string;
  description: string;
  default?: string;
  /** May be given several times; the values arrive as a list in order. */
  repeatable?: boolean;
  required?: boolean;
}

export interface ExitCode {
  code: number;
  /** What it means; a second line continues the first (--help joins and wraps them). */
  meaning: string | readonly string[];
}

export function defineCommand(spec: CommandSpec): CommandSpec {
  return spec;
}

/** The widest line of the prose after a command's help: commander wraps its own part at 80 columns too. */
export const HELP_WIDTH = 80;

/**
 * A prose line of the help broken at spaces to HELP_WIDTH, its continuation
 * lines indented as `indent` says (an exit code's meaning lines up under itself).
 */
function wrapped(line: string, indent = line.length - line.trimStart().length): string[] {
  const out: string[] = [];
  let rest = line;
  while (rest.length > HELP_WIDTH) {
    const at = rest.lastIndexOf(" ", HELP_WIDTH);
    // A word longer than the line (a URL) stays whole.
    if (at <= indent) break;
    out.push(rest.slice(0, at).trimEnd());
    rest = `${" ".repeat(indent)}${rest.slice(at + 1).trimStart()}`;
  }
  out.push(rest);
  return out;
}

/**
 * The text after a command's help: its about lines, exit codes, examples and
 * footer. The prose is wrapped to HELP_WIDTH; an example stays on its line,
 * to be copied whole.
 */
export function helpAfter(spec: CommandSpec): string {
  const lines: string[] = [];
  const examples: string[] = [];
  if (spec.about) lines.push(...spec.about.flatMap((line) => wrapped(line)), "");
  if (spec.exitCodesInHelp === "list") {
    lines.push("Exit codes:");
    for (const { code, meaning } of spec.exitCodes) {
      const lead = `  ${code}  `;
      lines.push(...wrapped(`${lead}${flat(meaning)}`, lead.length));
    }
    lines.push("");
  } else if (spec.exitCodesInHelp === "line") {
    lines.push(
      ...wrapped(
        `Exit codes: ${spec.exitCodes.map(({ code, meaning }) => `${code} ${flat(meaning)}`).join(", ")}.`,
        2,
      ),
      "",
    );
  }
  examples.push(
    spec.examples.length === 1 ? "Example:" : "Examples:",
    ...spec.examples.map((line) => `  ${line}`),
  );
  const footer = (spec.footer ?? []).flatMap((line) => wrapped(line));
  return ["", ...lines, ...examples, ...footer].join("\n");
}

/** An exit code's meaning on one line. */
export function flat(meaning: string | readonly string[]): string {
  return typeof meaning === "string" ? meaning : meaning.join(" ");
}
