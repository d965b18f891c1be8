/**
 * Escaping for SVG (XML 1.0) text and attribute values. Names in a world may
 * hold any character: `&`, `<` and quotes must become references, and the
 * control characters XML 1.0 forbids outright (everything below U+0020 but
 * tab, line feed and carriage return, plus lone surrogates and U+FFFE/U+FFFF)
 * cannot be written even as references, so they become U+FFFD.
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\r/g, "&#13;")
    .replace(/\n/g, "&#10;")
    .replace(/\t/g, "&#9;");
}

/** A number as SVG writes it: at most two decimals, no `-0`, no exponent for the sizes a map has. */
export function num(value: number): string {
  if (!Number.isFinite(value)) return "0";
  const rounded = Math.round(value * 100) / 100;
  return Object.is(rounded, -0) ? "0" : String(rounded);
}
