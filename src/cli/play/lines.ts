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
  /** Puts text on the next prompt's line, ready to edit (a terminal only: /undo gives an action back). */
  prefill?(text: string): void;
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
  // Keys typed while the story prints are kept, never echoed into it: readline's echo reaches the
  // terminal only while a prompt waits. The next prompt shows what was typed ahead; a line finished
  // ahead (Enter pressed during the story) is shown after its prompt when it is read.
  let prompting = false;
  const ahead: string[] = [];
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (prompting || !interactive) write(chunk.toString());
      done();
    },
  });
  const rl = createInterface({ input, output, terminal: interactive, historySize: interactive ? 100 : 0 });
  const lines = rl[Symbol.asyncIterator]();
  // The first line after a prompt answers it (readline echoed it); any other is ahead of its prompt,
  // even one that came in the same chunk of input ("y\rlook\r" pasted at once).
  if (interactive)
    rl.on("line", (line: string) => {
      if (prompting) prompting = false;
      else ahead.push(line);
    });
  let interrupt = () => rl.close();
  rl.on("SIGINT", () => interrupt());
  let ended = false;
  let prefilled = "";
  return {
    interactive,
    prefill(text) {
      if (interactive) prefilled = text;
    },
    async read(prompt) {
      if (ended) return null;
      if (interactive) {
        rl.setPrompt(terminalSafe(prompt));
        prompting = true;
        const early = ahead.shift();
        if (early !== undefined) write(`${terminalSafe(prompt)}${terminalSafe(early)}\n`);
        else {
          // What readline drew while it was silent took no rows on the terminal.
          (rl as unknown as { prevRows: number }).prevRows = 0;
          rl.prompt(true);
          // An action /undo gave back, on the line as if typed (made safe like the prompt).
          if (prefilled !== "") rl.write(terminalSafe(prefilled));
        }
        prefilled = "";
      } else io.stdout(prompt);
      let next: IteratorResult<string>;
      try {
        next = await lines.next();
      } finally {
        prompting = false;
      }
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
