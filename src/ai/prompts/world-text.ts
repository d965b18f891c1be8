import { own } from "../../engine/own.ts";
import type { SceneView } from "../../engine/ports.ts";
import type { Trait, World } from "../../world/schema/index.ts";
import { TEXT_CAPS } from "./budgets.ts";
import { type Block, block, bullets, fit, fixed, inline, prose } from "./sections.ts";
import type { LoreEntry, NarrationPromptOptions } from "./types.ts";

/**
 * The world's own text that the narration and opening prompts carry:
 * aiInstructions tasks, the background, the narrator style and the game
 * mode's instructions. Every lookup is by own property, so a key such as
 * "constructor" or "__proto__" finds nothing rather than a prototype value.
 */

/**
 * The key real exports use for a task's free-form slot ("custom"): its text
 * goes in alone, since "custom: …" tells the model nothing. Every other entry
 * is written "Key: text", because authors use keys as labels ("Voice",
 * "Pacing", "Style Principles").
 */
const UNLABELLED_KEY = "custom";

/** A task's text before the context plan cuts it: bounds the work on a hostile field. */
const TASK_READ_MAX = 100_000;

/**
 * One aiInstructions task: its non-blank entries in key order, one paragraph
 * each. The author's own Markdown headings ("## Voice") become "Voice:"
 * lines, so they do not nest inside the prompt's sections. Cut later, once
 * per game, by the context plan (plan.ts `cutAtParagraphs`).
 */
export function taskText(world: World, task: string): string {
  const entries = own(world.aiInstructions, task);
  if (!entries || typeof entries !== "object") return "";
  const paragraphs: string[] = [];
  for (const [key, value] of Object.entries(entries)) {
    if (typeof value !== "string" || value.trim() === "") continue;
    const label = key.trim();
    paragraphs.push(
      label === "" || label === UNLABELLED_KEY
        ? value.trim()
        : `${inline(label, TEXT_CAPS.name)}: ${value.trim()}`,
    );
  }
  return demoteHeadings(prose(paragraphs.join("\n\n"), TASK_READ_MAX));
}

/** "## Style Principles" -> "Style Principles:" (a heading already ending in ":" keeps it). */
export function demoteHeadings(text: string): string {
  return text.replace(/^[ \t]*#{1,6}[ \t]+(.+?)[ \t#]*$/gm, (_, title: string) =>
    /[:.!?]$/.test(title) ? title : `${title}:`,
  );
}

/**
 * The world's blocks that open the narration and opening prompts, in this
 * order: the background, the narrator style, the game mode (with its
 * difficulty), how to depict the resources, and death. All of it is the same
 * on every turn of a game, so it belongs to the prompt's stable prefix (issue
 * 19 item 7); the lore picked for the turn comes later (`loreBlock`).
 */
export function worldBlocks(world: World, options: NarrationPromptOptions): Block[] {
  return [
    backgroundBlock(world, 1),
    styleBlock(world),
    gameModeBlock(world, options.gameMode),
    resourcesBlock(world),
    deathBlock(world),
  ];
}

/**
 * The world's blocks as one fixed block within `max` characters (the context
 * plan's cap): cut here, once per game and budget, the background first, then
 * the longest texts, so the same bytes open every prompt of the game.
 */
export function worldPart(world: World, options: NarrationPromptOptions, max: number): Block {
  const [message] = fit([{ role: "user", blocks: worldBlocks(world, options) }], max);
  return fixed(null, message?.content ?? "");
}

/**
 * Instructions from `story` effects of recurring triggers (issue 39): sent
 * whenever their trigger fires, so they are standing guidance, not news. The
 * texts are read from the world once.
 */
const recurringTexts = new WeakMap<World, Set<string>>();

export function standingTexts(world: World): Set<string> {
  let set = recurringTexts.get(world);
  if (set) return set;
  set = new Set();
  for (const trigger of Object.values(world.triggers ?? {})) {
    if ((trigger as { recurring?: unknown }).recurring !== true) continue;
    const effects = (trigger as { effects?: unknown }).effects;
    if (!Array.isArray(effects)) continue;
    for (const effect of effects) {
      const e = effect as { type?: unknown; instruction?: unknown };
      if (e?.type === "story" && typeof e.instruction === "string") set.add(e.instruction);
    }
  }
  recurringTexts.set(world, set);
  return set;
}

/** Whether a pending instruction comes from a recurring trigger ("(for Ana) " attribution aside). */
export function isStanding(world: World, instruction: string): boolean {
  const texts = standingTexts(world);
  if (texts.size === 0) return false;
  return texts.has(instruction) || texts.has(instruction.replace(/^\(for [^)]*\) /, ""));
}

/**
 * `resourceSettings.*.usageInstructions`: how the author wants each resource
 * shown in the story. The narrator depicts resources; it never changes them
 * (the narrator system's rules): only triggers do.
 */
