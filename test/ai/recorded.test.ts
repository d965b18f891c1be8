import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type CassetteEntry,
  type CassetteHeader,
  openCassetteWriter,
  parseCassette,
  readCassette,
  type TapeSink,
} from "../../src/ai/cassette.ts";
import { AiError } from "../../src/ai/errors.ts";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import type { Provider } from "../../src/ai/provider.ts";
import { firstDifference, Replay, recordProvider } from "../../src/ai/recorded.ts";
import { legacyOutcomeText } from "../../src/engine/outcome.ts";
import type { IntentRequest, Outcome } from "../../src/engine/ports.ts";
import { createSession } from "../../src/engine/session.ts";
import { scratchDir } from "../cli/helpers.ts";
import { worldWith } from "../engine/helpers.ts";

const world = worldWith();
const header: CassetteHeader = {
  format: CASSETTE_FORMAT,
  version: CASSETTE_VERSION,
  provider: "offline",
  model: "offline",
  embeddings: true,
  setup: { seed: 3 },
};

function memoryTape(): TapeSink & { entries: CassetteEntry[] } {
  const entries: CassetteEntry[] = [];
  return { entries, write: (entry) => entries.push(structuredClone(entry)) };
}

async function playThree(ai: Provider): Promise<string> {
  const session = await createSession(world, { ai, seed: 3 });
  for (const text of ["look around", "walk to the Fen Hut", "talk to Ada Reed"])
    await session.turn({ actions: [{ player: "Player", text }] });
  return session.save();
}

describe("recordProvider", () => {
  test("writes every call with its request, answer, streamed chunks and usage, in order", async () => {
    const tape = memoryTape();
    const inner = createOfflineProvider(world);
    const recorded = recordProvider(inner, tape);
    await playThree(recorded);
    const calls = tape.entries.map((e) => ("call" in e ? e.call : "input"));
    assert.equal(calls[0], "narrate", "the opening");
    assert.deepEqual(calls.slice(1, 3), ["classify", "narrate"]);
    const narration = tape.entries.find((e) => "call" in e && e.call === "narrate" && e.chunks) as {
      chunks: string[];
      answer: { text: string };
    };
    assert.equal(narration.chunks.join(""), narration.answer.text, "the chunks make the story");
    assert.ok(tape.entries.every((e) => !("call" in e) || e.usage !== undefined));
    assert.equal(recorded.name, "recorded(offline)");
    assert.equal(
      typeof recorded.embed,
      "function",
      "embeddings are recorded when the inner provider has them",
    );
  });

  test("a failing call is recorded with its error and rethrown unchanged", async () => {
    const tape = memoryTape();
    const inner = createOfflineProvider(world);
    const failing: Provider = {
      ...inner,
      classify: async () => {
        throw new AiError("rate-limited", "The server kept answering 429.");
      },
    };
    const recorded = recordProvider(failing, tape);
    await assert.rejects(recorded.classify({} as never), /429/);
    assert.deepEqual((tape.entries[0] as { error: unknown }).error, {
      kind: "rate-limited",
      message: "The server kept answering 429.",
    });
  });

  test("a sink of text gets each entry as the JSON of the entry a sink of objects gets, the failures and inputs too", async () => {
    const objects = memoryTape();
    const texts: string[] = [];
    // Its classify fails on a request of null (a failure is recorded too).
    const provider = (): Provider => {
      const inner = createOfflineProvider(world);
      return {
        ...inner,
        usage: () => inner.usage(),
        classify: async (request, signal) => {
          if (request === null) throw new AiError("server", "No answer.");
          return inner.classify(request, signal);
        },
      };
    };
    const both = [
      recordProvider(provider(), objects),
      recordProvider(provider(), {
        write: () => assert.fail("a sink with writeJson gets text only"),
        writeJson: (text) => texts.push(text),
      }),
    ];
    for (const recorded of both) {
      recorded.input({ type: "turn", skipped: undefined, actions: [{ player: "Player", text: "look" }] });
      recorded.input(undefined);
      await playThree(recorded);
      await assert.rejects(recorded.classify(null as never));
    }
    assert.ok(texts.length > 5);
    assert.deepEqual(
      texts,
      objects.entries.map((e) => JSON.stringify(e)),
    );
    // A request changed after its call is recorded as it was when it was made.
    const request: IntentRequest = {
      tick: 1,
      player: "Player",
      text: "look",
      places: [],
      position: { realm: "", region: "", location: "", area: "" },
      npcsPresent: [],
      recentStory: "",
    };
    const later: string[] = [];
    const recorded = recordProvider(createOfflineProvider(world), {
      write: () => {},
      writeJson: (t) => later.push(t),
    });
    await recorded.classify(request);
    request.text = "changed";
    assert.match(later[0]!, /"text":"look"/);
  });

  test("host inputs go on the tape between the calls", () => {
    const tape = memoryTape();
    const recorded = recordProvider(createOfflineProvider(world), tape);
    recorded.input({ type: "undo" });
    assert.deepEqual(tape.entries, [{ input: { type: "undo" } }]);
  });
});

