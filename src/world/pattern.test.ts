import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { checkPattern, compileRegex, isPlainPattern } from "./pattern.ts";

// The pieces of a plain pattern, and a few that are not (a class, a count, `(?`, a backreference).
const PLAIN_PIECES = ["a", "Z", "0", "_", " ", "-", "|", "(", ")", "?", "*", "+", ".", "^", "$"];
const ESCAPES = ["\\b", "\\B", "\\d", "\\D", "\\w", "\\W", "\\s", "\\S"];
const OTHER_PIECES = ["[", "]", "{2}", "(?:", "(?=", "\\1", "\\p{L}", "/"];

const patternOf = (pieces: string[]) =>
  fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((parts) => parts.join(""));

describe("isPlainPattern", () => {
  it("is true only of patterns RE2 compiles", () => {
    fc.assert(
      fc.property(patternOf([...PLAIN_PIECES, ...ESCAPES]), fc.boolean(), (body, literal) => {
        const source = literal ? `/${body}/i` : body;
        if (isPlainPattern(source)) assert.ok(compileRegex(source).ok, source);
      }),
      { numRuns: 20000 },
    );
  });

  it("is true of the usual patterns, false of any other construct", () => {
    for (const source of ["\\b(open|force|pry)\\b", "/^the (lost )?sheep$/i", "storm|thunder", "a+?b*", ""])
      assert.equal(isPlainPattern(source), true, source);
    for (const source of [
      "a**",
      "(a",
      "a)",
      "^*",
      "x??+",
      "[a-z]",
      "a{2}",
      "(?:a)",
      "(a)\\1",
      "/a/q",
      "\\p{L}",
    ])
      assert.equal(isPlainPattern(source), false, source);
    fc.assert(
      fc.property(
        patternOf(PLAIN_PIECES),
        fc.constantFrom(...OTHER_PIECES),
        patternOf(PLAIN_PIECES),
        (a, b, c) => {
          assert.equal(isPlainPattern(a + b + c), false);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("checkPattern", () => {
  it("answers as compileRegex does", () => {
    fc.assert(
      fc.property(patternOf([...PLAIN_PIECES, ...ESCAPES, ...OTHER_PIECES]), (source) => {
        const checked = checkPattern(source);
        const compiled = compileRegex(source);
        assert.equal(checked.ok, compiled.ok, source);
        if (!checked.ok && !compiled.ok) {
          assert.equal(checked.reason, compiled.reason);
          assert.equal(checked.unsupported, compiled.unsupported);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
