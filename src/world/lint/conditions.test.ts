import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type Domain, holds, satisfiable } from "./conditions.ts";
import type { Condition } from "./model.ts";

const INTEGERS: Domain = { kind: "integers" };
const NUMBERS: Domain = { kind: "numbers" };
const STRINGS: Domain = { kind: "strings" };
const finite = (...values: unknown[]): Domain => ({ kind: "finite", values: new Set(values) });

function c(type: string, operator: string, value: unknown, ref = ""): Condition {
  return { index: 0, path: [], type, operator, value, ref };
}
const tick = (operator: string, value: number) => c("game-tick", operator, value);
const stored = (operator: string, value: number) => c("read-number", operator, value, "n");

describe("satisfiable", () => {
  test("the tick: whole numbers from 0", () => {
    assert.equal(satisfiable([tick("greaterThan", 5), tick("lessThan", 6)], INTEGERS), false);
    assert.equal(satisfiable([tick("greaterThanOrEqual", 3), tick("lessThanOrEqual", 3)], INTEGERS), true);
    assert.equal(
      satisfiable([tick("lessThan", 2), tick("notEquals", 0), tick("notEquals", 1)], INTEGERS),
      false,
    );
    assert.equal(satisfiable([tick("lessThan", 0)], INTEGERS), false);
    assert.equal(satisfiable([tick("equals", 2.5)], INTEGERS), false);
    assert.equal(satisfiable([tick("greaterThan", 2.5), tick("lessThan", 3)], INTEGERS), false);
    assert.equal(satisfiable([tick("greaterThan", -3)], INTEGERS), true);
    assert.equal(satisfiable([tick("notEquals", 0)], INTEGERS), true);
  });

  test("stored numbers: any finite number when arithmetic can reach it", () => {
    assert.equal(satisfiable([stored("greaterThan", 2.5), stored("lessThan", 3)], NUMBERS), true);
    assert.equal(satisfiable([stored("greaterThan", 1), stored("lessThan", 1)], NUMBERS), false);
    assert.equal(satisfiable([stored("greaterThanOrEqual", 1), stored("lessThanOrEqual", 1)], NUMBERS), true);
    assert.equal(
      satisfiable(
        [stored("greaterThanOrEqual", 1), stored("lessThanOrEqual", 1), stored("notEquals", 1)],
        NUMBERS,
      ),
      false,
    );
    assert.equal(satisfiable([stored("lessThan", -100)], NUMBERS), true);
  });

  test("finite domains: some value must meet every condition", () => {
    assert.equal(satisfiable([stored("greaterThan", 3)], finite(0, 1, 2)), false);
    assert.equal(satisfiable([stored("equals", 2)], finite(0, 1, 2)), true);
    assert.equal(satisfiable([stored("equals", 4)], finite(0, 1, 2)), false);
    const status = (operator: string, value: string) => c("quest-status", operator, value, "Q");
    assert.equal(satisfiable([status("notEquals", "hidden")], finite("hidden")), false);
    assert.equal(
      satisfiable(
        [status("equals", "accepted"), status("notEquals", "accepted")],
        finite("hidden", "accepted"),
      ),
      false,
    );
  });

  test("strings of any value: equals pins the value, contains clashes with notContains of a part", () => {
    const s = (operator: string, value: string) => c("read-string", operator, value, "s");
    assert.equal(satisfiable([s("equals", "calm"), s("equals", "grim")], STRINGS), false);
    assert.equal(satisfiable([s("equals", "calm"), s("contains", "AL")], STRINGS), true);
    assert.equal(satisfiable([s("contains", "Storm"), s("notContains", "tor")], STRINGS), false);
    assert.equal(satisfiable([s("contains", "Storm"), s("notContains", "rain")], STRINGS), true);
    assert.equal(satisfiable([s("regex", "^a"), s("regex", "^b")], STRINGS), true);
  });

  test("membership: contains pins true, notContains pins false", () => {
    const has = (operator: string) => c("read-array", operator, "fox", "list");
    assert.equal(satisfiable([has("contains")], finite(false)), false);
    assert.equal(satisfiable([has("notContains")], finite(false)), true);
    assert.equal(satisfiable([has("contains"), has("notContains")], finite(false, true)), false);
  });

  test("unknown subjects may always hold", () => {
    assert.equal(satisfiable([c("player-level", "lessThan", 0)], { kind: "unknown" }), true);
  });
});

describe("holds", () => {
  test("text compares as the engine does", () => {
    const place = (operator: string, value: string) => c("party-location", operator, value);
    assert.equal(holds(place("equals", "old mill"), "Old Mill"), false);
    assert.equal(holds(place("contains", "MILL"), "Old Mill"), true);
    assert.equal(holds(place("notContains", "mill"), "Old Mill"), false);
    assert.equal(holds(place("regex", "^Old"), "Old Mill"), true);
    assert.equal(holds(place("regex", "/^old/i"), "Old Mill"), true);
    assert.equal(holds(place("regex", "/^old/"), "Old Mill"), false);
    // A pattern that does not compile is not judged.
    assert.equal(holds(place("regex", "("), "Old Mill"), true);
  });
});