describe("Replay", () => {
  test("a replayed game makes the same calls and ends in a byte-identical save", async () => {
    const tape = memoryTape();
    const original = await playThree(recordProvider(createOfflineProvider(world), tape));
    const replay = new Replay({ header, entries: tape.entries });
    const again = await playThree(replay.provider);
    assert.equal(again, original);
    assert.ok(replay.finished);
  });

  test("a tape recorded when outcomes were English lines still replays (issue 34)", async () => {
    const tape = memoryTape();
    const original = await playThree(recordProvider(createOfflineProvider(world), tape));
    // As such a tape holds them: each narration request's outcomes as the lines the engine wrote then.
    let lines = 0;
    const old = tape.entries.map((entry) => {
      if (!("call" in entry) || entry.call !== "narrate") return entry;
      const request = structuredClone(entry.request) as { outcomes: Outcome[] };
      const legacy = request.outcomes.map(legacyOutcomeText).filter((l) => l !== null);
      lines += legacy.length;
      return { ...entry, request: { ...request, outcomes: legacy } } as CassetteEntry;
    });
    assert.ok(lines > 0, "the game moved, so some narration had an outcome line");
    const replay = new Replay({ header, entries: old });
    assert.equal(await playThree(replay.provider), original);
    assert.ok(replay.finished);
    // A line that is not what the engine wrote is still a difference.
    const tampered = old.map((entry) =>
      "call" in entry &&
      entry.call === "narrate" &&
      (entry.request as { outcomes: string[] }).outcomes.length > 0
        ? ({
            ...entry,
            request: { ...(entry.request as object), outcomes: ["The party flew away."] },
          } as CassetteEntry)
        : entry,
    );
    await assert.rejects(playThree(new Replay({ header, entries: tampered }).provider), /outcomes/);
  });

  test("streamed chunks are replayed to onChunk, in order", async () => {
    const tape = memoryTape();
    const recorded = recordProvider(createOfflineProvider(world), tape);
    await createSession(world, { ai: recorded, seed: 3 });
    const replay = new Replay({ header, entries: tape.entries });
    const chunks: string[] = [];
    await createSession(world, { ai: replay.provider, seed: 3 }, { onChunk: (c) => chunks.push(c) });
    assert.deepEqual(chunks, (tape.entries[0] as { chunks: string[] }).chunks);
  });

  test("a request that differs from the recording names the entry and the first difference", async () => {
    const tape = memoryTape();
    await playThree(recordProvider(createOfflineProvider(world), tape));
    const replay = new Replay({ header, entries: tape.entries }, "game.jsonl");
    const session = await createSession(world, { ai: replay.provider, seed: 3 });
    assert.equal(replay.diverged, null);
    await assert.rejects(
      session.turn({ actions: [{ player: "Player", text: "look around quietly" }] }),
      /diverged from game\.jsonl, entry 2 \(classify\): the request differs at text \(recorded "look around", now "look around quietly"\)/,
    );
    assert.match(replay.diverged ?? "", /entry 2 \(classify\)/, "the replay knows it left the recording");
  });

  test("a call of another kind, a call where an input was recorded, and a call past the end are divergences", async () => {
    const request = { tick: 1 };
    const replay = (entries: CassetteEntry[]) => new Replay({ header, entries }).provider;
    await assert.rejects(
      replay([{ call: "judge", request, answer: [] }]).classify(request as never),
      /asked for a classify call where the recording has a judge call/,
    );
    await assert.rejects(
      replay([{ input: { type: "undo" } }]).classify(request as never),
      /where the recording has a player input/,
    );
    await assert.rejects(replay([]).classify(request as never), /after the end of the cassette/);
  });

  test("a tape recorded before a request field existed replays without it; any other difference is still one", async () => {
    const recorded = { tick: 1, text: "ring the bell" };
    const tape = (request: object): CassetteEntry[] => [
      { call: "narrate", request, answer: { text: "Ding." } },
    ];
    const narrate = (entries: CassetteEntry[], request: object) =>
      new Replay({ header, entries }, "old.jsonl").provider.narrate(request as never);
    // A tape from before NarrationRequest.actionsAnswered: the hint is left out of the comparison.
    assert.deepEqual(await narrate(tape(recorded), { ...recorded, actionsAnswered: true }), {
      text: "Ding.",
    });
    // A tape that has the field compares it as any other.
    await assert.rejects(
      narrate(tape({ ...recorded, actionsAnswered: true }), recorded),
      /differs at actionsAnswered \(recorded true, now undefined\)/,
    );
    // Only the later field is forgiven, and only for the call it belongs to.
    await assert.rejects(
      narrate(tape(recorded), { ...recorded, text: "ring the gong", actionsAnswered: true }),
      /differs at text/,
    );
    await assert.rejects(
      new Replay({
        header,
        entries: [{ call: "classify", request: recorded, answer: {} }],
      }).provider.classify({
        ...recorded,
        actionsAnswered: true,
      } as never),
      /differs at actionsAnswered/,
    );
  });

  test("a recorded failure is thrown again with its kind", async () => {
    const replay = new Replay({
      header,
      entries: [{ call: "classify", request: { a: 1 }, error: { kind: "timeout", message: "too slow" } }],
    });
    await assert.rejects(
      replay.provider.classify({ a: 1 } as never),
      (e: unknown) => e instanceof AiError && e.kind === "timeout" && e.message === "too slow",
    );
    assert.equal(replay.diverged, null, "a recorded failure is the recording, not a divergence");
  });

  test("inputs are read in order and only when the next entry is one", () => {
    const replay = new Replay({
      header,
      entries: [{ input: 1 }, { call: "classify", request: null, answer: null }, { input: 2 }],
    });
    assert.equal(replay.nextInput(), 1);
    assert.equal(replay.nextInput(), undefined, "a call comes first");
    assert.equal(replay.remaining, 2);
  });

  test("embeddings are offered only when the recorded provider had them", () => {
    const without = new Replay({ header: { ...header, embeddings: false }, entries: [] });
    assert.equal(without.provider.embed, undefined);
    assert.equal(typeof new Replay({ header, entries: [] }).provider.embed, "function");
  });
});

