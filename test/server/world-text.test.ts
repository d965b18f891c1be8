import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Client, eventually, STORE_NAME, suiteServer, WORLD_TEXT } from "./harness.ts";

/** What a player must never receive raw: C0 but tab and newline, DEL, C1, bidi controls. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const SEQUENCES = ["\u001b]0;pwned\u0007\u001b[31m", "\u009b2J", "\u202e", "\u001bP1;2|x\u001b\\"];

/** The example world with a terminal escape in each of its names' texts (descriptions, lore, the opening). */
function hostileWorld(): string {
  const world = JSON.parse(WORLD_TEXT);
  let n = 0;
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== "object") return;
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      if (
        typeof inner === "string" &&
        /^(basicInfo|description|content|text|title|worldBackground)$/.test(key)
      )
        (value as Record<string, unknown>)[key] =
          `${inner.slice(0, 12)}${SEQUENCES[n++ % SEQUENCES.length]}${inner.slice(12)}`;
      else visit(inner);
    }
  };
  visit(world);
  assert.ok(n > 20, `${n} texts made hostile`);
  return JSON.stringify(world);
}

/** Every string of a JSON value, keys included. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (value !== null && typeof value === "object")
    for (const [key, inner] of Object.entries(value)) {
      out.push(key);
      strings(inner, out);
    }
  return out;
}

/**
 * A world's own text outside the narration (names, descriptions, the opening, the journal, the map)
 * reaches the page through the one sanitiser (issue 34 items 11, 12): no control character in what a
 * player or the host reads.
 */
describe(`server: a world's text reaches players plain (${STORE_NAME})`, () => {
  const running = suiteServer();

  it("no control character in the game's views, transcript, invite or map", {
    timeout: 120_000,
  }, async () => {
    const anyone = new Client(running.url);
    const uploaded = await anyone.call("POST", "/worlds", hostileWorld());
    assert.ok(uploaded.status === 200 || uploaded.status === 201, uploaded.text);
    const hash = uploaded.json.hash;
    const created = (await anyone.post("/games", { world: hash, seed: 4 })).json;
    const host = new Client(running.url, created.hostToken);
    const joined = (await anyone.post("/games/join", { invite: created.invite, character: { name: "Ann" } }))
      .json;
    const ann = new Client(running.url, joined.token);
    assert.equal((await host.post(`/games/${created.id}/start`)).status, 200);
    await ann.post(`/games/${created.id}/actions`, { text: "look around", idempotencyKey: "k1" });
    await eventually(
      async () => (await host.get(`/games/${created.id}`)).json.tick,
      (tick) => tick >= 1,
    );
    for (const [who, path] of [
      [ann, `/games/${created.id}`],
      [host, `/games/${created.id}`],
      [ann, `/games/${created.id}/transcript`],
      [anyone, `/invites/${created.invite}`],
      [anyone, `/worlds/${hash}/starts`],
      [anyone, `/worlds/${hash}/premades`],
    ] as const) {
      const answer = await who.get(path);
      assert.equal(answer.status, 200, `${path}: ${answer.text}`);
      const bad = strings(answer.json).filter((s) => UNSAFE.test(s));
      assert.deepEqual(
        bad.map((s) => JSON.stringify(s)),
        [],
        `${path} holds control characters`,
      );
      assert.doesNotMatch(answer.text, /\[31m|pwned|2J/, path);
    }
    const map = await ann.get(`/games/${created.id}/map.svg`);
    assert.equal(map.status, 200);
    assert.ok(!UNSAFE.test(map.text), "the map holds no control character");
  });
});
