import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { before, describe, it } from "node:test";
import { SERVER_ERRORS } from "../../src/server/errors.ts";
import { Client, STORE_NAME, suiteServer, WORLD_TEXT } from "./harness.ts";

/** Bad input and wrong tokens of every kind: a JSON error with a stable code, never a stack trace. */
describe(`server: errors and access (${STORE_NAME})`, () => {
  let anyone: Client;
  let hash: string;
  const games: { id: string; host: Client; players: Client[]; playerIds: string[] }[] = [];

  const running = suiteServer({ bodyLimit: 4096, worldLimit: WORLD_TEXT.length + 10 });
  before(async () => {
    anyone = new Client(running.url);
    hash = (await anyone.call("POST", "/worlds?name=harbor", WORLD_TEXT)).json.hash;
    for (let g = 0; g < 2; g++) {
      const created = await anyone.post("/games", { world: hash, seed: g + 1 });
      const host = new Client(running.url, created.json.hostToken);
      const players: Client[] = [];
      const playerIds: string[] = [];
      for (const name of ["Ann", "Bea"]) {
        const joined = await anyone.post("/games/join", { invite: created.json.invite, character: { name } });
        assert.equal(joined.status, 201, joined.text);
        players.push(new Client(running.url, joined.json.token));
        playerIds.push(joined.json.playerId);
      }
      assert.equal((await host.post(`/games/${created.json.id}/start`)).status, 200);
      games.push({ id: created.json.id, host, players, playerIds });
    }
  });

  const isError = (
    answer: { status: number; json: { error?: { code?: string; message?: string } }; text: string },
    status: number,
    code: string,
  ) => {
    assert.equal(answer.status, status, answer.text);
    assert.equal(answer.json.error?.code, code, answer.text);
    assert.ok(typeof answer.json.error?.message === "string" && answer.json.error.message.length > 10);
    assert.ok(!/\bat .*\.ts:\d+/.test(answer.text), "no stack trace");
    assert.ok(code in SERVER_ERRORS, `${code} is in the error table`);
  };

  it("refuses a world with errors with the check's JSON report", async () => {
    const broken = JSON.parse(WORLD_TEXT);
    broken.triggers.meet_mara.conditions[0].type = "no-such-condition";
    const answer = await anyone.call("POST", "/worlds", JSON.stringify(broken));
    isError(answer, 422, "world/invalid");
    const report = answer.json.error.details.report;
    assert.ok(report.errorCount > 0);
    assert.ok(report.diagnostics.some((d: { severity: string; path: string }) => d.severity === "error"));
  });

  it("answers malformed, oversized and mistyped requests with stable codes", async () => {
    isError(await anyone.call("POST", "/games", "{not json"), 400, "request/malformed-json");
    isError(
      await anyone.call("POST", "/games", JSON.stringify({ world: hash, pad: "x".repeat(5000) })),
      413,
      "request/too-large",
    );
    isError(
      await anyone.call("POST", "/worlds", `${WORLD_TEXT}${" ".repeat(100)}`),
      413,
      "request/too-large",
    );
    isError(await anyone.post("/games", { world: hash, seed: -1 }), 400, "request/invalid");
    isError(await anyone.post("/games", { world: hash, extra: true }), 400, "request/invalid");
    isError(await anyone.post("/games", { world: "f".repeat(64) }), 404, "world/not-found");
    isError(await anyone.post("/games", { world: hash, storyStart: "Nowhere" }), 400, "world/unknown-name");
    isError(
      await anyone.call("POST", "/games", "<xml/>", { "content-type": "application/xml" }),
      415,
      "request/unsupported-type",
    );
    isError(await anyone.get("/games/not-an-id"), 400, "request/invalid");
    isError(await anyone.get("/nowhere"), 404, "route/not-found");
    isError(
      await anyone.post("/games/join", { invite: "NOPE-NOPE", character: { name: "X" } }),
      404,
      "game/invite-unknown",
    );
    isError(await anyone.get(`/worlds/${hash}/map.svg?realm=Atlantis`), 400, "world/unknown-name");
    const svg = await anyone.get(`/worlds/${hash}/map.svg`);
    assert.equal(svg.status, 200);
    assert.match(svg.headers.get("content-type") ?? "", /image\/svg\+xml/);
  });

  it("checks every token: missing, unknown, another game's, a player's on host routes", async () => {
    const [first, second] = games as [(typeof games)[0], (typeof games)[0]];
    isError(await anyone.get(`/games/${first.id}`), 401, "auth/missing");
    isError(await new Client(running.url, "tfp_forged").get(`/games/${first.id}`), 401, "auth/invalid");
    for (const path of [
      `/games/${second.id}`,
      `/games/${second.id}/transcript`,
      `/games/${second.id}/events`,
    ]) {
      isError(await first.players[0]!.get(path), 403, "auth/other-game");
      isError(await first.host.get(path), 403, "auth/other-game");
    }
    isError(await first.players[0]!.get(`/games/${first.id}/log`), 403, "auth/host-only");
    isError(
      await first.host.post(`/games/${first.id}/actions`, { text: "wave", idempotencyKey: "h" }),
      403,
      "auth/player-only",
    );
  });

  it("keeps one submission per player per turn, and a key for one action", async () => {
    const game = games[0]!;
    const [ann] = game.players as [Client];
    const sent = await ann.post(`/games/${game.id}/actions`, { text: "look around", idempotencyKey: "a1" });
    assert.equal(sent.status, 202, sent.text);
    isError(
      await ann.post(`/games/${game.id}/actions`, { text: "dance", idempotencyKey: "a1" }),
      409,
      "submission/key-reused",
    );
    isError(
      await ann.post(`/games/${game.id}/actions`, { text: "dance", idempotencyKey: "a2" }),
      409,
      "submission/conflict",
    );
    isError(
      await ann.post(`/games/${game.id}/quests/${encodeURIComponent("No Such Quest")}/accept`),
      422,
      "engine/refused",
    );
  });

  it("lets the host kick a player: the token stops working and the turn stops waiting", async () => {
    const game = games[0]!;
    const kicked = await game.host.post(`/games/${game.id}/players/${game.playerIds[1]}/kick`);
    assert.equal(kicked.status, 200, kicked.text);
    isError(await game.players[1]!.get(`/games/${game.id}`), 403, "auth/kicked");
    // Ann had submitted; with Bea gone, the turn runs.
    const deadline = Date.now() + 30_000;
    let tick = 0;
    while (Date.now() < deadline && tick < 1) {
      tick = (await game.host.get(`/games/${game.id}`)).json.tick;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(tick, 1);
  });

  it("pauses, refuses actions while paused, and ends", async () => {
    const game = games[1]!;
    assert.equal((await game.host.post(`/games/${game.id}/pause`)).status, 200);
    isError(
      await game.players[0]!.post(`/games/${game.id}/actions`, { text: "wait", idempotencyKey: "p" }),
      409,
      "game/state",
    );
    isError(await game.host.post(`/games/${game.id}/pause`), 409, "game/state");
    assert.equal((await game.host.post(`/games/${game.id}/resume`)).status, 200);
    isError(await game.host.post(`/games/${game.id}/turn`), 409, "turn/no-actions");
    assert.equal((await game.host.post(`/games/${game.id}/end`)).status, 200);
    isError(await game.host.post(`/games/${game.id}/start`), 409, "game/state");
  });

  it("publishes an OpenAPI 3.1 document of every route, made from the request schemas", async () => {
    const doc = (await anyone.get("/openapi.json")).json;
    assert.equal(doc.openapi, "3.1.0");
    const create = doc.paths["/games"].post;
    assert.deepEqual(create.requestBody.content["application/json"].schema.required, ["world"]);
    assert.ok(doc.paths["/games/{id}/actions"].post.security);
    assert.ok(doc.paths["/games/{id}/events"].get);
  });

  it("sends Helmet's security headers on every answer: a success, an error, a route that is not there", async () => {
    for (const [method, path, status] of [
      ["GET", "/healthz", 200],
      ["POST", "/games", 400],
      ["GET", "/no-such-route", 404],
    ] as const) {
      const answer = await fetch(`${running.url}${path}`, {
        method,
        ...(method === "POST" ? { headers: { "content-type": "application/json" }, body: "{}" } : {}),
      });
      await answer.arrayBuffer();
      assert.equal(answer.status, status, path);
      const header = (name: string) => answer.headers.get(name);
      assert.match(header("content-security-policy") ?? "", /^default-src 'none';/, path);
      assert.match(header("content-security-policy") ?? "", /object-src 'none'/, path);
      assert.equal(header("x-content-type-options"), "nosniff", path);
      assert.equal(header("x-frame-options"), "SAMEORIGIN", path);
      assert.equal(header("strict-transport-security"), "max-age=31536000; includeSubDomains", path);
      assert.equal(header("referrer-policy"), "no-referrer", path);
      assert.equal(header("cross-origin-opener-policy"), "same-origin", path);
      assert.equal(header("x-powered-by"), null, path);
    }
  });

  it("lists every error code in docs/server.md", () => {
    const docs = readFileSync(new URL("../../docs/server.md", import.meta.url), "utf8");
    for (const [code, info] of Object.entries(SERVER_ERRORS))
      assert.ok(
        docs.includes(`| \`${code}\` | ${info.status} |`),
        `docs/server.md's error table has no row for ${code}: add | \`${code}\` | ${info.status} | ${info.description} |`,
      );
  });
});
