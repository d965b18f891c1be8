import { Command, CommanderError } from "commander";
import { EXIT_OK, EXIT_USAGE, fail, reasonOf } from "./exit.ts";
import { type CliIo, processIo, terminalSafeIo, wantsColor } from "./io.ts";
import { registerServe } from "./serve.ts";
import { TOOL } from "./tool.ts";
import type { ReportOptions } from "./world-report.ts";

/**
 * Runs the command line and returns the exit code; never throws and never
 * exits, so that tests can call it. Each command's module is loaded only when
 * that command runs, which keeps `--help` and `--version` fast.
 */
export async function run(argv: readonly string[], given: CliIo): Promise<number> {
  // Nothing any command prints may drive the terminal (issue 15 item 11).
  const io = terminalSafeIo(given);
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

  registerReport(program, io, done, {
    name: "check",
    description: "Check a world file: its JSON, the shape of every section, and every rule.",
    participle: "checked",
    examples: [
      "taleforge check examples/harbor.world.json",
      "taleforge check --format sarif my.world.json > taleforge.sarif",
      "cat my.world.json | taleforge check -",
    ],
    command: async () => (await import("./check.ts")).check,
  });

  subcommand(program, io, "schema")
    .description("Print the JSON Schema of the world format, for completion and inline errors in editors.")
    .option("-o, --output <file>", "write the schema to a file instead of stdout")
    .addHelpText("after", helpAfter(["Example:", "  taleforge schema --output world.schema.json"]))
    .action(async (options: { output?: string }) => {
      const { schema } = await import("./schema.ts");
      done(await schema(options, io));
    });

  registerPlay(program, io, done);
  registerAuthorTools(program, io, done);

  subcommand(program, io, "init")
    .description("Start a world: write a small world that checks clean, and a play-test of it.")
    .argument("[file]", "the world file to write", "my.world.json")
    .option("--force", "overwrite the files if they exist")
    .option("--no-test", "write only the world, not its play-test (<name>.test.yaml)")
    .addHelpText(
      "after",
      helpAfter([
        "Exit codes: 0 written, 2 a file exists (without --force) or cannot be written.",
        "",
        "Examples:",
        "  taleforge init                     # my.world.json and my.test.yaml",
        "  taleforge init castle.world.json   # castle.world.json and castle.test.yaml",
      ]),
    )
    .action(async (file: string, options: import("./init.ts").InitOptions) => {
      const { init } = await import("./init.ts");
      done(await init(file, options, io));
    });

  // taleforge serve (src/cli/serve.ts): games over HTTP; the server loads only when it runs.
  registerServe(subcommand(program, io, "serve"), io, done);
  return program;
}

/** The text after a command's help: a blank line, then these lines. */
function helpAfter(lines: readonly string[]): string {
  return ["", ...lines].join("\n");
}

/** What differs between `check` and `lint`: the same argument, options and exit codes. */
interface ReportCommand {
  name: "check" | "lint";
  description: string;
  /** Lines before the exit codes, if any. */
  about?: string[];
  /** "it could not be <participle>". */
  participle: string;
  examples: string[];
  command: () => Promise<(file: string, options: ReportOptions, io: CliIo) => Promise<number>>;
}

/** `check` and `lint`: a world (or - for stdin) reported on in a format, exit 1 on errors or too many warnings. */
function registerReport(program: Command, io: CliIo, done: (code: number) => void, report: ReportCommand) {
  subcommand(program, io, report.name)
    .description(report.description)
    .argument("<world>", "the world file (.json), or - to read it from stdin")
    .option("-f, --format <name>", "output format: stylish, json or sarif", "stylish")
    .option("--max-warnings <n>", "exit with 1 when there are more than n warnings")
    .addHelpText(
      "after",
      helpAfter([
        ...(report.about ? [...report.about, ""] : []),
        "Exit codes:",
        "  0  no errors (and no more warnings than --max-warnings)",
        "  1  the world has errors (or too many warnings)",
        `  2  it could not be ${report.participle}: bad option, missing or unreadable file`,
        "",
        "Examples:",
        ...report.examples.map((line) => `  ${line}`),
      ]),
    )
    .action(async (world: string, options: ReportOptions) => {
      const run = await report.command();
      done(await run(world, options, io));
    });
}

