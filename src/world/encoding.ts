import { defineCode } from "./rule.ts";

/**
 * World files are UTF-8. A file saved as UTF-16 (Windows Notepad's
 * "Unicode", PowerShell's `>`) read as UTF-8 is a NUL between every letter,
 * which the JSON parser reported as "unexpected character" with the NULs
 * printed raw (issue 15 item 14). It is recognised here and named.
 */
export const FILE_ENCODING = defineCode({
  code: "file/encoding",
  severity: "error",
  description: "The world file is not UTF-8: it is UTF-16 or UTF-32 text.",
  why: 'World files are UTF-8 JSON (RFC 8259). Some editors save "Unicode" text as UTF-16, with a zero byte beside every letter; read as UTF-8 it is not JSON at all.',
  messages: {
    utf16:
      "{file} is encoded as {encoding}, not UTF-8. Save the file as UTF-8 (in most editors: Save As, Encoding: UTF-8) and check it again.",
  },
});

/** "UTF-16LE", "UTF-16BE" or "UTF-32" when decoded text looks like such a file read as UTF-8; else null. */
export function wideEncoding(text: string): string | null {
  // A byte order mark (FF FE or FE FF) is not UTF-8: it decodes to replacement characters.
  const start = text.startsWith("\ufffd\ufffd") ? 2 : 0;
  const sample = text.slice(start, start + 1000);
  if (sample.length < 2) return null;
  let nuls = 0;
  for (let i = 0; i < sample.length; i++) if (sample.charCodeAt(i) === 0) nuls++;
  const share = nuls / sample.length;
  if (share >= 0.6) return "UTF-32";
  if (share < 0.3) return null;
  return sample.charCodeAt(0) === 0 ? "UTF-16BE" : "UTF-16LE";
}
