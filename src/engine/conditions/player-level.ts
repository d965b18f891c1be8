import { byCharacter, defineCondition } from "./spec.ts";

/** `player-level` (spec 2.2). */
export default defineCondition("player-level", {
  read: (_condition, snapshot) => byCharacter(snapshot, (c) => c.level),
});
