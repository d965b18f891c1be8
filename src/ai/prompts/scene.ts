import { own } from "../../engine/own.ts";
import type { CharacterSheet, SceneView } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { TEXT_CAPS } from "./budgets.ts";
import { share } from "./plan.ts";
import { type Block, block, bullets, cutEnd, inline, prose } from "./sections.ts";
import { traitsBlock } from "./world-text.ts";

/**
 * The scene and party blocks shared by the narration and opening prompts.
 * Only what SceneView carries goes in: NPCs' public info (basicInfo), never
 * hiddenInfo, which the engine does not put in the view.
 */

/** Where the party is: one "Realm: …" / "Region: …" / "Location: …" / "Area: …" line per level, blank ones left out. */
export function placeLines(position: SceneView["position"]): string[] {
  return [
    ["Realm", position.realm],
    ["Region", position.region],
    ["Location", position.location],
    ["Area", position.area],
  ]
    .filter(([, value]) => typeof value === "string" && value.trim() !== "")
    .map(([label, value]) => `${label}: ${inline(value!, TEXT_CAPS.name)}`);
}

/** Where the party is. Protected: the narrator must know the place. */
function placeBlock(scene: SceneView): Block {
  return block("## Scene", placeLines(scene.position), "protected");
}

/** Trimmable parts of the scene blocks, named as in the trim orders. */
type ScenePart = "location" | "area" | "characters present" | "party" | "traits";

/**
 * The scene as the narration and opening prompts show it: where the party is
 * (`placeBlocks`), then who the party is (`partyBlock`) and its traits.
 */
export function sceneBlocks(
  world: World,
  scene: SceneView,
  sheets: readonly CharacterSheet[] | undefined,
  rank: (part: ScenePart) => number,
  budget: number,
): Block[] {
  return [
    ...placeBlocks(scene, rank, budget),
    partyBlock(world, scene, sheets, rank("party"), budget),
    traitsBlock(world, scene.party, rank("traits")),
  ];
}

/**
 * Where the party is, in this order: the place, the location, the area and
 * the characters present, each of the last three with a floor of the budget
 * (plan.ts). It changes whenever the party moves or someone comes or goes, so
 * a turn's prompt carries it after the earlier turns (issue 39: what varies
 * comes after the shared prefix).
 */
export function placeBlocks(
  scene: SceneView,
  rank: (part: "location" | "area" | "characters present") => number,
  budget: number,
): Block[] {
  return [
    placeBlock(scene),
    block("## The location", [prose(scene.locationInfo ?? "", TEXT_CAPS.locationInfo)], rank("location"), {
      floor: share(budget, "location"),
    }),
    block("## The area", [prose(scene.areaDescription ?? "", TEXT_CAPS.areaDescription)], rank("area"), {
      floor: share(budget, "area"),
    }),
    npcsBlock(scene, rank("characters present"), share(budget, "characters")),
  ];
}

/**
 * Who the party is: the character sheets, with a floor of the budget. They
 * stay the same while nobody joins, leaves or gains a level or ability, so
 * they belong to the stable prefix; what moves every turn (resources with
 * their maxima, items) is in `partyNowBlock`, the traits in their own block.
 */
export function partyBlock(
  world: World,
  scene: SceneView,
  sheets: readonly CharacterSheet[] | undefined,
  trim: number,
  budget: number,
): Block {
  return sheetsBlock(world, scene, sheets, trim, share(budget, "sheets"));
}

/**
 * NPCs present with their public info; the last listed go first when
 * trimming. Someone the party has not met is shown by description only, so
 * the narrator cannot give the name away; a known NPC goes by the world's
 * `properName` when it has one.
 */
function npcsBlock(scene: SceneView, trim: number, floor: number): Block {
  const lines = scene.npcsPresent.map((npc) => {
    const info = inline(npc.info ?? "", TEXT_CAPS.npcInfo);
    if (npc.known === false)
      return `Someone the party has not met (do not name them): ${info === "" ? "no description" : info}`;
    const proper = typeof npc.properName === "string" ? npc.properName.trim() : "";
    const name = inline(proper !== "" ? proper : npc.name, TEXT_CAPS.name);
    return info === "" ? name : `${name}: ${info}`;
  });
  return block("## Characters present (besides the party)", bullets(lines), trim, {
    omitted: (n) => `(and ${n} more not listed)`,
    floor,
  });
}

