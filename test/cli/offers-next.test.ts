import assert from "node:assert/strict";
import { test } from "node:test";
import { playWith } from "./helpers.ts";

/** Issue 14 (4, 5) and issue 18 (8): offers that say when they lapse, a bare "y", a "Next" that is never stale. */

test("an offer says when it lapses; a bare y with no offer on the prompt takes the one still open", async () => {
  const played = await playWith(
    ["--premade", "Isobel Carrow"],
    ["walk to the Gutted Eel", "look around", "y", "y", "/quit"],
  );
  assert.equal(played.code, 0, played.err);
  assert.match(played.out, /This offer lapses if you leave The Gutted Eel, or after 3 turns\./);
  assert.match(played.out, /Quest "The Keeper's Debt": accepted\./);
  assert.match(played.out, /No quest is waiting for a yes or no\./);
  assert.doesNotMatch(played.out, /You y\./);
});

test("when the narration's Next names what the turn completed, the next step follows the changes", async () => {
  const played = await playWith(
    ["--premade", "Isobel Carrow"],
    ["walk to the Gutted Eel", "y", "talk to Mara Venn", "travel to the Old Lighthouse", "/quit"],
  );
  assert.equal(played.code, 0, played.err);
  assert.match(
    played.out,
    /Done: Travel to the Old Lighthouse on the Gull Coast\.\n {2}New objective: Climb the lighthouse stairwell\.\nNext: Climb the lighthouse stairwell\./,
  );
});
