import type { SceneView } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { TEXT_CAPS } from "./budgets.ts";
import { type Block, block, bullets, cutEnd, inline, prose } from "./sections.ts";
import { traitsBlock } from "./world-text.ts";

const PARTY_LINE = 800;

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
 * The scene as the narration and opening prompts show it, in this order: the
 * place, the location, the area, the characters present, the party and its traits.
 */
export function sceneBlocks(world: World, scene: SceneView, rank: (part: ScenePart) => number): Block[] {
  return [
    placeBlock(scene),
    locationInfoBlock(scene, rank("location")),
    areaBlock(scene, rank("area")),
    npcsBlock(scene, rank("characters present")),
    partyBlock(scene, rank("party")),
    traitsBlock(world, scene.party, rank("traits")),
  ];
}

function locationInfoBlock(scene: SceneView, trim: number): Block {
  return block("## The location", [prose(scene.locationInfo ?? "", TEXT_CAPS.locationInfo)], trim);
}

function areaBlock(scene: SceneView, trim: number): Block {
  return block("## The area", [prose(scene.areaDescription ?? "", TEXT_CAPS.areaDescription)], trim);
}

/**
 * NPCs present with their public info; the last listed go first when
 * trimming. Someone the party has not met is shown by description only, so
 * the narrator cannot give the name away; a known NPC goes by the world's
 * `properName` when it has one.
 */
function npcsBlock(scene: SceneView, trim: number): Block {
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
  });
}

/** The party: name, level, current resources and traits of each member. */
function partyBlock(scene: SceneView, trim: number): Block {
  const lines = scene.party.map((member) => {
    const parts = [`${inline(member.name, TEXT_CAPS.name)}, level ${Number(member.level)}`];
    const resources = Object.entries(member.resources ?? {}).map(
      ([key, value]) => `${inline(key, TEXT_CAPS.name)} ${Number(value)}`,
    );
    if (resources.length > 0) parts.push(resources.join(", "));
    const traits = (member.traits ?? []).map((t) => inline(t, TEXT_CAPS.name)).filter((t) => t !== "");
    if (traits.length > 0) parts.push(`traits: ${traits.join(", ")}`);
    // Hundreds of traits must not make one member's line crowd out the rest.
    return cutEnd(parts.join("; "), PARTY_LINE);
  });
  return block("## The party", bullets(lines), trim, {
    omitted: (n) => `(and ${n} more members not listed)`,
  });
}
