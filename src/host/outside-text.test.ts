import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { cleanPorts, cleanText, cleanWorld, TextCleaner } from "./outside-text.ts";

const BIDI = [0x61c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
const C0 = Array.from({ length: 32 }, (_, i) => i).filter((c) => c !== 9 && c !== 10);
const C1 = Array.from({ length: 33 }, (_, i) => 0x7f + i);
/** Everything a player must never receive raw. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe("cleanText: outside text made plain", () => {
  test("every C0 control but tab and newline, DEL, every C1 control and every bidi control is dropped", () => {
    for (const code of [...C0, ...C1, ...BIDI]) {
      // A newline after it: ESC and a letter would be one two-byte escape, removed whole.
      const clean = cleanText(`a${String.fromCharCode(code)}\nb`);
      assert.ok(!UNSAFE.test(clean), `U+${code.toString(16)} is gone: ${JSON.stringify(clean)}`);
      assert.ok(clean.startsWith("a") && clean.endsWith("b"), `the text around U+${code.toString(16)} stays`);
    }
    assert.equal(cleanText("one\ttwo\nthree"), "one\ttwo\nthree");
    assert.equal(cleanText("one\r\ntwo\rthree"), "one\ntwo\nthree");
  });

  for (const [name, sequence] of [
    ["OSC ended by BEL (the window title)", "\u001b]0;pwned\u0007"],
    ["OSC ended by ST (a hyperlink)", "\u001b]8;;https://evil.example\u001b\\"],
    ["OSC 52 (the clipboard)", "\u001b]52;c;cm0gLXJmIH4=\u0007"],
    ["8-bit OSC", "\u009d0;pwned\u009c"],
    ["CSI colour", "\u001b[31m"],
    ["CSI clear screen", "\u001b[2J"],
    ["CSI with private parameters", "\u001b[?1049h"],
    ["8-bit CSI", "\u009b2J"],
    ["DCS", "\u001bP1$r0m\u001b\\"],
    ["8-bit DCS", "\u0090qpayload\u009c"],
    ["APC", "\u001b_Gpayload\u001b\\"],
    ["a two-byte escape", "\u001bc"],
  ] as const)
    test(`${name} is removed whole`, () => {
      assert.equal(cleanText(`The bell${sequence} rings.`), "The bell rings.");
    });

  test("an OSC followed by a colour sequence: neither is left, nor any piece of them", () => {
    assert.equal(cleanText("A\u001b]0;t\u0007B\u001b[31mC\u001b[0mD"), "ABCD");
  });

  test("any text: the result holds no control a terminal or a page would act on", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => !UNSAFE.test(cleanText(text))),
    );
  });

  test("plain text is returned as it is", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const plain = text.replace(UNSAFE, "");
        return UNSAFE.test(plain) || cleanText(plain) === plain;
      }),
    );
  });
});

describe("TextCleaner: a stream of chunks", () => {
  test("a sequence split across chunks is removed whole", () => {
    const cleaner = new TextCleaner();
    const shown = ["The bell \u001b", "[3", "1mrings\u001b]0;ti", "tle\u0007 twice.\r", "\nEnd"].map((c) =>
      cleaner.push(c),
    );
    assert.equal(shown.join("") + cleaner.end(), "The bell rings twice.\nEnd");
  });

  test("any split of any text shows what cleaning the whole text shows", () => {
    const pieces = fc.array(
      fc.oneof(
        fc.string({ maxLength: 8 }),
        fc.constantFrom("\u001b]0;x\u0007", "\u001b[31m", "\u001bP1\u001b\\", "\u009b2J", "\r\n", "\u202e"),
      ),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(pieces, fc.array(fc.nat(), { maxLength: 6 }), (parts, cuts) => {
        const whole = parts.join("");
        const at = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let from = 0;
        for (const cut of at) {
          chunks.push(whole.slice(from, cut));
          from = cut;
        }
        chunks.push(whole.slice(from));
        const cleaner = new TextCleaner();
        const shown = chunks.map((c) => cleaner.push(c)).join("") + cleaner.end();
        return shown === cleanText(whole);
      }),
    );
  });
});

test("cleanPorts: the narration's chunks and text are clean; other calls pass through", async () => {
  const chunks: string[] = [];
  const inner = {
    marker: 7,
    classify: async () => ({ intents: [] }),
    judge: async () => ({ verdicts: [] }),
    narrate: async (_r: unknown, onChunk?: (t: string) => void) => {
      onChunk?.("Red \u001b[3");
      onChunk?.("1mfog\u001b]0;x\u0007.");
      return { text: "Red \u001b[31mfog\u001b]0;x\u0007.", summary: "\u202egone" };
    },
  };
  // biome-ignore lint/suspicious/noExplicitAny: a minimal stand-in for the AI ports
  const ports = cleanPorts(inner as any);
  // biome-ignore lint/suspicious/noExplicitAny: a minimal request
  const answer = await ports.narrate({} as any, (t: string) => chunks.push(t));
  assert.equal(chunks.join(""), "Red fog.");
  assert.equal(answer.text, "Red fog.");
  assert.equal(answer.summary, "gone");
  assert.equal((ports as unknown as { marker: number }).marker, 7);
});

describe("cleanWorld: a world's own text made plain for every view", () => {
  test("names, keys and texts are cleaned alike; a script is kept; a clean world is the same object", () => {
    const world = {
      locations: {
        "Mill\u001b[31m": { basicInfo: "It creaks\u001b]0;pwned\u0007.", npcs: ["Ada\u202e"] },
      },
      npcs: { "Ada\u202e": { currentLocation: "Mill\u001b[31m" } },
      triggers: { t: { script: 'log("\u001b")', effects: [{ type: "story", text: "Red\u009b2J" }] } },
    };
    const clean = cleanWorld(world);
    assert.deepEqual(clean, {
      locations: { Mill: { basicInfo: "It creaks.", npcs: ["Ada"] } },
      npcs: { Ada: { currentLocation: "Mill" } },
      triggers: { t: { script: 'log("\u001b")', effects: [{ type: "story", text: "Red" }] } },
    });
    assert.equal(cleanWorld(world), clean, "cleaned once");
    const plain = { locations: { Mill: { basicInfo: "It creaks." } } };
    assert.equal(cleanWorld(plain), plain);
  });
});
