import { outcomeLine } from "../../engine/outcome.ts";
import type { NarrationRequest } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { PROMPT_BUDGETS, TEXT_CAPS } from "./budgets.ts";
import { narratorSystem, storyStartText } from "./narrator-system.ts";
import { openingPrompt } from "./opening.ts";
import { share } from "./plan.ts";
import { partyNowBlock, sceneBlocks } from "./scene.ts";
import {
  actionLine,
  type Block,
  block,
  bullets,
  fit,
  fixed,
  inline,
  type MessagePlan,
  prose,
  rankIn,
} from "./sections.ts";
import type { ChatMessage, NarrationPromptOptions } from "./types.ts";
import { isStanding, loreBlock, worldPart } from "./world-text.ts";

/**
 * Trim steps of the turn prompt when it is over budget, first to go first
 * (the context plan, plan.ts and docs/prompts.md). "older story" is the
 * turns beyond the recent story's floor; the location, area, characters
 * present, party and recent story keep their floors until the protected
 * items were cut. Never trimmed: the system message and the world's data
 * (cut once per game to their caps), the standing guidance, the one-time
 * instructions, the place, the outcomes, the actions, the intent and the event.
 */
export const NARRATION_TRIM_ORDER = [
  "lore",
  "journal",
  "traits",
  "older story",
  "area",
  "location",
  "characters present",
  "summary",
  "party",
  "recent story",
] as const;

const rank = rankIn(NARRATION_TRIM_ORDER);

/**
 * The narrator's prompt for a turn; `request.opening` selects the opening
 * prompt instead. Messages from the most stable to the least (issue 39), so
 * consecutive turns share a long prefix a server can cache:
 *  1. system: the job, the world's instructions for the narrator (cut once
 *     per game), the rules with the world's voice;
 *  2. user: the world's data (cut once per game), the scene (the same while
 *     the party stays), the character sheets, the running summary;
 *  3. the turns since the summary as user/assistant pairs: each turn's
 *     actions by player, then the story told for it (only grows between
 *     summaries);
 *  4. user: this turn: standing guidance, journal, lore, one-time
 *     instructions, event, outcomes, the players and their actions, intent, task.
 * A request so shares with the previous one everything up to its newest turn.
 */
export function narrationPrompt(
  world: World,
  request: NarrationRequest,
  options: NarrationPromptOptions,
): ChatMessage[] {
  if (request.opening) return openingPrompt(world, request, options);
  const budget = options.budget ?? PROMPT_BUDGETS.narration;
  const scene = request.scene;
  const standing = request.instructions.filter((i) => isStanding(world, i));
  const oneTime = request.instructions.filter((i) => !isStanding(world, i));
  const first: Block[] = [
    worldPart(world, options, share(budget, "world")),
    ...sceneBlocks(world, scene, request.context?.sheets, rank, budget),
    block("## Story so far (summary)", [prose(request.summary, TEXT_CAPS.summary)], rank("summary"), {
      from: "start",
    }),
  ];
  const now: Block[] = [
    block(
      "## Standing guidance (from the world's recurring rules: follow it on every turn it is listed)",
      bullets(standing.map((i) => inline(i, TEXT_CAPS.instruction))),
      "protected",
    ),
    partyNowBlock(scene, request.context?.sheets),
    journalBlock(request, rank("journal")),
    loreBlock(options, rank("lore")),
    block(
      "## One-time instructions (for this turn's story only)",
      bullets(oneTime.map((i) => inline(i, TEXT_CAPS.instruction))),
      "protected",
    ),
    eventBlock(request),
    block(
      "## What already happened this turn",
      bullets(request.outcomes.map((o) => inline(outcomeLine(o), TEXT_CAPS.outcome))),
      "protected",
    ),
    playersBlock(request),
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
  const storyStart = storyStartText(world, request.context?.storyStart);
  return fit(
    [
      narratorSystem(world, "turn", budget, storyStart),
      { role: "user", blocks: first },
      ...historyPlans(request, budget),
      { role: "user", blocks: now },
    ],
    budget,
  );
}

/**
 * The turns since the summary as user/assistant pairs, oldest first: the
 * players' actions of the turn, then its story (the opening has no actions).
 * The newest turns within the recent story's floor are the last trimmed;
 * older ones go earlier, oldest first, a story cut keeping its end.
 */
function historyPlans(request: NarrationRequest, budget: number): MessagePlan[] {
  const turns =
    request.context?.turns ??
    request.scene.recentStory.map((story) => ({ tick: Number.NaN, actions: [], story }));
  const floor = share(budget, "recentStory");
  const sizes = turns.map((t) => t.story.length + t.actions.reduce((n, a) => n + a.text.length + 40, 0));
  let used = 0;
  let recentFrom = turns.length;
  for (let i = turns.length - 1; i >= 0; i--) {
    used += sizes[i]!;
    if (used > floor && i < turns.length - 1) break;
    recentFrom = i;
  }
  const plans: MessagePlan[] = [];
  turns.forEach((turn, i) => {
    const trim = rank(i >= recentFrom ? "recent story" : "older story");
    if (turn.actions.length > 0) {
      const label = Number.isFinite(turn.tick) ? `Turn ${Number(turn.tick)}: ` : "";
      plans.push({
        role: "user",
        blocks: [
          block(
            `${label}what the players did`,
            bullets(turn.actions.map((a) => actionLine(a.player, a.text))),
            trim,
            { from: "start" },
          ),
        ],
      });
    }
    plans.push({
      role: "assistant",
      blocks: [block(null, [prose(turn.story, TEXT_CAPS.storyEntry)], trim, { from: "start" })],
    });
  });
  return plans;
}

/**
 * Who plays (issue 39): with several players, their names, so the narrator
 * addresses each by name, and who passed this turn (no action). Left out for
 * a lone player who acted.
 */
function playersBlock(request: NarrationRequest): Block {
  const sheets = request.context?.sheets;
  const players = sheets
    ? sheets.filter((s) => s.kind === "player").map((s) => s.name)
    : request.scene.party.map((p) => p.name);
  const acted = new Set(request.actions.map((a) => a.player));
  const passed = players.filter((p) => !acted.has(p));
  if (players.length <= 1 && passed.length === 0) return block(null, [], "protected");
  const names = (list: readonly string[]) => list.map((n) => inline(n, TEXT_CAPS.name)).join(", ");
  const lines = [`The players: ${names(players)}. Address each player character by name.`];
  if (passed.length > 0) lines.push(`Passed this turn (no action): ${names(passed)}.`);
  return block("## The players", lines, "protected");
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
  const leader =
    typeof intent.leader === "string" && intent.leader.trim() !== ""
      ? `the action of ${inline(intent.leader, TEXT_CAPS.name)}`
      : "the first action";
  const text = `The game read ${leader} as "${inline(String(intent.intent), TEXT_CAPS.name)}"${
    target === null ? "" : ` with the destination "${inline(target, TEXT_CAPS.name)}"`
  }.`;
  return block("## Intent", [text], "protected");
}
