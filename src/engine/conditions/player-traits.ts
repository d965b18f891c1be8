import { byCharacter, defineCondition } from "./spec.ts";

/** `player-traits` (spec 2.2). */
export default defineCondition("player-traits", {
  // The snapshot's traits are its own copy, never changed (snapshot.ts), so they are not copied again.
  read: (_condition, snapshot) => byCharacter(snapshot, (c) => c.traits),
});
