import type { SummaryRequest } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { PROMPT_BUDGETS, TEXT_CAPS } from "./budgets.ts";
import { type Block, block, fit, fixed, prose, rankIn } from "./sections.ts";
import type { ChatMessage } from "./types.ts";

/** The length the running summary is asked to stay under (the engine cuts at SUMMARY_MAX_CHARS). */
export const SUMMARY_TARGET = 1_500;

export const SUMMARY_SYSTEM = [
  "You keep the running summary of a turn-based text role-playing game: plain prose that later prompts " +
    "read instead of the full story.",
  "Take the summary so far and fold the new story entries into it, oldest first. Keep names, places, " +
    "promises, debts, discoveries and unresolved threads; drop description and dialogue. Invent nothing. " +
    `Stay under ${SUMMARY_TARGET} characters.`,
  "",
  "## Answer",
  'Answer with one JSON object and nothing else: {"summary": "<the new running summary>"}',
].join("\n");

/**
 * Trim order when over budget: the entries to fold in are cut evenly (each
 * keeps its start) and dropped oldest first only near the end; the summary so
 * far goes last. The summary is its own call, made after the story of the
 * turn was shown (off the critical path).
 */
export const SUMMARY_TRIM_ORDER = ["entries (cut evenly)", "entries", "summary"] as const;

const rank = rankIn(SUMMARY_TRIM_ORDER);
const ENTRY_FLOOR = 300;

export function summaryPrompt(
  _world: World,
  request: SummaryRequest,
  budget: number = PROMPT_BUDGETS.summary,
): ChatMessage[] {
  const summary = request.summary.trim();
  const user: Block[] = [
    block(
      "## Summary so far",
      [summary === "" ? "(none yet: write the first one)" : prose(summary, TEXT_CAPS.summary)],
      rank("summary"),
      { from: "start" },
    ),
    block(
      "## New story entries to fold in (oldest first)",
      request.entries.map((e) => `[turn ${Number(e.tick)}] ${prose(e.text, TEXT_CAPS.storyEntry)}`),
      rank("entries"),
      {
        join: "\n\n",
        from: "start",
        omitted: (n) => `(${n} older entries left out)`,
        even: { rank: rank("entries (cut evenly)"), floor: ENTRY_FLOOR },
      },
    ),
  ];
  return fit(
    [
      { role: "system", blocks: [fixed(null, SUMMARY_SYSTEM)] },
      { role: "user", blocks: user },
    ],
    budget,
  );
}
