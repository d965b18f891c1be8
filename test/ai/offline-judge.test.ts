import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EMBED_DIMENSION } from "../../src/ai/offline/embed.ts";
import { createOfflineProvider, JUDGE_THRESHOLD } from "../../src/ai/offline/index.ts";
import { queryWords } from "../../src/ai/offline/judge.ts";
import { stemmedWords } from "../../src/ai/offline/text.ts";
import type { JudgeQuestion, JudgeRequest } from "../../src/engine/ports.ts";
import { coverage } from "../../src/engine/relevance.ts";
import { HARBOR } from "./offline-helpers.ts";

const ai = createOfflineProvider(HARBOR);

const READ = "Does the player read the keeper's logbook?";
const LIGHT = "Does the player light the lighthouse lamp?";
const THREAT = "Corvin Slade threatens the player or their friends";

function request(
  questions: Omit<JudgeQuestion, "conditionIndex">[],
  opts: { story?: string; actions?: { player: string; text: string }[]; players?: string[] } = {},
): JudgeRequest {
  return {
    phase: "planning",
    tick: 3,
    questions: questions.map((q, i) => ({ ...q, conditionIndex: i })),
    storyText: opts.story ?? "",
    actions: opts.actions ?? [],
    players: opts.players ?? ["Isobel Carrow"],
  };
}

async function passes(kind: "story" | "action", query: string, text: string): Promise<boolean> {
  const [verdict] = await ai.judge(
    request([{ trigger: "t", kind, query }], {
      story: text,
      actions: [{ player: "Isobel Carrow", text }],
    }),
  );
  return verdict!.passed;
}

describe("offline judge: the threshold", () => {
  it(`is ${JUDGE_THRESHOLD} of the query's content words, generic words left out`, () => {
    assert.equal(JUDGE_THRESHOLD, 0.75);
    assert.deepEqual([...queryWords(READ)], ["read", "keeper", "logbook"]);
    assert.deepEqual([...queryWords(THREAT)], ["corvin", "slad", "threaten", "friend"]);
    assert.equal(coverage(queryWords(READ), stemmedWords("read the logbook")), 2 / 3);
  });

  const cases: [kind: "story" | "action", query: string, text: string, passed: boolean][] = [
    // The example world's queries pass with the obvious commands (coverage 1.0) ...
    ["action", READ, "read the keeper's logbook", true],
    ["action", READ, "I carefully read the keepers logbook", true],
    ["action", READ, "reading the keeper's logbook by lamplight", true],
    ["action", LIGHT, "light the lighthouse lamp", true],
    ["action", LIGHT, "I lit the lighthouse lamp", true],
    // ... and ordinary shorter phrasings of the same act pass: the verb and the head noun (phrasing.ts) ...
    ["action", READ, "read the logbook", true],
    ["action", LIGHT, "light the lamp", true],
    ["action", LIGHT, "light the lamp with the brass key", true],
    // ... while unrelated actions fail.
    ["action", READ, "climb the stairwell", false],
    ["action", LIGHT, "go up to the Lamp Room", false],
    // Negated actions do not count.
    ["action", READ, "I don't read the keeper's logbook", false],
    ["action", LIGHT, "never light the lighthouse lamp", false],
    // One word in four may be missing (3/4), two may not (2/4).
    ["story", THREAT, "Corvin Slade threatens your friends at the door.", true],
    ["story", THREAT, "Corvin Slade threatens you.", true],
    ["story", THREAT, "Corvin Slade is here. He slides the brass lamp key across the desk.", false],
    // Empty or generic-only queries never pass.
    ["story", "", "anything at all", false],
    ["story", "Does the player?", "the player does", false],
  ];
  for (const [kind, query, text, passed] of cases) {
    it(`${kind} ${JSON.stringify(query)} vs ${JSON.stringify(text)} -> ${passed}`, async () => {
      assert.equal(await passes(kind, query, text), passed);
    });
  }
});

describe("offline judge: verdicts and players", () => {
  it("answers every question in order, keyed by trigger and condition", async () => {
    const verdicts = await ai.judge(
      request(
        [
          { trigger: "read_logbook", kind: "action", query: READ },
          { trigger: "slade_threatens", kind: "story", query: THREAT },
          { trigger: "light_the_beacon", kind: "action", query: LIGHT },
        ],
        { story: "Fog.", actions: [{ player: "Isobel Carrow", text: "read the keeper's logbook" }] },
      ),
    );
    assert.deepEqual(
      verdicts.map((v) => [v.trigger, v.conditionIndex, v.passed]),
      [
        ["read_logbook", 0, true],
        ["slade_threatens", 1, false],
        ["light_the_beacon", 2, false],
      ],
    );
  });

  it("action questions credit the players whose own action passes", async () => {
    const [verdict] = await ai.judge(
      request([{ trigger: "t", kind: "action", query: LIGHT }], {
        actions: [
          { player: "Isobel Carrow", text: "light the lighthouse lamp" },
          { player: "Tam", text: "watch the sea" },
        ],
        players: ["Isobel Carrow", "Tam"],
      }),
    );
    assert.deepEqual(verdict, { trigger: "t", conditionIndex: 0, passed: true, players: ["Isobel Carrow"] });
  });

  it("story questions credit the players the story names, else everyone", async () => {
    const players = ["Isobel Carrow", "Tam Pascoe"];
    const named = await ai.judge(
      request([{ trigger: "t", kind: "story", query: THREAT }], {
        story: "Corvin Slade threatens Isobel and her friends.",
        players,
      }),
    );
    assert.deepEqual(named[0]!.players, ["Isobel Carrow"]);
    const none = await ai.judge(
      request([{ trigger: "t", kind: "story", query: THREAT }], {
        story: "Corvin Slade threatens you and your friends.",
        players,
      }),
    );
    assert.deepEqual(none[0]!.players, players);
  });
});

describe("offline embeddings", () => {
  const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

  it(`are ${EMBED_DIMENSION}-dimensional, L2-normalised and stable`, async () => {
    const texts = ["Does the player light the lighthouse lamp?", "The fog rolls in over Brinewick."];
    const vectors = await ai.embed!(texts);
    assert.equal(vectors.length, 2);
    for (const v of vectors) {
      assert.equal(v.length, EMBED_DIMENSION);
      assert.ok(Math.abs(Math.sqrt(dot(v, v)) - 1) < 1e-9);
    }
    assert.deepEqual(await createOfflineProvider(HARBOR).embed!(texts), vectors);
  });

  it("similar texts are closer than unrelated ones", async () => {
    const [query, near, far] = await ai.embed!([
      "Does the player read the keeper's logbook?",
      "You read the keeper's logbook in the lamp room.",
      "Gulls quarrel over fish guts at the market.",
    ]);
    assert.ok(dot(query!, near!) > dot(query!, far!) + 0.3, `${dot(query!, near!)} vs ${dot(query!, far!)}`);
  });

  it("a text without content words is the zero vector; no texts, no vectors", async () => {
    const [zero] = await ai.embed!(["the and of", ""].slice(0, 1));
    assert.ok(zero!.every((x) => x === 0));
    assert.deepEqual(await ai.embed!([]), []);
  });
});
