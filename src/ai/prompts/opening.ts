import type { NarrationRequest } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { PROMPT_BUDGETS, TEXT_CAPS } from "./budgets.ts";
import { narratorSystem } from "./narrator-system.ts";
import { sceneBlocks } from "./scene.ts";
import { type Block, block, fit, fixed, prose, rankIn } from "./sections.ts";
import type { ChatMessage, NarrationPromptOptions } from "./types.ts";
import { loreBlock, worldBlocks } from "./world-text.ts";

/**
 * Trim order of the opening prompt, first to go first. Never trimmed: the
 * world's instructions (generateStory + generateInitialStart), the style, the
 * game mode and the scene's place. The story start itself goes last: the
 * opening retells it.
 */
export const OPENING_TRIM_ORDER = [
  "lore",
  "traits",
  "characters present",
  "world background",
  "area",
  "location",
  "party",
  "story start",
] as const;

const rank = rankIn(OPENING_TRIM_ORDER);

/**
 * The opening scene (tick 0): no actions, no outcomes, no event or summary yet. One-time instructions are not carried: the
 * opening is written before tick-0 triggers apply (spec 3).
 */
export function openingPrompt(
  world: World,
  request: NarrationRequest,
  options: NarrationPromptOptions,
): ChatMessage[] {
  const scene = request.scene;
  const user: Block[] = [
    ...worldBlocks(world, options, rank),
    block("## Story start", [prose(scene.openingText ?? "", TEXT_CAPS.openingText)], rank("story start")),
    loreBlock(options, rank("lore")),
    ...sceneBlocks(world, scene, rank),
    fixed(
      "## Your task",
      "Write the opening scene of the game: retell and expand the story start in this place, for this party.",
    ),
  ];
  return fit(
    [narratorSystem(world, "opening"), { role: "user", blocks: user }],
    options.budget ?? PROMPT_BUDGETS.opening,
  );
}
