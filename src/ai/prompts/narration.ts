import { outcomeLine } from "../../engine/outcome.ts";
import type { NarrationRequest } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { PROMPT_BUDGETS, TEXT_CAPS } from "./budgets.ts";
import { narratorSystem, playerNames, storyStartText } from "./narrator-system.ts";
import { openingPrompt } from "./opening.ts";
import { share } from "./plan.ts";
import { partyBlock, partyNowBlock, placeBlocks } from "./scene.ts";
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
import type { ChatMessage, LoreEntry, NarrationPromptOptions } from "./types.ts";
import { isStanding, loreBlock, traitsBlock, worldPart } from "./world-text.ts";

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

/** Traits gained since the turns shown began (`NarrationPromptOptions.settledTraits`). */
const GAINED_HEADING = "## Traits gained lately (how to play them)";
const STANDING_HEADING =
  "## Standing guidance (from the world's recurring rules: follow it on every turn it is listed)";
/** Standing guidance the stable part does not list (`NarrationPromptOptions.settledStanding`). */
const LATE_STANDING_HEADING =
  "## More standing guidance (from the world's recurring rules, listed lately: follow it as the standing guidance)";
/** Lore picked when the turns shown began (`NarrationPromptOptions.settledLore`). */
const SETTLED_LORE_HEADING = "## Lore of the story lately";

/**
 * The narrator's prompt for a turn; `request.opening` selects the opening
 * prompt instead. Messages from the most stable to the least (issue 39), so
 * consecutive turns share a long prefix a server can cache:
 *  1. system: the job, the world's instructions for the narrator (cut once
 *     per game), the rules with the world's voice;
 *  2. user: the world's data (cut once per game), the character sheets and
 *     the traits' guidance (the same while nobody joins, leaves, levels up or
 *     gains a trait), then, when the provider settles them per window
 *     (`settledTraits`, `settledLore`, `settledStanding`; src/ai/openai/settled.ts),
 *     the lore picked and the standing guidance sent when the turns since the
 *     summary began; then the running summary;
 *  3. the turns since the summary as user/assistant pairs: each turn's
 *     actions by player, then the story told for it (only grows between
 *     summaries);
 *  4. user: this turn: the scene (place, location, area, characters present:
 *     it changes whenever the party moves, so it comes after the history),
 *     standing guidance (only what is not settled), the party now, traits
 *     gained lately, journal, lore (this turn's picks not settled), one-time
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
  const settled = options.settledTraits;
  const standing = standingGuidance(world, request);
  const settledStanding = options.settledStanding;
  const oneTime = request.instructions.filter((i, n) => !standingAt(world, request, i, n));
  const first: Block[] = [
    worldPart(world, options, share(budget, "world")),
    partyBlock(world, scene, request.context?.sheets, rank("party"), budget),
    traitsBlock(world, scene.party, rank("traits"), settled && ((h) => settled.has(h))),
    options.settledLore
      ? loreBlock(options.settledLore, rank("lore"), SETTLED_LORE_HEADING)
      : block(null, [], "protected"),
    standingBlock(settledStanding ?? [], STANDING_HEADING),
    block("## Story so far (summary)", [prose(request.summary, TEXT_CAPS.summary)], rank("summary"), {
      from: "start",
    }),
  ];
  const now: Block[] = [
    ...placeBlocks(scene, rank, budget),
    settledStanding
      ? standingBlock(
          standing.filter((i) => !settledStanding.includes(i)),
          LATE_STANDING_HEADING,
        )
      : standingBlock(standing, STANDING_HEADING),
    partyNowBlock(scene, request.context?.sheets),
    settled
      ? traitsBlock(world, scene.party, rank("traits"), (h) => !settled.has(h), GAINED_HEADING)
      : block(null, [], "protected"),
    journalBlock(request, rank("journal")),
    loreBlock(latestLore(options), rank("lore")),
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
      narratorSystem(world, "turn", budget, storyStart, playerNames(request).length > 1),
      { role: "user", blocks: first },
      ...historyPlans(request, budget),
      { role: "user", blocks: now },
    ],
    budget,
  );
}

/** This turn's lore picks the stable part does not already list (`settledLore`). */
function latestLore(options: NarrationPromptOptions): readonly LoreEntry[] {
  const settled = options.settledLore;
  if (!settled) return options.lore;
  const keys = new Set(settled.map((l) => l.key));
  return options.lore.filter((l) => !keys.has(l.key));
}

function standingBlock(texts: readonly string[], heading: string): Block {
  return block(heading, bullets(texts.map((i) => inline(i, TEXT_CAPS.instruction))), "protected");
}

/** This turn's instructions that are standing guidance (from recurring triggers), in order. */
export function standingGuidance(world: World, request: NarrationRequest): string[] {
  return request.instructions.filter((i, n) => standingAt(world, request, i, n));
}

/**
 * Whether the `n`th instruction is standing guidance: the engine says which came from recurring
 * triggers (`context.standing`, scripts' effects and triggers scripts added included); a request
 * without a context (in tests) is read against the world's own recurring triggers.
 */
function standingAt(world: World, request: NarrationRequest, instruction: string, n: number): boolean {
  if (request.context) return request.context.standing?.includes(n) === true;
  return isStanding(world, instruction);
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
  const players = playerNames(request);
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
