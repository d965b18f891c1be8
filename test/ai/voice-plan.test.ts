/**
 * Issue 39: the world's voice (src/ai/prompts/voice.ts) and the cut of the
 * world's instructions at paragraph ends (src/ai/prompts/plan.ts).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { cutAtParagraphs } from "../../src/ai/prompts/plan.ts";
import { voiceOf, voiceRule } from "../../src/ai/prompts/voice.ts";

describe("voiceOf", () => {
  test("a person and tense named in the instructions set the voice", () => {
    assert.deepEqual(voiceOf(["Narrate in third person, present tense, with restraint."], ""), {
      person: "third",
      tense: "present",
    });
    assert.deepEqual(voiceOf(["Use the 1st-person voice and the past-tense throughout."], ""), {
      person: "first",
      tense: "past",
    });
  });

  test("a negated person is not the voice: the next one named is", () => {
    assert.deepEqual(voiceOf(["Never use second person. Write in third person."], ""), {
      person: "third",
      tense: null,
    });
    assert.equal(voiceOf(["Do not write in past tense."], "").tense, null);
  });

  test("the first text that names a person wins: instructions before the style and the story start", () => {
    const voice = voiceOf(
      ["Pacing: one scene per turn.", "Voice: third person, present tense."],
      "Write the opening in second person.",
    );
    assert.deepEqual(voice, { person: "third", tense: "present" });
    // Person and tense are found independently, each from the first text that names it.
    assert.deepEqual(voiceOf(["Past tense only."], "Tell it in first person."), {
      person: "first",
      tense: "past",
    });
  });

  test("a story start written as prose sets the person by its pronouns; one written as instructions does not", () => {
    const you =
      "You stand at the palisade as the rain comes in. Your lantern gutters, and you hear the gate chain rattle behind you.";
    assert.equal(voiceOf([], you).person, "second");
    const me =
      "I wake before dawn in the hayloft. My hands are numb, and I can hear my brother calling me from the yard below.";
    assert.equal(voiceOf([], me).person, "first");
    const orders =
      "Generate a story start appropriate to the player's chosen traits, in the capital, at the start of the festival.";
    assert.equal(voiceOf([], orders).person, null);
    // Too short to tell.
    assert.equal(voiceOf([], "You wake.").person, null);
  });

  test("no voice anywhere: the rule says second person and that the world set none", () => {
    const voice = voiceOf(["Keep scenes short."], "");
    assert.deepEqual(voice, { person: null, tense: null });
    assert.match(voiceRule(voice), /second person.*the world sets no voice/);
    assert.match(voiceRule({ person: "third", tense: "present" }), /third person.*present tense.*author set/);
  });

  test("any text gives a voice without throwing, and the same texts the same voice", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 4 }), fc.string(), (texts, start) => {
        const a = voiceOf(texts, start);
        assert.deepEqual(voiceOf(texts, start), a);
        assert.ok(a.person === null || ["first", "second", "third"].includes(a.person));
        assert.ok(a.tense === null || ["present", "past"].includes(a.tense));
      }),
    );
  });
});

describe("cutAtParagraphs", () => {
  test("a text within the cap comes back as it is", () => {
    assert.deepEqual(cutAtParagraphs("One.\n\nTwo.", 100), { text: "One.\n\nTwo.", left: 0 });
  });

  test("whole paragraphs in order; one that does not fit is skipped so a later short one still comes", () => {
    const text = ["Intro paragraph.", "x".repeat(200), "Voice: third person, present tense."].join("\n\n");
    const cut = cutAtParagraphs(text, 80);
    assert.equal(cut.text, "Intro paragraph.\n\nVoice: third person, present tense.");
    assert.equal(cut.left, 1);
  });

  test("a first paragraph longer than the cap gives its first whole sentences", () => {
    const text = `${"A short sentence. ".repeat(10).trim()}\n\nNext paragraph.`;
    const cut = cutAtParagraphs(text, 60);
    assert.ok(cut.text.length <= 60);
    assert.match(cut.text, /^A short sentence\.( A short sentence\.)*$/);
    assert.equal(cut.left, 2);
  });

  test("never over the cap, never a paragraph split mid-way, the same bytes for the same input", () => {
    const paragraph = fc.stringMatching(/^[A-Za-z ,.]{1,120}$/).map((p) => p.trim() || "x");
    fc.assert(
      fc.property(
        fc.array(paragraph, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 600 }),
        (ps, max) => {
          const text = ps.join("\n\n");
          const cut = cutAtParagraphs(text, max);
          assert.ok(cut.text.length <= max, `${cut.text.length} > ${max}`);
          assert.deepEqual(cutAtParagraphs(text, max), cut);
          if (text.length <= max) assert.equal(cut.text, text);
          // Every kept paragraph but a cut first one is one of the input's, whole and in order.
          const kept = cut.text === "" ? [] : cut.text.split("\n\n");
          let from = 0;
          for (const [i, k] of kept.entries()) {
            // The first kept paragraph is the first one, whole or cut (never a later one it may equal).
            const at =
              i === 0 && ps[0]!.trim() !== k ? -1 : ps.findIndex((p, j) => j >= from && p.trim() === k);
            if (at < 0) {
              // A first paragraph over the cap: its first sentences, or its start cut with "…".
              const squash = (t: string) => t.replace(/\s+/g, " ");
              const first = squash(ps[0]!.trim());
              const start = squash(k.replace(/…$/, ""));
              assert.ok(i === 0 && first.startsWith(start), `kept "${k}"`);
              from = 1;
            } else from = at + 1;
          }
        },
      ),
    );
  });
});
