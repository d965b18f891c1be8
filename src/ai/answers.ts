import { z } from "zod";
import { INTENTS } from "../engine/ports.ts";

/**
 * The structured answers asked of a model (JSON schema output), checked with
 * zod before the engine sees them. The JSON Schemas sent to servers are made
 * from these (`z.toJSONSchema`), so the request and the check cannot drift.
 */
export const IntentAnswerSchema = z.object({
  intent: z.enum(INTENTS),
  /** For travel, move, fastTravel and teleport: the destination as the player named it; null otherwise. */
  target: z.string().nullable(),
  /** 0..1: how sure the classifier is. travel and move need high confidence (spec 3). */
  confidence: z.number().min(0).max(1),
  /** With several players' actions: the player whose action decides the party's intent; null otherwise. */
  leader: z.string().nullable().default(null),
});
export type IntentAnswerJson = z.infer<typeof IntentAnswerSchema>;

export const JudgeAnswerSchema = z.object({
  verdicts: z.array(
    z.object({
      /** The question's number as the prompt lists it (1-based). */
      question: z.number().int().min(1),
      /** The words of the text that decide it, written before the verdict: room to reason (issue 19 item 10). */
      evidence: z.string(),
      passed: z.boolean(),
      /** For questions about players: the player names the text supports. */
      players: z.array(z.string()),
    }),
  ),
});
export type JudgeAnswerJson = z.infer<typeof JudgeAnswerSchema>;

/** The running summary, asked for in its own call on fold turns (issue 19 item 4). */
export const SummaryAnswerSchema = z.object({
  summary: z.string(),
});
export type SummaryAnswerJson = z.infer<typeof SummaryAnswerSchema>;

/**
 * The JSON object inside a model's text, read leniently: from the first "{"
 * to the last "}" (code fences, reasoning or prose around it are skipped).
 * Undefined when there is no such span or it is not valid JSON.
 */
export function jsonObjectIn(text: string): unknown {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
}
