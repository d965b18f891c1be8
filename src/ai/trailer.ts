import { z } from "zod";
import type { EventVerdict } from "../engine/ports.ts";
import { jsonObjectIn } from "./answers.ts";

/**
 * Narration is streamed prose, but the same call also answers the event
 * verdict and the running summary (engine ports: a turn stays at two AI
 * calls). The narrator writes them after the story as a trailer: a line
 * holding only TRAILER_MARKER, then one JSON object. The marker and what
 * follows never reach the player: TrailerSplitter holds back any text that
 * could be the start of the marker until it knows.
 */
export const TRAILER_MARKER = "<<<STATE>>>";

export const TrailerSchema = z.object({
  event: z.enum(["completed", "stopped", "neither"]).optional(),
  summary: z.string().optional(),
});

export interface Trailer {
  eventVerdict?: EventVerdict;
  summary?: string;
}

/** Reads a trailer's JSON leniently (code fences, text around the object); an unusable one is {}. */
export function parseTrailer(raw: string): Trailer {
  const value = jsonObjectIn(raw);
  if (value === undefined) return {};
  const parsed = TrailerSchema.safeParse(value);
  if (!parsed.success) return {};
  const out: Trailer = {};
  if (parsed.data.event) out.eventVerdict = parsed.data.event;
  if (parsed.data.summary?.trim()) out.summary = parsed.data.summary.trim();
  return out;
}

/** Splits a streamed narration into the story (passed on as it comes) and the trailer (kept). */
export class TrailerSplitter {
  private pending = "";
  private trailer: string | null = null;

  /** Takes a chunk; returns the story text that is now safe to show (may be ""). */
  push(chunk: string): string {
    if (this.trailer !== null) {
      this.trailer += chunk;
      return "";
    }
    this.pending += chunk;
    const at = this.pending.indexOf(TRAILER_MARKER);
    if (at >= 0) {
      const story = this.pending.slice(0, at);
      this.trailer = this.pending.slice(at + TRAILER_MARKER.length);
      this.pending = "";
      return story;
    }
    // Keep the longest tail that is a prefix of the marker: it may complete in the next chunk.
    let keep = Math.min(this.pending.length, TRAILER_MARKER.length - 1);
    while (keep > 0 && !TRAILER_MARKER.startsWith(this.pending.slice(-keep))) keep--;
    const story = this.pending.slice(0, this.pending.length - keep);
    this.pending = this.pending.slice(this.pending.length - keep);
    return story;
  }

  /** Ends the stream: the story text still held back, and the trailer's raw text (null when none came). */
  end(): { rest: string; trailer: string | null } {
    const rest = this.pending;
    this.pending = "";
    return { rest, trailer: this.trailer };
  }
}
