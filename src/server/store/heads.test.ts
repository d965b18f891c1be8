import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HeadStates } from "./heads.ts";

describe("SQLite store: the states it committed (heads)", () => {
  it("keeps each game's last one, the least recently used out first past its length's limit", () => {
    const heads = new HeadStates(10);
    heads.remember("a", 1, "aaaa");
    heads.remember("b", 1, "bbbb");
    heads.remember("a", 2, "AAAA");
    assert.deepEqual(heads.known("a"), { seq: 2, state: "AAAA" }, "the newer step replaces the older");
    // "a" was used last: "b" goes first.
    heads.remember("c", 1, "cccc");
    assert.equal(heads.known("b"), undefined);
    assert.deepEqual(heads.known("a"), { seq: 2, state: "AAAA" });
    assert.deepEqual(heads.known("c"), { seq: 1, state: "cccc" });
    heads.forget("a");
    assert.equal(heads.known("a"), undefined);
    heads.remember("d", 1, "d".repeat(11));
    assert.equal(heads.known("d"), undefined, "a state longer than the limit is not kept");
    assert.deepEqual(heads.known("c"), { seq: 1, state: "cccc" }, "and pushes nothing out");
  });
});
