import type { NarrationRequest } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { PROMPT_BUDGETS, TEXT_CAPS } from "./budgets.ts";
import { narratorSystem, playerNames, storyStartText } from "./narrator-system.ts";
import { share } from "./plan.ts";
import { partyNowBlock, sceneBlocks } from "./scene.ts";
import { type Block, block, fit, fixed, prose, rankIn } from "./sections.ts";
import type { ChatMessage, NarrationPromptOptions } from "./types.ts";
import { demoteHeadings, loreBlock, worldPart } from "./world-text.ts";

/**
 * Trim order of the opening prompt, first to go first. Never trimmed: the
 * system message and the world's data (cut once per game to their caps) and
 * the scene's place. The story start is the author's opening instructions
 * (issue 39): it keeps a floor of the budget and goes last.
 */
export const OPENING_TRIM_ORDER = [
  "lore",
  "traits",
  "characters present",
  "area",
  "location",
  "party",
  "story start",
] as const;

const rank = rankIn(OPENING_TRIM_ORDER);

/**
 * The opening scene (tick 0): no actions, no outcomes, no event or summary
 * yet. One-time instructions are not carried: the opening is written before
 * tick-0 triggers apply (spec 3). The story start comes right after the
 * world's data, framed as the author's opening, whether it is a scene to
 * retell or instructions to follow.
 */
export function openingPrompt(
  world: World,
  request: NarrationRequest,
  options: NarrationPromptOptions,
): ChatMessage[] {
  const budget = options.budget ?? PROMPT_BUDGETS.opening;
  const scene = request.scene;
  const start = scene.openingText ?? storyStartText(world, request.context?.storyStart);
  const user: Block[] = [
    worldPart(world, options, share(budget, "world")),
    block(
      "## Story start (the author's opening for this game: retell the scene it sets, or follow it where it gives instructions)",
      [demoteHeadings(prose(start, TEXT_CAPS.openingText))],
      rank("story start"),
      { floor: share(budget, "storyStart") },
    ),
    loreBlock(options.lore, rank("lore")),
    ...sceneBlocks(world, scene, request.context?.sheets, rank, budget),
    partyNowBlock(scene, request.context?.sheets),
    fixed(
      "## Your task",
      "Write the opening scene of the game from the story start, in this place, for this party.",
    ),
  ];
  return fit(
    [
      narratorSystem(world, "opening", budget, start, playerNames(request).length > 1),
      { role: "user", blocks: user },
    ],
    budget,
  );
}
