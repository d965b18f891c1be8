import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { terminalSafe } from "../../world/terminal-text.ts";
import type { CliIo } from "../io.ts";

/**
 * Where the game's input comes from. On a terminal, readline with line
 * editing and a prompt; otherwise (a pipe, a file) one line at a time, with
 * the prompt and the line echoed so that a piped game's transcript reads
 * like a played one.
 */
export interface LineSource {
  /** The next line without its newline, or null when the input has ended (Ctrl-D, end of pipe). */
  read(prompt: string): Promise<string | null>;
  /** Called on Ctrl-C at a terminal; the default closes the input. */
  onInterrupt(handler: () => void): void;
  close(): void;
  readonly interactive: boolean;
}

export function lineSource(io: CliIo): LineSource {
  const input = io.stdin;
  if (!input) {
    return {
      read: async () => null,
      onInterrupt: () => {},
      close: () => {},
      interactive: false,
    };
  }
  const interactive = io.stdinIsTTY === true && io.isTTY;
  // At a terminal, readline's own cursor moves must reach it unescaped; the prompt it draws is made safe below.
  const write = interactive && io.rawStdout ? io.rawStdout : io.stdout;
  const output = new Writable({
    write(chunk, _encoding, done) {
      write(chunk.toString());
      done();
    },
  });
  const rl = createInterface({ input, output, terminal: interactive, historySize: interactive ? 100 : 0 });
  const lines = rl[Symbol.asyncIterator]();
  let interrupt = () => rl.close();
  rl.on("SIGINT", () => interrupt());
  let ended = false;
  return {
    interactive,
    async read(prompt) {
      if (ended) return null;
      if (interactive) {
        rl.setPrompt(terminalSafe(prompt));
        rl.prompt();
      } else io.stdout(prompt);
      const next = await lines.next();
      if (next.done) {
        ended = true;
        if (!interactive) io.stdout("\n");
        return null;
      }
      const line = String(next.value).replace(/\r$/, "");
      if (!interactive) io.stdout(`${line}\n`);
      return line;
    },
    onInterrupt(handler) {
      interrupt = handler;
    },
    close() {
      ended = true;
      rl.close();
    },
  };
}