/** A command whose messages go through our writers, as one line naming the command (outputFor). */
function subcommand(program: Command, io: CliIo, name: string): Command {
  return program.command(name).configureOutput(outputFor(io, `taleforge ${name}`));
}

/** Collects a repeatable option's values in order. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function registerPlay(program: Command, io: CliIo, done: (code: number) => void) {
  subcommand(program, io, "play")
    .description("Play a world in the terminal, offline or with any OpenAI-compatible model.")
    .argument("[world]", "the world file (.json); default: the example world that ships with Taleforge")
    .option("--start <story start>", "the story start to begin with (default: the world's default)")
    .option("--premade <name>", "play a premade character (repeat for more players)", collect)
    .option(
      "--player <name[:trait,...]>",
      "play a made-up character with the given traits (repeat for more players)",
      collect,
    )
    .option("--mode <game mode>", "the game mode whose instructions the narrator follows")
    .option("--provider <name>", "offline (default) or openai (any OpenAI-compatible server)")
    .option("--model <name>", "the model name (openai provider)")
    .option("--base-url <url>", "the server's base URL, e.g. http://127.0.0.1:11434/v1 (implies openai)")
    .option("--api-key <key>", "the API key (prefer TALEFORGE_API_KEY or OPENAI_API_KEY)")
    .option("--embedding-model <name>", "a model for embeddings (optional; openai provider)")
    .option("--timeout <seconds>", "per-request timeout of the openai provider")
    .option("--context-tokens <tokens>", "the server's context window; prompt budgets derive from it")
    .option("--config <file>", "a JSON config file with provider settings")
    .option("--seed <n>", "the seed of every random choice (default 1)")
    .option("--save <file>", "save the game to this file after every turn and on /save")
    .option("--load <file>", "resume a saved game")
    .option("--record <cassette>", "write every AI request and answer of the game to a cassette file")
    .option("--replay <cassette>", "replay a recorded game from its cassette, exactly")
    .option("--trace", "print the trace of every turn")
    .addHelpText(
      "after",
      helpAfter([
        "In the game, type what your character does, or a command:",
        "  /help /quests /party /inventory /map /storage /trace /save /load /undo /quit",
        "When stdin is not a terminal, every line is one action, so a game can be piped.",
        "",
        "Examples:",
        "  taleforge play                                  # the example world, offline",
        '  taleforge play my.world.json --premade "Isobel Carrow"',
        "  taleforge play my.world.json --base-url http://127.0.0.1:11434/v1 --model llama3.1",
        "  printf 'walk to the Gutted Eel\\n/quit\\n' | taleforge play",
      ]),
    )
    .action(async (world: string | undefined, options: import("./play/options.ts").PlayFlags) => {
      const { play: run } = await import("./play/index.ts");
      done(await run(world, options, io));
    });
}

function registerAuthorTools(program: Command, io: CliIo, done: (code: number) => void) {
  subcommand(program, io, "test")
    .description("Run play-tests (*.test.yaml): scripted turns with expectations on the state.")
    .argument("<paths...>", "play-test files, or folders to search for *.test.yaml / *.test.json")
    .option("-f, --format <name>", "output format: text or junit", "text")
    .option("--coverage", "report which triggers, effects and quest statuses the tests reached")
    .option(
      "--strict",
      "fail the play-tests of a world with errors (by default rule errors are shown and it runs)",
    )
    .addHelpText(
      "after",
      helpAfter([
        "Exit codes:",
        "  0  every play-test passed",
        "  1  a play-test failed, or a play-test file (or its world) is broken",
        "     (a world whose errors all come from rules runs, as in play, unless --strict)",
        "  2  nothing ran: bad option, a path that does not exist, a folder without play-tests",
        "",
        "Examples:",
        "  taleforge test examples/tests",
        "  taleforge test examples/tests/main-quest.test.yaml --coverage",
        "  taleforge test tests --format junit > playtests.xml",
        "",
        "The format: docs/playtests.md",
      ]),
    )
    .action(async (paths: string[], options: Record<string, unknown>) => {
      const { test: run } = await import("./test.ts");
      done(await run(paths, options, io));
    });

  subcommand(program, io, "explain")
    .description("Dry-run one turn on a saved game and print why each trigger did or did not fire.")
    .argument("<world>", "the world file (.json)")
    .requiredOption("--save <file>", "the saved game to start from (it is not changed)")
    .requiredOption("--act <text>", "the player's action")
    .option("--player <name>", "the acting player (default: the first)")
    .option("--intent <intent>", "pin the classifier's answer")
    .option("--target <place>", "pin the intent's target")
    .option("--story <text>", "pin the narration text")
    .option("--judge <trigger=true|false>", "pin an AI verdict, by trigger key (repeatable)", collect)
    .option("-f, --format <name>", "output format: text or json", "text")
    .addHelpText(
      "after",
      helpAfter([
        "Exit codes:",
        "  0  the turn ran and its trace was printed (the save is never written)",
        "  1  the world does not load, or the save is damaged or of another world",
        "  2  bad option, unknown player or judge trigger, missing or unreadable file",
        "",
        "Examples:",
        '  taleforge explain examples/harbor.world.json --save game.save.json --act "read the logbook"',
        '  taleforge explain my.world.json --save s.json --act "light the lamp" --judge light_the_beacon=true',
        '  taleforge explain my.world.json --save s.json --act "go east" --intent travel --target "Old Mill" -f json',
      ]),
    )
    .action(async (world: string, options: Record<string, unknown>) => {
      const { explain: run } = await import("./explain.ts");
      done(await run(world, options, io));
    });

  registerReport(program, io, done, {
    name: "lint",
    description: "Check a world, then find what silently breaks play: unreachable quests, dead triggers...",
    about: [
      "Runs every rule of check, then the lint/ rules (docs/rules.md), which report only",
      "what can never happen in play, whatever the player and the AI do.",
    ],
    participle: "linted",
    examples: [
      "taleforge lint examples/harbor.world.json",
      "taleforge lint --max-warnings 0 --format sarif my.world.json > taleforge.sarif",
      "cat my.world.json | taleforge lint -",
    ],
    command: async () => (await import("./lint.ts")).lint,
  });

  subcommand(program, io, "graph")
    .description("Draw the world's logic: triggers, the quests and events they move, storage keys.")
    .argument("<world>", "the world file (.json)")
    .option("-f, --format <name>", "mermaid, dot or svg", "mermaid")
    .option("-o, --output <file>", "write to a file instead of stdout")
    .addHelpText(
      "after",
      helpAfter([
        "Exit codes: 0 drawn, 1 the world has errors (what is valid is still drawn), 2 could not run.",
        "",
        "Examples:",
        "  taleforge graph examples/harbor.world.json > harbor.mmd",
        "  taleforge graph examples/harbor.world.json --format svg -o graph.svg",
        "  taleforge graph my.world.json -f dot | dot -Tpng > graph.png",
      ]),
    )
    .action(async (world: string, options: Record<string, unknown>) => {
      const { graph: run } = await import("./graph.ts");
      done(await run(world, options, io));
    });

  subcommand(program, io, "map")
    .description("Draw a realm's map: the region grid and its locations, known and unknown.")
    .argument("<world>", "the world file (.json)")
    .option("--realm <name>", "the realm to draw (default: the first)")
    .option("--save <file>", "style places as known or unknown in this saved game")
    .option("-o, --output <file>", "map.svg or map.png (default: SVG on stdout)")
    .addHelpText(
      "after",
      helpAfter([
        "Exit codes: 0 drawn, 1 the world has errors (what is valid is still drawn), 2 could not run.",
        "",
        "Examples:",
        "  taleforge map examples/harbor.world.json -o map.png",
        '  taleforge map my.world.json --realm "Underdark" --save game.json -o underdark.svg',
      ]),
    )
    .action(async (world: string, options: Record<string, unknown>) => {
      const { map: run } = await import("./map.ts");
      done(await run(world, options, io));
    });
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