/**
 * The party's character sheets (issue 39): for each member, who they are
 * (the premade character's gender, description and backstory, or a party
 * NPC's public info), level, the resources it has and abilities (current
 * values, maxima and items are under "The party now", traits in their own
 * block). Players' sheets come first in party order; the last listed go
 * first when trimming.
 */
function sheetsBlock(
  world: World,
  scene: SceneView,
  sheets: readonly CharacterSheet[] | undefined,
  trim: number,
  floor: number,
): Block {
  const lines = scene.party.map((member, i) => {
    const sheet = sheets?.[i]?.name === member.name ? sheets[i] : undefined;
    return cutEnd(sheetText(world, member, sheet), SHEET_MAX);
  });
  return block("## The party (character sheets)", lines, trim, {
    join: "\n\n",
    omitted: (n) => `(and ${n} more members not listed)`,
    floor,
  });
}

/** One member's sheet: hundreds of items or traits must not make it crowd out the rest. */
const SHEET_MAX = 2_400;

function sheetText(
  world: World,
  member: SceneView["party"][number],
  sheet: CharacterSheet | undefined,
): string {
  const name = inline(member.name, TEXT_CAPS.name);
  const who = sheet?.kind === "npc" ? "party NPC" : "player character";
  const lines = [`### ${name} (${who}, level ${Number(member.level)})`];
  const premade = world.premadeCharacters?.find((p) => p.name === member.name);
  const npc = sheet?.kind === "npc" || !premade ? own(world.npcs, member.name) : undefined;
  const gender = premade?.gender ?? npc?.gender;
  if (typeof gender === "string" && gender.trim() !== "")
    lines.push(`Gender: ${inline(gender, TEXT_CAPS.name)}`);
  const description = premade?.description ?? npc?.basicInfo;
  if (typeof description === "string" && description.trim() !== "")
    lines.push(`Description: ${inline(description, TEXT_CAPS.npcInfo)}`);
  if (typeof premade?.backstory === "string" && premade.backstory.trim() !== "")
    lines.push(`Backstory: ${inline(premade.backstory, TEXT_CAPS.backstory)}`);
  // The maxima move (a level, an effect), so they are shown with the current values under "The party now".
  const resources = Object.keys(member.resources ?? {}).map((key) => inline(key, TEXT_CAPS.name));
  if (resources.length > 0)
    lines.push(`Resources: ${resources.join(", ")} (current values and maxima under "The party now")`);
  const abilities = (sheet?.abilities ?? []).map((a) => inline(a, TEXT_CAPS.name)).filter((a) => a !== "");
  if (abilities.length > 0) lines.push(`Abilities: ${abilities.join(", ")}`);
  return lines.join("\n");
}

/**
 * What changes on a sheet from turn to turn (issue 39): each member's current
 * resources with their maxima, and items. Apart from the sheets, so the sheets
 * stay in the stable prefix while health goes up and down.
 */
export function partyNowBlock(scene: SceneView, sheets: readonly CharacterSheet[] | undefined): Block {
  const lines = scene.party.map((member, i) => {
    const sheet = sheets?.[i]?.name === member.name ? sheets[i] : undefined;
    const parts: string[] = [];
    const resources = Object.entries(member.resources ?? {}).map(([key, value]) => {
      const max = sheet?.max?.[key];
      return `${inline(key, TEXT_CAPS.name)} ${Number(value)}${typeof max === "number" ? ` of ${max}` : ""}`;
    });
    if (resources.length > 0) parts.push(resources.join(", "));
    const items = Object.entries(sheet?.items ?? {}).map(([item, count]) =>
      Number(count) === 1
        ? inline(item, TEXT_CAPS.name)
        : `${inline(item, TEXT_CAPS.name)} x${Number(count)}`,
    );
    if (items.length > 0) parts.push(`items: ${items.join(", ")}`);
    return cutEnd(
      `${inline(member.name, TEXT_CAPS.name)}: ${parts.length > 0 ? parts.join("; ") : "-"}`,
      SHEET_MAX,
    );
  });
  return block("## The party now (kept by the game)", bullets(lines), "protected", {
    omitted: (n) => `(and ${n} more members not listed)`,
  });
}
