import type { NarrationRequest, StoryLine } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { PROMPT_BUDGETS, TEXT_CAPS } from "./budgets.ts";
import { narratorSystem } from "./narrator-system.ts";
import { openingPrompt } from "./opening.ts";
import { sceneBlocks } from "./scene.ts";
import { actionLine, type Block, block, bullets, fit, fixed, inline, prose, rankIn } from "./sections.ts";
import { trailerBlock } from "./trailer-block.ts";
import type { ChatMessage, NarrationPromptOptions } from "./types.ts";
import { worldBlocks } from "./world-text.ts";

/**
 * Trim steps of the turn prompt when it is over budget, first to go first.
 * The entries to summarise are first cut evenly (each keeps its start, at
 * least SUMMARISE_FLOOR characters) and dropped only near the end: an entry
 * dropped here never reaches the summary, while a recent entry left out now
 * comes back later to be summarised. Never trimmed: the actions, the
 * instructions (world, style, game mode, one-time), the place, the outcomes,
 * the intent, the event and the answer format.
 */
export const NARRATION_TRIM_ORDER = [
  "lore",
  "journal",
  "traits",
  "characters present",
  "story to summarise (cut evenly)",
  "recent story",
  "world background",
  "area",
  "location",
  "party",
  "story to summarise",
  "summary",
] as const;

const SUMMARISE_FLOOR = 300;

const rank = rankIn(NARRATION_TRIM_ORDER);

/** The narrator's prompt for a turn; `request.opening` selects the opening prompt instead. */
export function narrationPrompt(
  world: World,
  request: NarrationRequest,
  options: NarrationPromptOptions,
): ChatMessage[] {
  if (request.opening) return openingPrompt(world, request, options);
  const scene = request.scene;
  const summarise = request.summarise ?? [];
  const user: Block[] = [
    ...worldBlocks(world, options, rank),
    block("## Story so far (summary)", [prose(request.summary, TEXT_CAPS.summary)], rank("summary"), {
      from: "start",
    }),
    block(
      "## Older story to fold into the summary (oldest first)",
      summarise.map((s) => prose(s.text, TEXT_CAPS.storyEntry)),
      rank("story to summarise"),
      {
        join: "\n\n",
        from: "start",
        omitted: (n) => `(${n} older entries left out)`,
        even: { rank: rank("story to summarise (cut evenly)"), floor: SUMMARISE_FLOOR },
      },
    ),
    block(
      "## Recent story (oldest first; the last entry is the previous turn)",
      recentAfterSummarised(scene.recentStory, summarise).map((t) => prose(t, TEXT_CAPS.storyEntry)),
      rank("recent story"),
      { join: "\n\n", from: "start", omitted: (n) => `(${n} older entries left out)` },
    ),
    ...sceneBlocks(world, scene, rank),
    journalBlock(request, rank("journal")),
    block(
      "## One-time instructions (apply these now, once)",
      bullets(request.instructions.map((i) => inline(i, TEXT_CAPS.instruction))),
      "protected",
    ),
    eventBlock(request),
    block(
      "## What already happened this turn",
      bullets(request.outcomes.map((o) => inline(o, TEXT_CAPS.outcome))),
      "protected",
    ),
    block(
      "## Actions this turn",
      bullets(request.actions.map((a) => actionLine(a.player, a.text))),
      "protected",
    ),
    intentBlock(request),
    fixed(
      "## Your task",
      "Write the story of this turn: what happens when the players act as described above.",
    ),
  ];
  const trailer = trailerBlock(request);
  if (trailer) user.push(trailer);
  return fit([narratorSystem(world, "turn"), { role: "user", blocks: user }], PROMPT_BUDGETS.narration);
}

/**
 * The entries to summarise are the oldest of scene.recentStory (the engine
 * sends everything after the summary): the recent story leaves out the ones
 * already shown for summarising, so no entry is printed twice. The overlap is
 * the longest tail of `summarise` that starts the recent story.
 */
export function recentAfterSummarised(recent: readonly string[], summarise: readonly StoryLine[]): string[] {
  for (let k = Math.min(recent.length, summarise.length); k > 0; k--) {
    const tail = summarise.slice(summarise.length - k);
    if (tail.every((line, i) => line.text === recent[i])) return recent.slice(k);
  }
  return [...recent];
}

function journalBlock(request: NarrationRequest, trim: number): Block {
  const lines = request.journal.map((q) => {
    const head = `${inline(q.quest, TEXT_CAPS.name)} (${inline(q.status, TEXT_CAPS.name)})`;
    return q.nextStep ? `${head}: next step: ${inline(q.nextStep, TEXT_CAPS.nextStep)}` : head;
  });
  if (request.partyNextStep)
    lines.push(`The party's next step: ${inline(request.partyNextStep, TEXT_CAPS.nextStep)}`);
  return block("## Journal (for your reference; do not announce quest changes)", bullets(lines), trim);
}

function eventBlock(request: NarrationRequest): Block {
  const event = request.event;
  if (!event) return block(null, [], "protected");
  const turns = Number(event.activeTurns);
  return block(
    `## Narrative event: ${inline(event.title, TEXT_CAPS.name)}`,
    [
      `Active for ${turns} ${turns === 1 ? "turn" : "turns"} so far. Its beats, to move forward in this turn's story:`,
      prose(event.beats, TEXT_CAPS.beats),
    ],
    "protected",
  );
}

function intentBlock(request: NarrationRequest): Block {
  const intent = request.intent;
  if (!intent) return block(null, [], "protected");
  const target = typeof intent.target === "string" && intent.target.trim() !== "" ? intent.target : null;
  const text = `The game read the first action as "${inline(String(intent.intent), TEXT_CAPS.name)}"${
    target === null ? "" : ` with the destination "${inline(target, TEXT_CAPS.name)}"`
  }.`;
  return block("## Intent", [text], "protected");
}
