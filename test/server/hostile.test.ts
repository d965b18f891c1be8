import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import net from "node:net";
import { describe, it } from "node:test";
import { Client, eventually, listen, type Running, STORE_NAME, suiteServers, WORLD_TEXT } from "./harness.ts";

/** Sends raw bytes to the server and reads what it answers until it closes the connection. */
function raw(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(bytes));
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      answer += chunk;
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

/** The status and JSON body of a raw HTTP answer. */
function parsed(answer: string): { status: number; json: { error: { code: string; message: string } } } {
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  return { status: Number(head.split(" ")[1]), json: JSON.parse(body) };
}

/** A started game of the example world with these players. */
async function startedGame(running: Running, names: string[]) {
  const anyone = new Client(running.url);
  const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash as string;
  const created = (await anyone.post("/games", { world: hash, seed: 5 })).json;
  const host = new Client(running.url, created.hostToken);
  const players: { client: Client; id: string }[] = [];
  for (const name of names) {
    const joined = await anyone.post("/games/join", { invite: created.invite, character: { name } });
    assert.equal(joined.status, 201, joined.text);
    players.push({ client: new Client(running.url, joined.json.token), id: joined.json.playerId });
  }
  assert.equal((await host.post(`/games/${created.id}/start`)).status, 200);
  return { id: created.id as string, hash, host, players };
}

