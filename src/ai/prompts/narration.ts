import type { NarrationRequest } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { PROMPT_BUDGETS, TEXT_CAPS } from "./budgets.ts";
import { narratorSystem } from "./narrator-system.ts";
import { openingPrompt } from "./opening.ts";
import { sceneBlocks } from "./scene.ts";
import { actionLine, type Block, block, bullets, fit, fixed, inline, prose, rankIn } from "./sections.ts";
import type { ChatMessage, NarrationPromptOptions } from "./types.ts";
import { loreBlock, worldBlocks } from "./world-text.ts";

/**
 * Trim steps of the turn prompt when it is over budget, first to go first.
 * Never trimmed: the actions, the instructions (world, style, game mode,
 * one-time), the place, the outcomes, the intent and the event.
 */
export const NARRATION_TRIM_ORDER = [
  "lore",
  "journal",
  "traits",
  "characters present",
  "recent story",
  "world background",
  "area",
  "location",
  "party",
  "summary",
] as const;

const rank = rankIn(NARRATION_TRIM_ORDER);

/**
 * The narrator's prompt for a turn; `request.opening` selects the opening
 * prompt instead. Ordered from the most stable to the least (issue 19 item
 * 7), so that consecutive turns share a long prefix a server can cache: the
 * system message, the world's background, style, game mode, resources and
 * death, the running summary, the story since the summary (it only grows
 * between summaries), then what changes every turn: the lore picked now, the
 * scene, the journal, the one-time instructions, the event, the outcomes and
 * the actions. The running summary is written by its own call (summary.ts),
 * so this prompt asks for the story only.
 */
export function narrationPrompt(
  world: World,
  request: NarrationRequest,
  options: NarrationPromptOptions,
): ChatMessage[] {
  if (request.opening) return openingPrompt(world, request, options);
  const scene = request.scene;
  const user: Block[] = [
    ...worldBlocks(world, options, rank),
    block("## Story so far (summary)", [prose(request.summary, TEXT_CAPS.summary)], rank("summary"), {
      from: "start",
    }),
    block(
      "## Story since the summary (oldest first; the last entry is the previous turn)",
      scene.recentStory.map((t) => prose(t, TEXT_CAPS.storyEntry)),
      rank("recent story"),
      { join: "\n\n", from: "start", omitted: (n) => `(${n} older entries left out)` },
    ),
    loreBlock(options, rank("lore")),
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
  return fit(
    [narratorSystem(world, "turn"), { role: "user", blocks: user }],
    options.budget ?? PROMPT_BUDGETS.narration,
  );
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
