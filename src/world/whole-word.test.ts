import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { hasWholeWord } from "./whole-word.ts";

describe("hasWholeWord", () => {
  it("finds a name as a whole word, not inside another word", () => {
    assert.equal(hasWholeWord("Corvin Slade slides the key.", "Slade"), true);
    assert.equal(hasWholeWord("Sladeworth is a town.", "Slade"), false);
    assert.equal(hasWholeWord("the Gutted Eel's fire", "Gutted Eel"), true);
    assert.equal(hasWholeWord("Éloïse", "loïse"), false, "a letter outside ASCII is a letter");
    assert.equal(hasWholeWord("SLADE & CO.", "Slade"), false, "case counts unless told not to");
    assert.equal(hasWholeWord("SLADE & CO.", "Slade", { ignoreCase: true }), true);
    assert.equal(hasWholeWord("pier_end", "pier", { boundary: "word" }), false);
    assert.equal(hasWholeWord("pier-end", "pier", { boundary: "word" }), true);
    assert.equal(hasWholeWord("anything", ""), false);
  });

  it("takes a name of any length without a pattern size limit (a lint crash found by the property test)", () => {
    const name = "a".repeat(200_000);
    assert.equal(hasWholeWord(`${name} waits.`, name), true);
    assert.equal(hasWholeWord("short text", name), false);
  });

  it("agrees with a letter-bounded regular expression on short words", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ minLength: 1, maxLength: 4 }), (text, word) => {
        const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        const expected = new RegExp(`(?:^|[^\\p{L}])${escaped}(?![\\p{L}])`, "u").test(text);
        // The regex looks at the code unit before, hasWholeWord at the code point: they agree on BMP text.
        fc.pre(!/[\uD800-\uDFFF]/.test(text + word));
        assert.equal(hasWholeWord(text, word), expected);
      }),
    );
  });
});