/** What a hostile player or outsider tries over real HTTP, beyond the walk of every route (fuzz.test.ts). */
describe(`server: a hostile player or outsider (${STORE_NAME})`, () => {
  const start = suiteServers();

  it("counts made-up tokens on the address, and says which limit a client reached", {
    timeout: 60_000,
  }, async () => {
    // The address's limit over all its tokens (limits.test.ts) is set out of the way here.
    const running = await start({ perMinute: 6, actionsPerMinute: 2, perAddressPerMinute: 1000 });
    const { id, players } = await startedGame(running, ["Ann"]);
    const ann = players[0]!.client;
    // Each request with a new made-up token (as a flooding client sends them): the address's budget runs out.
    const statuses: number[] = [];
    let last: Awaited<ReturnType<Client["get"]>> | undefined;
    for (let i = 0; i < 12; i++) {
      last = await new Client(running.url, `tfp_madeup${i}`).post("/games/join", {
        invite: "AAAAAAAAAAAA",
        character: { name: "X" },
      });
      statuses.push(last.status);
    }
    assert.ok(statuses.includes(429), `made-up tokens reach the address's limit: ${statuses.join(",")}`);
    assert.equal(last!.json.error.code, "rate/limited");
    assert.equal(last!.json.error.details.per, "address");
    assert.equal(last!.json.error.details.counts, "requests");
    assert.match(last!.json.error.message, /from this address: at most 6 per minute/);
    // A real token has its own budget, address spent or not, and its answer names it.
    for (let i = 0; i < 6; i++) assert.equal((await ann.get(`/games/${id}`)).status, 200, `request ${i + 1}`);
    const own = await ann.get(`/games/${id}`);
    assert.equal(own.status, 429);
    assert.equal(own.json.error.details.per, "token");
    assert.match(own.json.error.message, /with this token: at most 6 per minute/);
    // The submit route's own limit, on actions (never on retries of a stored key): limits.test.ts.
  });

  it("refuses an imported save that outgrows what a game here can hold (players, storage)", {
    timeout: 60_000,
  }, async () => {
    const running = await start();
    const { id, hash, host } = await startedGame(running, ["Ann"]);
    const save = JSON.parse((await host.get(`/games/${id}/save`)).text);
    const anyone = new Client(running.url);
    const importing = (edit: (s: typeof save) => void) => {
      const copy = structuredClone(save);
      edit(copy);
      return anyone.post("/games/import", { world: hash, save: JSON.stringify(copy) });
    };
    const member = save.state.party[0];
    const crowd = await importing((s) => {
      s.state.party = Array.from({ length: 2000 }, (_, i) => ({ ...member, name: `P${i}` }));
    });
    assert.equal(crowd.status, 422, crowd.text);
    assert.equal(crowd.json.error.code, "save/invalid");
    assert.deepEqual(crowd.json.error.details, { players: 2000, limit: 16 });
    assert.match(crowd.json.error.message, /2000 player characters; a game on this server has at most 16/);

    const hoard = await importing((s) => {
      s.state.storage = { big: "x".repeat(2 * 1024 * 1024) };
    });
    assert.equal(hoard.status, 422, hoard.text);
    assert.equal(hoard.json.error.code, "save/invalid");
    assert.equal(hoard.json.error.details.limit, 1024 * 1024);

    // At the caps it is a game like any other.
    const full = await importing((s) => {
      s.state.party = Array.from({ length: 16 }, (_, i) => ({ ...member, name: `P${i}` }));
      s.state.storage = { some: "x".repeat(1000) };
    });
    assert.equal(full.status, 201, full.text);
    assert.equal(full.json.characters.length, 16);
  });

  it("refuses an imported save's maxJudged past a game's, nesting past the cap, and unreadable names", {
    timeout: 60_000,
  }, async () => {
    const running = await start();
    const { id, hash, host } = await startedGame(running, ["Ann"]);
    const save = JSON.parse((await host.get(`/games/${id}/save`)).text);
    const anyone = new Client(running.url);
    const importing = (edit: (s: typeof save) => void) => {
      const copy = structuredClone(save);
      edit(copy);
      return anyone.post("/games/import", { world: hash, save: JSON.stringify(copy) });
    };

    // The cap on AI-judged triggers drives calls to the provider: no more than a game created here has (20).
    assert.equal(save.settings.maxJudged, 20);
    for (const value of [1e9, 21, -1, 2.5, "20"]) {
      const judged = await importing((s) => {
        s.settings.maxJudged = value;
      });
      assert.equal(judged.status, 422, judged.text);
      assert.equal(judged.json.error.code, "save/invalid");
      assert.deepEqual(judged.json.error.details, { field: "settings.maxJudged", limit: 20 });
      assert.match(judged.json.error.message, /settings\.maxJudged is .*at most 20 .*from 0 to 20/);
    }
    const fewer = await importing((s) => {
      s.settings.maxJudged = 3;
    });
    assert.equal(fewer.status, 201, fewer.text);

    // Nested past the stack: refused before the engine walks it, naming the limit.
    const depth = 100_000;
    const marked = structuredClone(save);
    marked.state.storage = { deep: "MARK" };
    const deep = await anyone.post("/games/import", {
      world: hash,
      save: JSON.stringify(marked).replace('"MARK"', `${"[".repeat(depth)}${"]".repeat(depth)}`),
    });
    assert.equal(deep.status, 422, deep.text);
    assert.equal(deep.json.error.code, "save/invalid");
    assert.equal(deep.json.error.details.limit, 256);
    assert.match(deep.json.error.message, /more than 256 levels deep \(at character \d+\)/);
    assert.doesNotMatch(deep.text, /call stack/);

    // Party names are held to what a name typed at join is.
    for (const name of ["Ann\u001b[2J", "Ann\u202eevil", "Ann\u200b", "Ann\nBea"]) {
      const named = await importing((s) => {
        s.state.party[0].name = name;
      });
      assert.equal(named.status, 422, named.text);
      assert.equal(named.json.error.code, "save/invalid");
      assert.deepEqual(named.json.error.details, { at: "state.party[0].name" });
      assert.match(
        named.json.error.message,
        /state\.party\[0\]\.name holds control, bidirectional or zero-width/,
      );
    }
  });

  it("keeps each game's ids to itself: a host cannot kick another game's player", async () => {
    const running = await start();
    const first = await startedGame(running, ["Ann"]);
    const second = await startedGame(running, ["Bea"]);
    const bea = second.players[0]!;
    const kick = await first.host.post(`/games/${first.id}/players/${bea.id}/kick`);
    assert.equal(kick.status, 404, kick.text);
    assert.equal(kick.json.error.code, "player/not-found");
    const stillIn = await bea.client.get(`/games/${second.id}`);
    assert.equal(stillIn.status, 200, "the other game's player is untouched");
    const other = await first.host.post(`/games/${second.id}/players/${bea.id}/kick`);
    assert.equal(other.json.error.code, "auth/other-game");
  });

  it("answers what Node's HTTP parser refuses, and bodies of other types, in the API's error shape", async () => {
    const running = await start();
    const anyone = new Client(running.url);
    const long = await anyone.get(`/worlds?name=${"a".repeat(20_000)}`);
    assert.equal(long.status, 431);
    assert.equal(long.json.error.code, "request/headers-too-large", long.text);
    assert.match(long.json.error.message, /send a shorter URL or fewer headers/);
    const header = parsed(
      await raw(running.url, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: ${"b".repeat(20_000)}\r\n\r\n`),
    );
    assert.equal(header.status, 431);
    assert.equal(header.json.error.code, "request/headers-too-large");
    for (const bytes of [
      "NOT HTTP AT ALL\r\n\r\n",
      "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
      "GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
    ]) {
      const answer = parsed(await raw(running.url, bytes));
      assert.equal(answer.status, 400, bytes);
      assert.equal(answer.json.error.code, "request/invalid", bytes);
      assert.match(answer.json.error.message, /well-formed request/);
    }
    // A JSON text sent as text/plain is refused like any other type, not read as a string.
    const plain = await anyone.call("POST", "/games", JSON.stringify({ world: "f".repeat(64) }), {
      "content-type": "text/plain",
    });
    assert.equal(plain.status, 415, plain.text);
    assert.equal(plain.json.error.code, "request/unsupported-type");
  });

  it("refuses names and actions that could drive a terminal, reorder text or pass for another player", async () => {
    const running = await start();
    const anyone = new Client(running.url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash as string;
    const created = (await anyone.post("/games", { world: hash })).json;
    const join = (name: string) =>
      anyone.post("/games/join", { invite: created.invite, character: { name } });
    for (const name of [
      "\u001b]0;owned\u0007\u001b[2J", // ESC: the title, the screen
      "Ann\u202e", // a bidirectional override
      "Ann\u200b", // zero-width: "Ann" twice
      "Ann\nBea",
      "   ",
    ]) {
      const answer = await join(name);
      assert.equal(answer.status, 400, `${JSON.stringify(name)}: ${answer.text}`);
      assert.equal(answer.json.error.code, "request/invalid");
      assert.deepEqual(answer.json.error.details.issues[0].path, ["character", "name"]);
    }
    const ann = await join(" Ann ");
    assert.equal(ann.status, 201, ann.text);
    assert.equal(ann.json.name, "Ann", "a name is trimmed");
    assert.equal((await join("Ann")).json.error.code, "game/name-taken", "so it cannot pass for Ann");
    const player = new Client(running.url, ann.json.token);
    assert.equal(
      (await new Client(running.url, created.hostToken).post(`/games/${created.id}/start`)).status,
      200,
    );
    const ansi = await player.post(`/games/${created.id}/actions`, {
      text: "wave \u001b[8mhidden\u001b[0m",
      idempotencyKey: "a",
    });
    assert.equal(ansi.status, 400, ansi.text);
    assert.match(ansi.json.error.message, /no control or bidirectional characters/);
    const lines = await player.post(`/games/${created.id}/actions`, {
      text: "wave\n\tand smile",
      idempotencyKey: "b",
    });
    assert.equal(lines.status, 202, "line breaks and tabs are text");
    const named = await anyone.call(
      "POST",
      `/worlds?name=${encodeURIComponent("harbor\u001b[2J")}`,
      WORLD_TEXT,
    );
    assert.equal(named.status, 400, named.text);
    assert.equal(named.json.error.code, "request/invalid");
  });

  it("reads a stored world back by its shape: a rule added since its upload does not shut out its games", async () => {
    const running = await start();
    const world = JSON.parse(WORLD_TEXT);
    // A rule's error that no repair reads away (a key/name mismatch is repaired now), the shape sound:
    // a trigger's effect starts a quest the world does not have.
    const first = Object.values(world.triggers as Record<string, { effects: unknown[] }>)[0]!;
    first.effects.push({ type: "quest-init", operator: "set", value: "No Such Quest" });
    const text = JSON.stringify(world);
    const anyone = new Client(running.url);
    assert.equal(
      (await anyone.call("POST", "/worlds", text)).json.error.code,
      "world/invalid",
      "uploads are checked",
    );
    // As if uploaded before the rule existed: stored, not in this process's cache.
    const hash = createHash("sha256").update(text, "utf8").digest("hex");
    await running.server.store.putWorld({
      hash,
      name: "older",
      text,
      bytes: Buffer.byteLength(text),
      warnings: "[]",
      created_at: Date.now(),
    });
    const summary = await anyone.get(`/worlds/${hash}`);
    assert.equal(summary.status, 200, summary.text);
    const created = await anyone.post("/games", { world: hash });
    assert.equal(created.status, 201, created.text);
    // A stored text whose shape is broken is still refused with the check's report.
    const broken = JSON.stringify({ ...world, npcs: 5 });
    const brokenHash = createHash("sha256").update(broken, "utf8").digest("hex");
    await running.server.store.putWorld({
      hash: brokenHash,
      name: "broken",
      text: broken,
      bytes: broken.length,
      warnings: "[]",
      created_at: Date.now(),
    });
    const refused = await anyone.get(`/worlds/${brokenHash}`);
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.json.error.code, "world/invalid");
  });

  it("ends a kicked player's event stream with the kick: the game's next turn never reaches it", {
    timeout: 60_000,
  }, async () => {
    const running = await start();
    const { id, host, players } = await startedGame(running, ["Ann", "Bob"]);
    const [ann, bob] = players as [(typeof players)[0], (typeof players)[0]];
    const url = `${running.url}/games/${id}/events`;
    const bobStream = listen(url, bob.client.token!);
    const hostStream = listen(url, host.token!);
    assert.equal(await bobStream.ready, 200);
    assert.equal(await hostStream.ready, 200);
    await bobStream.until((e) => e.some((x) => x.event === "game-started"));

    assert.equal((await host.post(`/games/${id}/players/${bob.id}/kick`)).status, 200);
    await bobStream.until((e) => e.some((x) => x.event === "player-kicked"));
    await Promise.race([
      bobStream.ended,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error("the kicked player's stream stayed open")), 10_000),
      ),
    ]);

    // The game goes on without Bob: his stream saw none of it.
    const sent = await ann.client.post(`/games/${id}/actions`, {
      text: "whisper the plan",
      idempotencyKey: "k",
    });
    assert.equal(sent.status, 202, sent.text);
    await hostStream.until((e) => e.some((x) => x.event === "turn"));
    assert.ok(
      !bobStream.raw.includes("whisper the plan"),
      "no action after the kick reaches the kicked player",
    );
    const kickedAt = bobStream.events.findIndex((e) => e.event === "player-kicked");
    assert.deepEqual(bobStream.events.slice(kickedAt + 1), [], "nothing after the kick");
    const again = await bob.client.get(`/games/${id}/events`);
    assert.equal(again.json.error.code, "auth/kicked");
    await eventually(
      () => host.get(`/games/${id}`),
      (a) => a.json.tick === 1,
    );
    hostStream.close();
    bobStream.close();
  });
});