function resourcesBlock(world: World): Block {
  const lines: string[] = [];
  for (const [key, resource] of Object.entries(world.resourceSettings ?? {})) {
    const text = (resource as { usageInstructions?: unknown }).usageInstructions;
    if (typeof text !== "string" || text.trim() === "") continue;
    const name = typeof resource.name === "string" && resource.name.trim() !== "" ? resource.name : key;
    lines.push(`${inline(name, TEXT_CAPS.name)}: ${inline(text, TEXT_CAPS.resourceUsage)}`);
  }
  return block(
    "## Resources (the game keeps these numbers and changes them itself; the author's notes below say what moves them, for you to show in the story, never to apply)",
    bullets(lines),
    "protected",
  );
}

/** `death`: the author's instructions for when a character dies, and whether death is final. */
function deathBlock(world: World): Block {
  const death = world.death as { permadeath?: unknown; instructions?: unknown } | undefined;
  const text = typeof death?.instructions === "string" ? death.instructions.trim() : "";
  if (text === "") return block(null, [], "protected");
  const rule =
    death?.permadeath === true
      ? "Death is final in this world (permadeath)."
      : "Death is not final in this world (no permadeath).";
  return block(
    "## Death (the game decides and applies it; narrate a death only when the outcomes say a character died or fell)",
    [rule, `What the game does then, in the author's words: ${prose(text, TEXT_CAPS.death)}`],
    "protected",
  );
}

/** `storySettings.worldBackground`, trimmable (it is long and the scene repeats what matters now). */
function backgroundBlock(world: World, trim: number): Block {
  const text =
    typeof world.storySettings?.worldBackground === "string" ? world.storySettings.worldBackground : "";
  return block("## World background", [prose(text, TEXT_CAPS.worldBackground)], trim);
}

/** `narratorStyle`: the author's voice, kept whole (it is an instruction). */
function styleBlock(world: World): Block {
  const text = typeof world.narratorStyle === "string" ? world.narratorStyle : "";
  return block("## Narrator style", [prose(text, TEXT_CAPS.narratorStyle)], "protected");
}

/** The session's game mode: its name, instructions and difficulty; nothing when there is none or the key is unknown. */
function gameModeBlock(world: World, gameMode: string | null): Block {
  const mode = gameMode === null ? undefined : own(world.gameModes, gameMode);
  if (!mode || typeof mode.instructions !== "string") return block(null, [], "protected");
  const name = inline(typeof mode.name === "string" && mode.name.trim() !== "" ? mode.name : gameMode!, 200);
  const items = [prose(mode.instructions, TEXT_CAPS.gameModeInstructions)];
  if (typeof mode.difficulty === "string" && mode.difficulty.trim() !== "")
    items.push(`Difficulty: ${inline(mode.difficulty, TEXT_CAPS.name)}`);
  return block(`## Game mode: ${name}`, items, "protected");
}

/** Lore picked for the turn, best first: the least relevant entries go first when trimming. */
export function loreBlock(
  lore: readonly LoreEntry[],
  trim: number,
  heading = "## Lore that may matter now",
): Block {
  const lines = lore.map((l) => `${inline(l.key, TEXT_CAPS.name)}: ${inline(l.text, TEXT_CAPS.lore)}`);
  return block(heading, bullets(lines), trim);
}

/**
 * The narrator's guidance for the party's traits (spec 2.3
 * `traitNarrativeEffects`, or the older `quirk`), each trait once with who
 * holds it. Trimmable: the most recently listed go first.
 */
export function traitsBlock(
  world: World,
  party: SceneView["party"],
  trim: number,
  only?: (holding: string) => boolean,
  heading = "## The party's traits (how to play them)",
): Block {
  const holders = new Map<string, string[]>();
  for (const member of party) {
    for (const trait of member.traits ?? []) {
      if (only && !only(traitHolding(member.name, trait))) continue;
      const list = holders.get(trait);
      if (list) list.push(member.name);
      else holders.set(trait, [member.name]);
    }
  }
  const lines: string[] = [];
  for (const [name, who] of holders) {
    const trait = own(world.traits, name) as (Trait & { quirk?: string }) | undefined;
    const guidance = [trait?.traitNarrativeEffects, trait?.quirk, trait?.description].find(
      (t) => typeof t === "string" && t.trim() !== "",
    );
    // A trait the world does not define is left out; one without guidance is still named (the sheets do not list traits).
    if (trait === undefined) continue;
    const names = who.map((w) => inline(w, TEXT_CAPS.name)).join(", ");
    const head = `${inline(name, TEXT_CAPS.name)} (${names})`;
    lines.push(guidance === undefined ? head : `${head}: ${inline(guidance, TEXT_CAPS.trait)}`);
  }
  return block(heading, bullets(lines), trim, {
    omitted: (n) => `(and ${n} more not listed)`,
  });
}

/** One member's holding of one trait, as `NarrationPromptOptions.settledTraits` names it. */
export function traitHolding(member: string, trait: string): string {
  return `${member}\u0000${trait}`;
}

/** Every trait holding of the party, in party and gain order. */
export function traitHoldings(party: SceneView["party"]): string[] {
  return party.flatMap((member) => (member.traits ?? []).map((trait) => traitHolding(member.name, trait)));
}
