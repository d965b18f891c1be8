import { styleText } from "node:util";

/**
 * Text for terminals, shared by the command line and the author tools'
 * reports: colour painted only when the caller asked for it, counted words,
 * first sentences.
 */

export type Style = Parameters<typeof styleText>[0];
export type Paint = (style: Style, text: string) => string;

/** Colour only when the caller decided so (a terminal without NO_COLOR); styleText must not decide again. */
export function painter(color: boolean): Paint {
  return (style, text) => (color ? styleText(style, text, { validateStream: false }) : text);
}

/** "1 error", "3 errors"; `many` for a plural that is not the word plus "s". */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}

/** The first sentence of a description, for one-line lists. */
export function firstSentence(text: string): string {
  const match = /^.*?[.!?](\s|$)/.exec(text);
  return (match ? match[0] : text).trim();
}

/**
 * When something happened, in the words players and authors read: "at the
 * opening" (tick 0) or "on turn 12". The engine counts ticks; what is shown
 * says turns (issue 14: engine words on screen).
 */
export function onTurn(tick: number): string {
  return tick === 0 ? "at the opening" : `on turn ${tick}`;
}
