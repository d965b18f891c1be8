import { defineCondition } from "./spec.ts";

/** `game-tick` (spec 2.2). */
export default defineCondition("game-tick", {
  read: (_condition, snapshot) => snapshot.tick,
});
