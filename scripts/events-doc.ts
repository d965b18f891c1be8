import { z } from "zod";
import { GAME_EVENTS, type GameEventKind, HOST_ONLY } from "../src/server/events.ts";

const MARKERS = [
  "<!-- events:start (generated from src/server/events.ts by scripts/generate-docs.ts) -->",
  "<!-- events:end -->",
] as const;

/** A payload field's type as a reader scans it: `string`, `number \| null`, `array`, `object`. */
function typeOf(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.anyOf))
    return (schema.anyOf as Record<string, unknown>[]).map(typeOf).join(" \\| ");
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.enum))
    return (schema.enum as unknown[]).map((v) => `\`${JSON.stringify(v)}\``).join(" \\| ");
  if (typeof schema.type === "string") return schema.type === "integer" ? "number" : schema.type;
  return "any";
}

/** The payload's fields: `name: type`, optional ones with `?`. */
function fieldsOf(kind: GameEventKind): string {
  const json = z.toJSONSchema(GAME_EVENTS[kind], { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {})
    .map(([name, field]) => `\`${name}${required.has(name) ? "" : "?"}\`: ${typeOf(field)}`)
    .join(", ");
}

/**
 * docs/server.md with its table of the event stream's messages rewritten from the one union of
 * game events (src/server/events.ts): each kind, who receives it, what it says and its payload's
 * fields. The prose around it is written by hand; the markers must be in the file.
 */
export function renderEventsDoc(current: string): string {
  const start = current.indexOf(MARKERS[0]);
  const end = current.indexOf(MARKERS[1]);
  if (start < 0 || end < start) throw new Error(`docs/server.md lacks the markers ${MARKERS.join(" ... ")}`);
  const rows = (Object.keys(GAME_EVENTS) as GameEventKind[]).map((kind) => {
    const who =
      kind === "narration" ? "members (live, no id)" : HOST_ONLY.includes(kind) ? "host" : "members";
    const says = (GAME_EVENTS[kind].description ?? "").replace(/\|/g, "\\|");
    return `| \`${kind}\` | ${who} | ${says} | ${fieldsOf(kind)} |`;
  });
  const table = [
    MARKERS[0],
    "| Event | Sent to | What it says | Payload (`data`) |",
    "| --- | --- | --- | --- |",
    ...rows,
    MARKERS[1],
  ].join("\n");
  return current.slice(0, start) + table + current.slice(end + MARKERS[1].length);
}
