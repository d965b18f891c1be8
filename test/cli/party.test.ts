import assert from "node:assert/strict";
import { test } from "node:test";
import { playWith } from "./helpers.ts";

/**
 * Issue 14 (6): two players at one keyboard. The party's intent is read from
 * every player's action: a move asked for by the second player moves the
 * whole party, and the narration and the trace say who led and who followed.
 */
test("the second player leads a move; the party follows, and the trace names the leader", async () => {
  const played = await playWith(
    ["--premade", "Isobel Carrow", "--player", "Bram"],
    ["look around", "", "look around", "walk to the Counting House", "/trace", "/quit"],
  );
  assert.equal(played.code, 0, played.err);
  // Issue 34: a party's story names who does what, in the third person.
  assert.match(played.out, /Bram walks to the Counting House; Isobel Carrow follows\./);
  assert.match(played.out, /Isobel Carrow looks around\./);
  assert.match(played.out, /You are at the Ledger Hall of the Counting House, Brinewick\./);
  assert.match(played.out, /intent {4}travel → "Counting House" \(classifier, led by "Bram"\)/);
});

test("a player who holds the party where it is keeps it there", async () => {
  const played = await playWith(
    ["--premade", "Isobel Carrow", "--player", "Bram"],
    ["we stay here and wait", "walk to the Counting House", "/quit"],
  );
  assert.equal(played.code, 0, played.err);
  assert.doesNotMatch(played.out, /You are at the Ledger Hall/);
  assert.doesNotMatch(played.out, /walks to the Counting House/);
});
