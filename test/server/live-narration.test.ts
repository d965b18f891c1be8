import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { NarrationCursor } from "../../src/server/live-narration.ts";
import { coalesce } from "../../src/server/store/bus.ts";
import {
  Client,
  closeSandbox,
  DATABASE_URL,
  dropStore,
  freshStore,
  gatedNarrator,
  listen,
  type SseEvent,
  STORE_NAME,
  startChildServer,
  startServer,
  WORLD_TEXT,
} from "./harness.ts";

/** The narration a stream showed for `tick`, put together by where each chunk starts (as the page does). */
function shown(events: SseEvent[], tick: number): string {
  let text = "";
  for (const e of events) {
    if (e.event !== "narration" || e.data.tick !== tick) continue;
    assert.ok(e.data.at <= text.length, `a chunk at ${e.data.at} after ${text.length} characters: a gap`);
    text = text.slice(0, e.data.at) + e.data.text;
  }
  return text;
}

describe("live narration: what a stream writes of the chunks it hears", () => {
  it("skips what it has, asks again after a gap, and starts again at a new tick", () => {
    const cursor = new NarrationCursor();
    const chunk = (tick: number, text: string, at: number) =>
      cursor.fresh({ game: "g", kind: "chunk", tick, text, at });
    assert.equal(chunk(3, "is over", 8), null, "a gap: held back");
    assert.equal(cursor.ask(10_000), true);
    assert.equal(cursor.ask(10_500), false, "not again at once");
    assert.equal(chunk(3, "The day ", 0), "The day ");
    assert.equal(chunk(3, "The day is", 0), "is", "a replay writes only what is new");
    assert.equal(chunk(3, "is over", 8), " over");
    assert.equal(cursor.offset, 15);
    assert.equal(chunk(2, "Old.", 0), "", "an older tick's chunk is not written");
    assert.equal(chunk(4, "Next", 0), "Next");
  });

  it("the bus joins only chunks that go on where the one before ends", () => {
    const out = coalesce([
      { game: "a", kind: "chunk", tick: 1, text: "The ", at: 0 },
      { game: "a", kind: "chunk", tick: 1, text: "tide ", at: 4 },
      { game: "a", kind: "chunk", tick: 1, text: "The tide ", at: 0 },
      { game: "a", kind: "chunk", tick: 1, text: "turns.", at: 9 },
    ]);
    assert.deepEqual(out, [
      { game: "a", kind: "chunk", tick: 1, text: "The tide ", at: 0 },
      { game: "a", kind: "chunk", tick: 1, text: "The tide turns.", at: 0 },
    ]);
  });
});

/**
 * A stream that opens in the middle of a narration (a reload, a dropped connection) gets it from its
 * first character; on PostgreSQL the narration is written by another process than the one the stream
 * opens on.
 */
describe(`live narration: replayed from the first chunk on every reconnection (${STORE_NAME}${DATABASE_URL ? ", two processes" : ""})`, () => {
  const where = freshStore();
  const gateFile = join(tmpdir(), `taleforge-gate-${process.pid}-${Date.now()}`);
  let open = true;
  let waiting: (() => void)[] = [];
  const gate = () => (open ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)));
  const release = () => {
    open = true;
    writeFileSync(gateFile, "");
    for (const resolve of waiting) resolve();
    waiting = [];
  };
  const hold = () => {
    open = false;
    rmSync(gateFile, { force: true });
  };
  let writer: { url: string; close(): Promise<void> };
  let reader: { url: string; close(): Promise<void> };
  before(async () => {
    writeFileSync(gateFile, "");
    // PostgreSQL: the narration is written in a child process, the streams read on this one. SQLite
    // serves from one process: one server does both.
    if (DATABASE_URL) {
      writer = await startChildServer(where, { TALEFORGE_CHILD_NARRATOR: `gate:${gateFile}` });
      reader = await startServer({ where });
    } else {
      writer = await startServer({ where, narrator: gatedNarrator(gate) });
      reader = writer;
    }
  });
  after(async () => {
    release();
    rmSync(gateFile, { force: true });
    await writer?.close();
    if (reader !== writer) await reader?.close();
    await dropStore(where);
    await closeSandbox();
  });

  it("a stream opened mid-narration shows the whole text, then the rest as it comes", {
    timeout: 120_000,
  }, async () => {
    const anyone = new Client(writer.url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    const created = (await anyone.post("/games", { world: hash, seed: 9 })).json;
    const joined = (await anyone.post("/games/join", { invite: created.invite, character: { name: "Ann" } }))
      .json;
    const player = new Client(writer.url, joined.token);
    assert.equal(
      (await new Client(writer.url, created.hostToken).post(`/games/${created.id}/start`)).status,
      200,
    );
    const events = `/games/${created.id}/events`;
    const first = listen(`${writer.url}${events}`, joined.token);
    await first.until((e) => e.some((x) => x.event === "turn"));
    const newest = first.events.filter((e) => e.id !== undefined).at(-1)!.id!;

    hold();
    // The only player acts: the turn runs on the writer, and its narration stops half written.
    const acted = await player.post(`/games/${created.id}/actions`, {
      text: "look around",
      idempotencyKey: "k1",
    });
    assert.ok(acted.status === 202 || acted.status === 200, acted.text);
    await first.until((e) => e.some((x) => x.event === "narration" && x.data.tick === 1));
    const before = shown(first.events, 1);
    // A reload: a new stream (on the other process, with PostgreSQL) from the last event it had.
    const reload = listen(`${reader.url}${events}`, joined.token, newest);
    await reload.until((e) => shown(e, 1).length >= before.length, 30_000);
    assert.ok(before.length > 0);
    assert.ok(shown(reload.events, 1).startsWith(before), "the reload starts at the first character");
    release();
    await Promise.all([
      first.until((e) => e.some((x) => x.event === "turn")),
      reload.until((e) => e.some((x) => x.event === "turn")),
    ]);
    const turn = reload.events.find((e) => e.event === "turn")!;
    const narration = (
      await new Client(writer.url, created.hostToken).get(`/games/${created.id}/transcript`)
    ).json.transcript.at(-1).narration as string;
    assert.ok(narration.length > before.length, "the narration went on after the reload");
    assert.equal(shown(reload.events, 1), narration, "the reload shows the whole narration");
    assert.equal(shown(first.events, 1), narration);
    assert.equal(turn.data.tick, 1);
    first.close();
    reload.close();
  });
});
