import type { SceneView } from "../../engine/ports.ts";
import { TEXT_CAPS } from "./budgets.ts";
import { type Block, block, bullets, cutEnd, inline, prose } from "./sections.ts";

const PARTY_LINE = 800;

/**
 * The scene and party blocks shared by the narration and opening prompts.
 * Only what SceneView carries goes in: NPCs' public info (basicInfo), never
 * hiddenInfo, which the engine does not put in the view.
 */

/** Where the party is: one line per level, blank levels left out. Protected: the narrator must know the place. */
export function placeBlock(scene: SceneView): Block {
  const p = scene.position;
  const lines = [
    ["Realm", p.realm],
    ["Region", p.region],
    ["Location", p.location],
    ["Area", p.area],
  ]
    .filter(([, value]) => typeof value === "string" && value.trim() !== "")
    .map(([label, value]) => `${label}: ${inline(value!, TEXT_CAPS.name)}`);
  return block("## Scene", lines, "protected");
}

export function locationInfoBlock(scene: SceneView, trim: number): Block {
  return block("## The location", [prose(scene.locationInfo ?? "", TEXT_CAPS.locationInfo)], trim);
}

export function areaBlock(scene: SceneView, trim: number): Block {
  return block("## The area", [prose(scene.areaDescription ?? "", TEXT_CAPS.areaDescription)], trim);
}

/** NPCs present with their public info; the last listed go first when trimming. */
export function npcsBlock(scene: SceneView, trim: number): Block {
  const lines = scene.npcsPresent.map((npc) => {
    const name = inline(npc.name, TEXT_CAPS.name);
    const info = inline(npc.info ?? "", TEXT_CAPS.npcInfo);
    return info === "" ? name : `${name}: ${info}`;
  });
  return block("## Characters present (besides the party)", bullets(lines), trim, {
    omitted: (n) => `(and ${n} more not listed)`,
  });
}

/** The party: name, level, current resources and traits of each member. */
export function partyBlock(scene: SceneView, trim: number): Block {
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
