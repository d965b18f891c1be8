import { styleText } from "node:util";

export type Style = Parameters<typeof styleText>[0];
export type Paint = (style: Style, text: string) => string;

/** Colour only when the caller decided so (a terminal without NO_COLOR); styleText must not decide again. */
export function painter(color: boolean): Paint {
  return (style, text) => (color ? styleText(style, text, { validateStream: false }) : text);
}

/** Wraps prose at `width` columns, keeping paragraph breaks; words longer than a line stay whole. */
export function wrap(text: string, width: number): string {
  return text
    .split("\n")
    .map((line) => {
      const words = line.split(/ +/);
      const out: string[] = [];
      let current = "";
      for (const word of words) {
        if (current === "") current = word;
        else if (current.length + 1 + word.length <= width) current += ` ${word}`;
        else {
          out.push(current);
          current = word;
        }
      }
      out.push(current);
      return out.join("\n");
    })
    .join("\n");
}

export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}

/** The first sentence of a description, for one-line lists. */
export function firstSentence(text: string): string {
  const match = /^.*?[.!?](\s|$)/.exec(text);
  return (match ? match[0] : text).trim();
}
