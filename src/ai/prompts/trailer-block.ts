import type { NarrationRequest } from "../../engine/ports.ts";
import { TRAILER_MARKER } from "../trailer.ts";
import { TEXT_CAPS } from "./budgets.ts";
import { type Block, fixed, inline } from "./sections.ts";

/** The length the running summary is asked to stay under (the engine cuts at SUMMARY_MAX_CHARS). */
const SUMMARY_TARGET = 1_500;

/**
 * The trailer instructions (src/ai/trailer.ts): only when the request has an
 * active event or asks for a summary, since otherwise the narrator must write
 * no trailer at all. Only the fields the request needs are asked for. This is
 * the only place a prompt holds TRAILER_MARKER: outside text is neutralised.
 */
export function trailerBlock(request: NarrationRequest): Block | null {
  const event = request.event !== null;
  const summary = request.summarise !== null;
  if (!event && !summary) return null;
  const shape = [
    event ? `"event": "<completed|stopped|neither>"` : "",
    summary ? `"summary": "<the new running summary>"` : "",
  ]
    .filter((s) => s !== "")
    .join(", ");
  const lines = [
    "After the story, the game needs a short report that the players never see. Write a line holding only",
    TRAILER_MARKER,
    "then one JSON object on the next line, and nothing after it:",
    `{${shape}}`,
  ];
  if (event) {
    const title = inline(request.event!.title, TEXT_CAPS.name);
    lines.push(
      `- "event": where the narrative event "${title}" stands after this turn. "completed": this turn reached ` +
        `the event's outcome. "stopped": the party disengaged from it without reaching the outcome (for ` +
        `example, it left the place where the event began). "neither": the event goes on. When both ` +
        `"completed" and "stopped" could apply, answer "completed".`,
    );
  }
  if (summary) {
    const base =
      request.summary.trim() === ""
        ? `There is no summary yet: write one from the entries under "Older story to fold into the summary".`
        : `Take the summary under "Story so far" and fold into it the entries under "Older story to fold into the summary".`;
    lines.push(
      `- "summary": the new running summary of the whole story so far, as plain prose. ${base} Keep names, ` +
        `promises, debts and unresolved threads; drop description and dialogue. Stay under ` +
        `${SUMMARY_TARGET} characters.`,
    );
  }
  return fixed("## After the story", lines.join("\n"));
}
