import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Contract, sharedContract } from "./contract.ts";
import { assertRefused, Client, eventually, listen, STORE_NAME, suiteServer, WORLD_TEXT } from "./harness.ts";

/**
 * The OpenAPI document is the truth (issue 32, finding 10): it is a valid OpenAPI 3.1 document, and
 * every answer the API tests get is held to it by the harness (contract.ts: the Client checks each
 * answer, the SSE listener each event). Here: the check itself can fail, and one walk requests every
 * operation of the document, with error answers, so none goes unchecked.
 */
describe(`server: the OpenAPI document holds for every answer (${STORE_NAME})`, () => {
  const running = suiteServer();

  it("is a valid OpenAPI 3.1 document, as served at /openapi.json", async () => {
    const served = await new Client(running.url).get("/openapi.json");
    assert.deepEqual(served.json, running.server.openApi());
    const result = await new Validator().validate(structuredClone(served.json));
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
  });

  it("declares every status, the Last-Event-ID header and the event payloads", () => {
    const doc = running.server.openApi() as unknown as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; in: string }[]; responses: object }>
      >;
    };
    const upload = Object.keys(doc.paths["/worlds"]!.post!.responses);
    assert.ok(
      ["200", "201", "default"].every((s) => upload.includes(s)),
      upload.join(" "),
    );
    // The errors any route can answer are declared with their codes: a token refused where one is needed.
    const submit = Object.keys(doc.paths["/games/{id}/actions"]!.post!.responses);
    for (const status of ["202", "400", "401", "403", "413", "429", "503", "default"])
      assert.ok(submit.includes(status), `POST /games/{id}/actions declares ${status}`);
    assert.ok(
      !Object.keys(doc.paths["/worlds"]!.get!.responses).includes("401"),
      "a public route needs no token",
    );
    const events = doc.paths["/games/{id}/events"]!.get!;
    assert.ok(events.parameters?.some((p) => p.in === "header" && p.name === "Last-Event-ID"));
    const stream = (
      events.responses as Record<string, { content: Record<string, { schema: { oneOf: object[] } }> }>
    )["200"]!.content["text/event-stream"]!.schema;
    // One message schema per event kind, each with its payload's fields.
    const kinds = stream.oneOf.map(
      (m) => (m as { properties: { event: { const: string } } }).properties.event.const,
    );
    for (const kind of ["turn", "submission", "player-joined", "turn-failed", "log", "narration"])
      assert.ok(kinds.includes(kind), `${kind} is declared`);
  });

  it("finds drift: an undeclared status, a body that differs, an event whose payload differs", () => {
    const contract = new Contract(running.server.openApi());
    const json = "application/json";
    assert.match(contract.check("POST", "/worlds", 204, json, "{}")?.problem ?? "", /does not declare/);
    assert.match(
      contract.check("POST", "/games", 201, json, JSON.stringify({ id: "x", hostToken: "y" }))?.problem ?? "",
      /invite/,
    );
    assert.match(
      contract.check("GET", "/games/0123/transcript", 200, "text/plain", "hi")?.problem ?? "",
      /text\/plain/,
    );
    assert.match(
      contract.check("GET", "/games/0123", 404, json, JSON.stringify({ error: { code: "nope" } }))?.problem ??
        "",
      /error|message|code/,
    );
    assert.equal(
      contract.check("POST", "/games", 201, json, JSON.stringify({ id: "x", hostToken: "y", invite: "z" })),
      undefined,
    );
    assert.match(
      contract.checkEvent({ event: "submission", id: "3", data: { player: "p", tick: 1 } })?.problem ?? "",
      /name/,
    );
    assert.match(contract.checkEvent({ event: "no-such-kind", id: "3", data: {} })?.problem ?? "", /event/);
    assert.equal(
      contract.checkEvent({ event: "narration", data: { tick: 1, text: "The fog", at: 0 } }),
      undefined,
    );
  });

  it("answers every operation of the document as it declares, errors included", {
    timeout: 120_000,
  }, async () => {
    const anyone = new Client(running.url);
    const upload = await anyone.call("POST", "/worlds?name=harbor", WORLD_TEXT);
    assert.equal(upload.status, 200, "the example world is stored at start: 200, created false");
    const fresh = await anyone.call("POST", "/worlds?name=copy", `${WORLD_TEXT}\n`);
    assert.equal(fresh.status, 201, fresh.text);
    const hash = upload.json.hash as string;
    await anyone.get("/worlds");
    await anyone.get(`/worlds/${hash}`);
    await anyone.get(`/worlds/${hash}/starts`);
    await anyone.get(`/worlds/${hash}/premades`);
    await anyone.get(`/worlds/${hash}/map.svg`);
    assertRefused(await anyone.get(`/worlds/${"0".repeat(64)}`), 404, "world/not-found", /./);

    // The host applies the story controls below at once; the party votes come after.
    const created = await anyone.post("/games", {
      world: hash,
      seed: 3,
      controls: { retry: "host", undo: "host", rewind: "host" },
    });
    const { id, hostToken, invite } = created.json;
    const host = new Client(running.url, hostToken);
    await anyone.get(`/invites/${invite}`);
    const players: Client[] = [];
    for (const character of [{ premade: "Isobel Carrow" }, { name: "Ada Quill" }]) {
      const joined = await anyone.post("/games/join", { invite, character });
      assert.equal(joined.status, 201, joined.text);
      players.push(new Client(running.url, joined.json.token));
    }
    const [p1, p2] = players as [Client, Client];
    const stream = listen(`${running.url}/games/${id}/events`, hostToken);
    assert.equal(await stream.ready, 200);
    assertRefused(await p1.post(`/games/${id}/start`), 403, "auth/host-only", /./);
    assertRefused(await anyone.get(`/games/${id}`), 401, "auth/missing", /./);
    assert.equal((await host.post(`/games/${id}/start`)).status, 200);
    await p1.get(`/games/${id}`);
    await host.get(`/games/${id}`);
    await p1.post(`/games/${id}/actions`, { text: "I look around the docks.", idempotencyKey: "a1" });
    await host.post(`/games/${id}/turn`);
    await eventually(
      () => host.get(`/games/${id}`),
      (a) => a.json.tick === 1,
    );
    await host.post(`/games/${id}/retry`);
    // The story controls (issue 33), each once, with their events on the host's stream.
    const retried = await host.post(`/games/${id}/history/retry`);
    assert.equal(retried.status, 200, retried.text);
    const altered = await host.post(`/games/${id}/history/alter`, { text: "The fog lifts over the docks." });
    assert.equal(altered.status, 200, altered.text);
    await host.get(`/games/${id}/history/branches`);
    await host.get(`/games/${id}/history/diff?a=0&b=${altered.json.seq}`);
    assert.equal((await host.post(`/games/${id}/history/undo`)).status, 200);
    await host.post(`/games/${id}/history/switch`, { branch: altered.json.seq });
    assert.equal((await host.post(`/games/${id}/history/rewind`, { tick: 0 })).status, 200);
    assertRefused(await host.post(`/games/${id}/history/undo`), 409, "game/state", /./);
    const named = await host.post(`/games/${id}/history/branches/name`, {
      branch: altered.json.seq,
      name: "Fog lifts",
    });
    assert.equal(named.status, 200, named.text);
    assertRefused(
      await host.post(`/games/${id}/history/branches/name`, { branch: altered.json.seq, name: "7" }),
      400,
      "branch/name-invalid",
      /number/,
    );
    assertRefused(
      await host.post(`/games/${id}/history/branches/delete`, { branch: 0 }),
      409,
      "game/state",
      /./,
    );
    const deleted = await host.post(`/games/${id}/history/branches/delete`, { branch: altered.json.seq });
    assert.equal(deleted.status, 200, deleted.text);
    // A party vote (votes.ts): opened by a player's request, refused twice, failed by a no.
    assert.equal((await host.call("PUT", `/games/${id}/controls`, { retry: "vote" })).status, 200);
    const asked = await p1.post(`/games/${id}/history/retry`);
    assert.equal(asked.status, 202, asked.text);
    assertRefused(await host.post(`/games/${id}/history/retry`), 409, "game/vote-open", /./);
    assertRefused(await p2.post(`/games/${id}/history/undo`), 403, "game/control-denied", /./);
    const voted = await p2.post(`/games/${id}/history/vote`, { vote: asked.json.vote.id, ballot: "no" });
    assert.equal(voted.json.outcome, "failed", voted.text);
    assertRefused(
      await p2.post(`/games/${id}/history/vote`, { vote: "0".repeat(32), ballot: "yes" }),
      409,
      "game/vote-closed",
      /./,
    );
    assertRefused(await p2.post(`/games/${id}/quests/no-such-quest/accept`), 422, "engine/refused", /./);
    await p1.get(`/games/${id}/transcript`);
    await p1.get(`/games/${id}/narrative-events`);
    await p1.get(`/games/${id}/map.svg`);
    await host.get(`/games/${id}/trace`);
    await host.get(`/games/${id}/log?limit=1`);
    await host.get(`/games/${id}/storage`);
    await host.get(`/games/${id}/cassette`);
    await host.get(`/games/${id}/playtest`);
    const save = await host.get(`/games/${id}/save`);
    const p2Id = (await p2.get(`/games/${id}`)).json.you.playerId as string;
    const seat = await host.post(`/games/${id}/players/${p2Id}/seat`);
    p2.token = seat.json.token as string;
    await host.post(`/games/${id}/pause`);
    assertRefused(await host.post(`/games/${id}/pause`), 409, "game/state", /./);
    await host.post(`/games/${id}/resume`);
    const p1Id = (await p1.get(`/games/${id}`)).json.you.playerId as string;
    await host.post(`/games/${id}/players/${p1Id}/kick`);
    // The host role handed to the other player, who takes it; then that player's seat freed.
    assert.equal((await host.post(`/games/${id}/host`, { player: p2Id })).status, 200);
    assertRefused(await host.post(`/games/${id}/end`), 401, "auth/invalid", /./);
    const claimed = await p2.post(`/games/${id}/host/claim`);
    assert.equal(claimed.status, 200, claimed.text);
    assertRefused(await p2.post(`/games/${id}/host/claim`), 409, "host/no-offer", /./);
    host.token = claimed.json.hostToken as string;
    assert.equal((await host.post(`/games/${id}/players/${p2Id}/free`)).status, 200);
    assertRefused(await host.post(`/games/${id}/players/${p2Id}/free`), 404, "player/not-found", /./);
    await host.post(`/games/${id}/end`);
    const imported = await anyone.post("/games/import", { world: hash, save: save.text });
    assert.equal(imported.status, 201, imported.text);
    assertRefused(await anyone.post("/games/import", { world: hash, save: "{}" }), 422, "save/invalid", /./);
    assertRefused(await anyone.post("/games", { world: "nope" }), 400, "request/invalid", /./);
    assertRefused(await anyone.call("DELETE", "/games"), 405, "route/method-not-allowed", /./);
    assertRefused(await anyone.get("/no/such/route"), 404, "route/not-found", /./);
    // The first host's stream ends with the event that handed the role on.
    await stream.until((events) => events.some((e) => e.event === "host-offered"));
    stream.close();

    // Every operation of the document was requested, and every answer held (the Client checks each).
    const contract = sharedContract()!;
    const seen = new Set(
      [anyone, host, ...players].flatMap((c) =>
        c.seen.map((s) => {
          const [method, url] = s.route.split(" ") as [string, string];
          const op = contract.operation(method, url.replace(running.url, ""));
          return op ? `${op.method} ${op.path}` : "";
        }),
      ),
    );
    seen.add("GET /games/{id}/events");
    const declared = Object.entries(running.server.openApi().paths).flatMap(([path, methods]) =>
      Object.keys(methods as object).map((m) => `${m.toUpperCase()} ${path}`),
    );
    assert.deepEqual(
      declared.filter((op) => !seen.has(op)),
      [],
      "every operation is requested",
    );
  });
});