describe("cassette files", () => {
  test("written as JSON Lines, a header then one entry per line, and read back", () => {
    const dir = scratchDir();
    const path = join(dir.dir, "c.jsonl");
    const sink = openCassetteWriter(path, header);
    sink.write({ input: { type: "undo" } });
    sink.write({ call: "classify", request: { tick: 1 }, answer: { intent: "other" } });
    const lines = readFileSync(path, "utf8").trimEnd().split("\n");
    assert.equal(lines.length, 3);
    const data = readCassette(path);
    assert.deepEqual(data.header, header);
    assert.equal(data.entries.length, 2);
  });

  const cases: [string, string, RegExp][] = [
    ["an empty file", "", /is empty/],
    ["a header that is not JSON", "{oops\n", /c\.jsonl:1: not a JSON line/],
    ["another format", '{"format":"x"}\n', /not a Taleforge cassette header/],
    [
      "a newer version",
      `${JSON.stringify({ ...header, version: 9 })}\n`,
      /cassette version 9; this Taleforge reads version 1/,
    ],
    ["a broken entry line", `${JSON.stringify(header)}\n{"call":"classify"\n`, /c\.jsonl:2: not a JSON line/],
    [
      "an entry of no known kind",
      `${JSON.stringify(header)}\n{"call":"dance","request":1}\n`,
      /c\.jsonl:2: not a cassette entry/,
    ],
  ];
  for (const [label, text, message] of cases) {
    test(`refused with the line: ${label}`, () => {
      assert.throws(
        () => parseCassette(text, "c.jsonl"),
        (e: unknown) => e instanceof AiError && e.kind === "cassette" && message.test(e.message),
      );
    });
  }

  test("a missing file says how to record one; an unwritable path says what to check", () => {
    assert.throws(
      () => readCassette("/nonexistent/c.jsonl"),
      /no cassette at \/nonexistent\/c\.jsonl\. Record one/,
    );
    assert.throws(() => openCassetteWriter("/nonexistent/dir/c.jsonl", header), /cannot write the cassette/);
  });
});

describe("firstDifference", () => {
  test("finds the first differing path in objects and arrays, or null when equal", () => {
    assert.equal(firstDifference({ a: [1, 2] }, { a: [1, 2] }, ""), null);
    assert.equal(firstDifference({ a: [1, 2] }, { a: [1, 3] }, ""), "a[1] (recorded 2, now 3)");
    assert.equal(firstDifference({ a: 1 }, { a: 1, b: 2 }, ""), "b (recorded undefined, now 2)");
    assert.equal(firstDifference(1, "1", ""), 'the top (recorded 1, now "1")');
    assert.match(firstDifference("x".repeat(100), "y", "") ?? "", /recorded "x+\.\.\., now "y"/);
  });
});
