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

test("a world play refuses names only the errors that block play, then counts the rule errors (issue 18, 2)", async () => {
  const { baseWorld } = await import("../helpers/world.ts");
  const { scratchDir } = await import("./helpers.ts");
  const world = baseWorld() as {
    premadeCharacters: Record<string, unknown>[];
    storyStarts: Record<string, Record<string, unknown>>;
  };
  world.premadeCharacters[0]!.attributes = "strong"; // a shape error: blocks play
  world.storyStarts.Morning!.locations = ["Atlantis"]; // a rule error: would not
  const file = scratchDir().write("refused.world.json", JSON.stringify(world, null, 2));
  const played = await playWith([file, "--premade", "Wren"], ["/quit"]);
  assert.equal(played.code, 1);
  const [headline, first] = played.err.split("\n");
  assert.match(headline!, /has 1 error that makes it impossible to play:$/);
  assert.match(first!, /shape\//);
  assert.doesNotMatch(played.err.split("It also has")[0]!, /story-start\/unknown-location/);
  assert.match(
    played.err,
    /It also has 1 rule error \(story-start\/unknown-location\), which would not block play on their own\./,
  );
});
