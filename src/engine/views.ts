import type { World } from "../world/schema/index.ts";
import { isKnown } from "./known.ts";
import type { SessionState } from "./state.ts";
import { indexWorld } from "./world-index.ts";

/**
 * Whether the party knows a named entity (realm, region, location, NPC,
 * faction) in a state: what play changed, else the world's default. For the
 * front ends' views (the map, the changes under the story), which need no
 * more of the engine's world index than this.
 */
export function knownIn(world: World): (state: Pick<SessionState, "known">, name: string) => boolean {
  const index = indexWorld(world);
  return (state, name) => isKnown(state, index, name);
}
