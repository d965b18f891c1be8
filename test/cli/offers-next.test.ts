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
  assert.match(played.out, /This offer lapses if you leave the Gutted Eel, or after 3 turns\./);
  assert.match(played.out, /Quest "The Keeper's Debt": accepted\./);
  assert.match(played.out, /No quest is waiting for a yes or no\./);
  assert.doesNotMatch(played.out, /You y\./);
});

test("an arrival trigger completes the step the story would have named: Next is the step after it (issue 14 item 5)", async () => {
  const played = await playWith(
    ["--premade", "Isobel Carrow"],
    ["walk to the Gutted Eel", "y", "talk to Mara Venn", "travel to the Old Lighthouse", "/quit"],
  );
  assert.equal(played.code, 0, played.err);
  // Before the journey the next step is the journey itself.
  const talk = played.out.slice(played.out.indexOf("> talk to Mara Venn"), played.out.indexOf("> travel to"));
  assert.match(talk, /\nNext: Travel to the Old Lighthouse on the Gull Coast\.\n/);
  // The arrival turn: the narration is written before arrive_lighthouse completes the journey (spec
  // 2.2), so it names no next step; under it the journey is done and Next is the step after it.
  const arrival = played.out.slice(
    played.out.indexOf("> travel to the Old Lighthouse"),
    played.out.indexOf("> /quit"),
  );
  assert.doesNotMatch(arrival, /Next: Travel/);
  assert.match(arrival, /\n {2}Done: Travel to the Old Lighthouse on the Gull Coast\.\n/);
  assert.match(arrival, /\nNext: Climb the lighthouse stairwell\.\n/);
  assert.equal(arrival.match(/Next:/g)?.length, 1, arrival);
  assert.ok(
    arrival.indexOf("Done: Travel to the Old Lighthouse") < arrival.indexOf("Next: Climb"),
    "the next step is shown after the changes that made it",
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
