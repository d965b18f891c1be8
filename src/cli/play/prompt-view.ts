import type { Provider, SentRequest } from "../../ai/provider.ts";
import type { Paint } from "../../author/paint.ts";
import { escapeControls } from "../../world/terminal-text.ts";

/**
 * `taleforge play --show-prompt` (issue 39): after the opening and after every
 * turn, the exact last request of each kind the game sent to the model in
 * between (intent, narration, judge, summary), so that an author sees what the
 * model saw: the URL, every body parameter and every message, whole. Only
 * requests newer than the ones already shown are printed.
 */
export class PromptView {
  private seen = 0;

  constructor(
    private readonly provider: Provider,
    private readonly paint: Paint,
  ) {}

  /** Why nothing will ever be shown (the offline narrator, a replayed cassette), or null. */
  unavailable(): string | null {
    if (typeof this.provider.lastRequests === "function") return null;
    return this.provider.model === "offline"
      ? "--show-prompt: the offline narrator sends no requests to a model, so there are none to show."
      : "--show-prompt: this game's answers come from a cassette, not a model: no requests are sent.";
  }

  /** The requests sent since the last call, formatted; "" when there are none. */
  take(): string {
    const all = this.provider.lastRequests?.() ?? [];
    const fresh = all.filter((r) => r.seq > this.seen);
    if (fresh.length > 0) this.seen = Math.max(...fresh.map((r) => r.seq));
    return fresh.map((r) => formatRequest(r, this.paint)).join("");
  }
}

/** One request as an author reads it: a heading, the URL and parameters, then each message whole. */
export function formatRequest(request: SentRequest, paint: Paint): string {
  const { messages, ...params } = request.body as { messages?: unknown } & Record<string, unknown>;
  const lines = [
    paint("gray", `──── the last ${request.kind} request sent to the model ────`),
    paint("gray", `POST ${escapeControls(request.url)}`),
    ...Object.entries(params).map(([key, value]) => paint("gray", `${key}: ${paramText(key, value)}`)),
  ];
  for (const message of Array.isArray(messages) ? messages : []) {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    lines.push(paint("gray", `===== ${escapeControls(String(role))} =====`));
    lines.push(escapeControls(typeof content === "string" ? content : JSON.stringify(content)));
  }
  lines.push(paint("gray", `──── end of the ${request.kind} request ────`));
  return `${lines.join("\n")}\n\n`;
}

/** A parameter's value: JSON, except the response format, named by its type and schema (the schema is Taleforge's own). */
function paramText(key: string, value: unknown): string {
  if (key === "response_format" && value !== null && typeof value === "object") {
    const format = value as { type?: unknown; json_schema?: { name?: unknown } };
    const name = typeof format.json_schema?.name === "string" ? ` (${format.json_schema.name})` : "";
    return escapeControls(`${String(format.type)}${name}`);
  }
  return escapeControls(JSON.stringify(value) ?? "null");
}
