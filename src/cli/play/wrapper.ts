/**
 * Word-wraps streamed text for a terminal: chunks arrive cut anywhere (mid
 * word, mid line), so the wrapper holds back the word being written until
 * it knows where it ends, and breaks lines before a word that would pass
 * the width. Newlines in the text are kept; a word longer than a line is
 * written whole.
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
  const flushWord = () => {
    if (word === "") return;
    if (column > 0 && column + spaces.length + word.length > width) {
      write("\n");
      column = 0;
      spaces = "";
    }
    write(spaces + word);
    column += spaces.length + word.length;
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
