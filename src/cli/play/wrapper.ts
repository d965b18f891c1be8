import type { CliIo } from "../io.ts";

/**
 * Word-wraps streamed text for a terminal: chunks arrive cut anywhere (mid
 * word, mid line), so the wrapper holds back the word being written until
 * it knows where it ends, and breaks lines before a word that would pass
 * the width. Newlines in the text are kept; a word longer than a line is
 * written whole. An indented line, or a list item ("  1. ", "  - ", "  [x] "),
 * goes on under its text (a hanging indent), so lists stay readable at 80
 * columns.
 */
export interface StreamWrapper {
  push(text: string): void;
  /** Writes what is held back (the last word). */
  end(): void;
}

export function streamWrapper(width: number, write: (text: string) => void): StreamWrapper {
  let column = 0;
  let word = "";
  let spaces = "";
  let atLineStart = true;
  let hang = 0;
  /** Words written on this line so far, and whether the first was a marker ("·", "✔", "1."). */
  let words = 0;
  let marked = false;
  const flushWord = () => {
    if (word === "") return;
    // Colour codes take no columns: the word's width is what the terminal shows.
    const shown = visible(word);
    if (atLineStart) {
      const lead = spaces.length;
      marked = MARKER.test(shown);
      hang = Math.min(Math.floor(width / 2), lead === 0 ? 0 : lead + (marked ? shown.length + 1 : 0));
      atLineStart = false;
    } else if (column >= hang && column + spaces.length + shown.length > width) {
      write(`\n${" ".repeat(hang)}`);
      column = hang;
      spaces = "";
    } else if (
      hang > 0 &&
      spaces.length >= 2 &&
      words === (marked ? 2 : 1) &&
      column + spaces.length <= Math.floor(width / 2)
    ) {
      // An indented "key    value" line (the trace's "  intent    travel", "  ✔ keeper_rumour  fired;"):
      // its value goes on under the value's column.
      hang = column + spaces.length;
    }
    write(spaces + word);
    column += spaces.length + shown.length;
    words++;
    word = "";
    spaces = "";
  };
  return {
    push(text) {
      for (const char of text) {
        if (char === "\n") {
          flushWord();
          write("\n");
          column = 0;
          spaces = "";
          atLineStart = true;
          hang = 0;
          words = 0;
        } else if (char === " ") {
          if (word !== "") flushWord();
          spaces += " ";
        } else word += char;
      }
    },
    end() {
      flushWord();
    },
  };
}

/** A list or tree marker that text hangs under: "1.", "-", "•", "[x]", and the trace's "·", "✔", "✗", "?", "…". */
const MARKER = /^(?:\d+[.)]|\[[ x]\]|[-*•·✔✓✗✘?…→])$/;

/** A word as the terminal shows it: without its SGR colour codes (ESC [ ... m), which take no columns. */
function visible(word: string): string {
  return word.includes("\u001b") ? word.replace(/\u001b\[[0-9;]*m/g, "") : word;
}

/**
 * Writes a message on stderr: at a terminal word-wrapped to its width (a long path or error code
 * stays whole on its line, never cut mid-word by the terminal); as written when piped.
 */
export function stderrWrapped(io: Pick<CliIo, "isTTY" | "columns" | "stderr">, text: string): void {
  if (!io.isTTY || !io.columns) {
    io.stderr(text);
    return;
  }
  let out = "";
  const wrapper = streamWrapper(Math.max(20, Math.min(io.columns - 1, 100)), (chunk) => {
    out += chunk;
  });
  wrapper.push(text);
  wrapper.end();
  io.stderr(out);
}
