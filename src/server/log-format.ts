import { styleText } from "node:util";
import { escapeControls } from "../world/terminal-text.ts";

/**
 * pino's JSON lines as a person reads them on a terminal:
 * `14:03:07.120 INFO  step committed game=3f2a… tick=4 durationMs=38`.
 * Values can hold outside text (URLs, error messages, world names), so each
 * goes through the terminal-text sanitizer; colour only when asked.
 */
const LEVELS: Record<number, { name: string; style: Parameters<typeof styleText>[0] }> = {
  10: { name: "TRACE", style: "gray" },
  20: { name: "DEBUG", style: "gray" },
  30: { name: "INFO ", style: "green" },
  40: { name: "WARN ", style: "yellow" },
  50: { name: "ERROR", style: "red" },
  60: { name: "FATAL", style: "red" },
};
/** pino's own fields, shown in the line's head or not at all. */
const HEAD = new Set(["level", "time", "msg", "pid", "hostname", "v"]);

export function formatPretty(line: string, color: boolean): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return escapeControls(line);
  }
  const level = LEVELS[Number(record.level)] ?? {
    name: String(record.level).padEnd(5),
    style: "gray" as const,
  };
  const time = typeof record.time === "number" ? new Date(record.time).toISOString().slice(11, 23) : "";
  const paint = (style: Parameters<typeof styleText>[0], text: string) =>
    color ? styleText(style, text) : text;
  const fields: string[] = [];
  let stack = "";
  for (const [key, value] of Object.entries(record)) {
    if (HEAD.has(key)) continue;
    if (key === "err" && value && typeof value === "object") {
      const err = value as { type?: string; message?: string; stack?: string };
      fields.push(`err=${quote(`${err.type ?? "Error"}: ${err.message ?? ""}`)}`);
      if (typeof err.stack === "string") stack = `\n${err.stack.split("\n").slice(1, 6).join("\n")}`;
      continue;
    }
    flatten(key, value, fields);
  }
  const message = escapeControls(String(record.msg ?? ""));
  const rest = fields.length > 0 ? ` ${paint("gray", escapeControls(fields.join(" ")))}` : "";
  return `${paint("gray", time)} ${paint(level.style, level.name)} ${message}${rest}${escapeControls(stack)}`;
}

function flatten(key: string, value: unknown, out: string[]): void {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(`${key}.${k}`, v, out);
    return;
  }
  out.push(`${key}=${typeof value === "string" ? quote(value) : JSON.stringify(value)}`);
}

function quote(text: string): string {
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
}
