import { byCharacter, defineCondition } from "./spec.ts";

/** `player-traits` (spec 2.2). */
export default defineCondition("player-traits", {
  read: (_condition, snapshot) => byCharacter(snapshot, (c) => [...c.traits]),
});
