import { emptyWorld } from "../world/defaults.ts";
import type { World } from "../world/schema/index.ts";
import { checkShape } from "../world/shape.ts";

/**
 * The part of a world that can be drawn even when the world has errors: every
 * section and every record that passed its shape check, with stand-ins for
 * the rest, exactly as the validator hands worlds to its rules. An author
 * fixing a broken world still wants to see its map and its logic; a record
 * with the wrong shape is left out rather than guessed at.
 *
 * Conditions and effects inside a kept trigger are only known to be objects
 * with a `type` (see RECORD_SHAPES), so the drawing code reads their fields
 * defensively.
 */
export function drawableWorld(root: Record<string, unknown>): World {
  const shape = checkShape(root, () => {});
  return { ...emptyWorld(), ...shape.valid } as World;
}
