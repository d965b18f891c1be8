import { terminalSafe } from "../world/terminal-text.ts";
/**
 * What a command may touch of the outside world. Commands take it as a
 * parameter so that tests can run them in-process with their own writers,
 * terminal flag, environment and stdin.
 */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stdout is a terminal (colour is only for terminals). */
  isTTY: boolean;
  env: Readonly<Record<string, string | undefined>>;
  readStdin(): Promise<string>;
  /** Standard input as a stream, for commands that read it line by line (play). */
  stdin?: NodeJS.ReadableStream;
  /** Whether stdin is a terminal (play asks questions only then). */
  stdinIsTTY?: boolean;
  /** The working folder, for relative paths and config files (default: process.cwd()). */
  cwd?: string;
  /** The terminal's width, when stdout is one (play wraps prose to it). */
  columns?: number;
  /**
   * Where a progress bar of long work is drawn (process.stderr): only when it
   * is a terminal (cli/progress.ts). Raw, not through terminalSafe: the bar
   * moves the cursor, and its text is Taleforge's own, never the world's.
   */
  progressStream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /**
   * stdout without the terminalSafe guard, for readline's line editing at a
   * terminal (play): it moves the cursor on purpose, and what it echoes is
   * the player's own typing. Everything else goes through stdout.
   */
  rawStdout?: (text: string) => void;
}

export function processIo(): CliIo {
  // `taleforge schema | head` closes the pipe early: that is the reader's choice, not a failure.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    isTTY: process.stdout.isTTY === true,
    env: process.env,
    readStdin,
    cwd: process.cwd(),
    ...(process.stdout.columns ? { columns: process.stdout.columns } : {}),
    rawStdout: (text) => process.stdout.write(text),
  };
  // Node makes process.stdin and process.stderr on first use (a stream over a pipe, a file or a
  // terminal, with the modules behind it): only the commands that read them (play, a progress
  // bar) pay for them, not every `check` of a file.
  return Object.defineProperties(io, {
    stdin: { get: () => process.stdin, enumerable: true, configurable: true },
    stdinIsTTY: { get: () => process.stdin.isTTY === true, enumerable: true, configurable: true },
    progressStream: { get: () => process.stderr, enumerable: true, configurable: true },
  });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Colour only on a terminal, and never when NO_COLOR is set to anything but "" (no-color.org). */
export function wantsColor(io: Pick<CliIo, "isTTY" | "env">): boolean {
  return io.isTTY && !io.env.NO_COLOR;
}

/**
 * The same console, with every write passed through terminalSafe: the last
 * guard against control characters from worlds, scripts, models and players
 * (src/world/terminal-text.ts). Every command runs behind it (main.ts).
 */
export function terminalSafeIo(io: CliIo): CliIo {
  // The other fields as they are, getters included (processIo's streams are made on first use).
  const field = (value: (text: string) => void) => ({
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
  return Object.defineProperties({} as CliIo, {
    ...Object.getOwnPropertyDescriptors(io),
    stdout: field((text) => io.stdout(terminalSafe(text))),
    stderr: field((text) => io.stderr(terminalSafe(text))),
  });
}
