/**
 * Text measurement without a font: the drawings use fonts whose glyphs are
 * about 0.6 em wide (monospace for keys, and a safe overestimate for
 * proportional text), so the width of a label is its count of
 * characters, with wide (East Asian, emoji) characters counting double.
 */

/** Estimated width of `text` at `fontSize`, in the same unit. */
export function textWidth(text: string, fontSize: number): number {
  let units = 0;
  for (const char of text) units += isWide(char.codePointAt(0) ?? 0) ? 2 : 1;
  return units * 0.6 * fontSize;
}

/** Full-width and emoji ranges: enough for an estimate, not a Unicode width table. */
function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/**
 * One line of at most `max` characters: line breaks and tabs become spaces (a
 * key may hold any character; a drawing has one line per label) and a longer
 * text ends with an ellipsis. The full text goes in the element's title.
 */
export function oneLine(text: string, max = Number.POSITIVE_INFINITY): string {
  const flat = text.replace(/[\r\n\t\u2028\u2029]+/g, " ");
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, Math.max(1, max - 1)).join("")}…`;
}
