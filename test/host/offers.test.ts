import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SessionState } from "../../src/engine/index.ts";
import { readLine, replyOf, replyProblem } from "../../src/host/offers.ts";

/** A state with the given quests (status, and the tick each became available at). */
function state(tick: number, quests: Record<string, [string, number?]>): SessionState {
  return {
    tick,
    quests: Object.fromEntries(
      Object.entries(quests).map(([key, [status, at]]) => [
        key,
        { status, availableAt: at === undefined ? null : { tick: at, location: "Here" } },
      ]),
    ),
  } as unknown as SessionState;
}

describe("host: a line typed while quests are on offer (one rule for the terminal and the browser)", () => {
  it("reads the ways people say yes and no; anything longer is an action", () => {
    for (const yes of ["y", "Y", "yes", "Yes.", "yeah", "I accept the quest", "accept it", "agree"])
      assert.equal(replyOf(yes), "accept", yes);
    for (const no of ["n", "no", "No, I decline the offer", "reject", "refuse it"])
      assert.equal(replyOf(no), "reject", no);
    for (const action of ["yell", "yes, and I walk to the pier", "no way I climb that", ""])
      assert.equal(replyOf(action), null);
  });

  it("answers the newest offer first, then the one offer left; several older ones or none are not answered", () => {
    const two = state(3, { Old: ["available", 1], New: ["available", 3], Done: ["accepted", 2] });
    assert.deepEqual(readLine("y", two), { type: "answer", quest: "New", answer: "accept" });
    assert.deepEqual(readLine("walk to the pier", two), { type: "action" });
    const later = state(4, { Old: ["available", 1], New: ["available", 3] });
    const several = readLine("no", later);
    assert.deepEqual(several, { type: "several", answer: "reject", quests: ["Old", "New"] });
    assert.match(
      replyProblem(several as never, { list: "L", answer: "use the buttons." }),
      /^Several quests are on offer \(Old, New\): use the buttons\.$/,
    );
    assert.deepEqual(readLine("no", state(4, { Old: ["available", 1] })), {
      type: "answer",
      quest: "Old",
      answer: "reject",
    });
    const none = readLine("y", state(4, { Old: ["accepted", 1] }));
    assert.deepEqual(none, { type: "no-offer", answer: "accept" });
    assert.equal(
      replyProblem(none as never, { list: "/quests lists them.", answer: "" }),
      "No quest is waiting for a yes or no. /quests lists them.",
    );
  });
});
