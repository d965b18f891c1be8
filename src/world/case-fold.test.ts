import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { caseless, foldCase } from "./case-fold.ts";

/** The pattern atoms a caseless expression may hold: ASCII letters, digits, punctuation, classes. */
const ATOMS = [
  ..."abcdefghijklmnopqrstuvwxyz0123456789 '’,;:-_",
  "\\s",
  "\\w",
  "[sz]",
  "[^.]",
  "\\bk",
  "i\\b",
];

describe("foldCase", () => {
  it("matches every UTF-16 unit as the i flag does, at the same length", () => {
    const wrong: string[] = [];
    const atoms = ATOMS.map((atom) => {
      const source = `^(?:${atom === "'" || atom === "’" ? atom : atom.replace(/^-$/, "\\-")})$`;
      return { atom, withI: new RegExp(source, "i"), folded: caseless(new RegExp(source, "i")) };
    });
    for (let unit = 0; unit < 0x10000; unit++) {
      const ch = String.fromCharCode(unit);
      const folded = foldCase(ch);
      if (folded.length !== 1) wrong.push(`U+${unit.toString(16)} length`);
      for (const { atom, withI, folded: pattern } of atoms)
        if (withI.test(ch) !== pattern.test(folded)) wrong.push(`U+${unit.toString(16)} ${atom}`);
    }
    assert.deepEqual(wrong, []);
  });

  it("keeps word boundaries where the i flag sees them (the dotted I and the Kelvin sign)", () => {
    for (const text of ["İnclude the scene", "Keep it short", "KEEP it", "Describe Ifor", "narrator"]) {
      for (const source of ["\\binclude\\b", "^keep (?:it)\\b", "\\bdescribe\\b", "\\bnarrat\\w*"]) {
        const pattern = new RegExp(source, "i");
        assert.equal(caseless(pattern).test(foldCase(text)), pattern.test(text), `${source} on ${text}`);
      }
    }
  });

  it("agrees with the i flag on any text (property)", () => {
    const pattern = /\b(?:set|keep) (?:the|it)\b|\bk\w+|\bi\b/i;
    fc.assert(
      fc.property(
        fc
          .array(fc.constantFrom(..."sEtKkIi İ\u212a \u0131keepTHE set"), { maxLength: 30 })
          .map((a) => a.join("")),
        (text) => {
          assert.equal(caseless(pattern).test(foldCase(text)), pattern.test(text));
          assert.equal(foldCase(text).length, text.length);
        },
      ),
    );
  });

  it("refuses an expression it cannot copy: no i, a u flag, an upper-case letter", () => {
    assert.throws(() => caseless(/abc/));
    assert.throws(() => caseless(/abc/iu));
    assert.throws(() => caseless(/aBc/i));
    assert.equal(caseless(/a\Sc\W/i).flags, "");
  });
});
