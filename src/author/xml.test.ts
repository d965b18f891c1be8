import assert from "node:assert/strict";
import { test } from "node:test";
import { parseXml, textOf } from "../../test/helpers/xml.ts";
import { oneLine, textWidth } from "./text.ts";
import { escapeXml, num } from "./xml.ts";

test("escapeXml: markup characters become references and read back the same", () => {
  const hostile = `<a href="x">Tom & 'Jerry'</a>\n\tnext\r]]>`;
  const element = parseXml(`<t v="${escapeXml(hostile)}">${escapeXml(hostile)}</t>`);
  assert.equal(element.attributes.v, hostile, "attribute values keep line breaks and tabs");
  assert.equal(textOf(element), hostile);
});

test("escapeXml: characters XML 1.0 cannot hold become U+FFFD", () => {
  assert.equal(escapeXml("a\u0000b\u001fc\ufffe"), "a\ufffdb\ufffdc\ufffd");
  assert.equal(
    escapeXml("lone \ud800 high, lone \udc00 low, pair 🐉"),
    "lone \ufffd high, lone \ufffd low, pair 🐉",
  );
  assert.doesNotThrow(() => parseXml(`<t>${escapeXml("\u0001\ud800")}</t>`));
});

test("num: two decimals at most, never -0 or NaN", () => {
  assert.equal(num(1 / 3), "0.33");
  assert.equal(num(-0.001), "0");
  assert.equal(num(Number.NaN), "0");
  assert.equal(num(120), "120");
});

test("oneLine and textWidth", () => {
  assert.equal(oneLine("a\r\nb\tc"), "a b c");
  assert.equal(oneLine("abcdef", 4), "abc…");
  assert.equal(oneLine("🐉🐉🐉", 2), "🐉…", "never splits a surrogate pair");
  assert.equal(textWidth("ab", 10), 12);
  assert.equal(textWidth("城", 10), 12, "wide characters count double");
});
