import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  assertRefused,
  Client,
  listen,
  type Running,
  STORE_NAME,
  suiteServers,
  WORLD_TEXT,
} from "./harness.ts";

/**
 * The refusals a newcomer following docs/server.md with curl meets, over real HTTP: each is the
 * JSON error shape with a stable code, and its message says what to do next (a route to read, a
 * step to take), not only what went wrong.
 */
describe(`server: error messages say what to do (${STORE_NAME})`, () => {
  const start = suiteServers();
  let running: Running | undefined;

  it("names the next step for game states, steps, players, tokens and realms", {
    timeout: 120_000,
  }, async () => {
    running = await start();
    const anyone = new Client(running.url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash as string;
    const created = (await anyone.post("/games", { world: hash, seed: 5 })).json;
    const other = (await anyone.post("/games", { world: hash, seed: 6 })).json;
    const host = new Client(running.url, created.hostToken);
    const ann = new Client(
      running.url,
      (await anyone.post("/games/join", { invite: created.invite, character: { name: "Ann" } })).json.token,
    );
    const id = created.id as string;

    assertRefused(
      await ann.post(`/games/${id}/actions`, { text: "look", idempotencyKey: "k0" }),
      409,
      "game/state",
      /Wait for the host to start it/,
    );
    assertRefused(await host.post(`/games/${id}/turn`), 409, "game/state", /Start it \(lobby\)/);
    assertRefused(
      await host.post(`/games/${id}/resume`),
      409,
      "game/state",
      /GET \/games\/:id shows its status/,
    );
    assertRefused(
      await host.post(`/games/${id}/players/0123456789abcdef0123456789abcdef/kick`),
      404,
      "player/not-found",
      /GET \/games\/:id lists the players/,
    );
    assertRefused(
      await host.get(`/games/${other.id}`),
      403,
      "auth/other-game",
      /use the token you got for this game/,
    );
    const map = await anyone.get(`/worlds/${hash}/map.svg?realm=Nowhere`);
    assertRefused(map, 400, "world/unknown-name", new RegExp(`GET /worlds/${hash} lists them`));
    assert.ok((map.json.error.details.realms as string[]).length > 0, "the realms it has, in details");

    assert.equal((await host.post(`/games/${id}/start`)).status, 200);
    assertRefused(await host.post(`/games/${id}/turn`), 409, "turn/no-actions", /run it once one has/);
    assertRefused(
      await host.post(`/games/${id}/start`),
      409,
      "game/state",
      /resumes with POST \/games\/:id\/resume/,
    );
    assertRefused(
      await host.get(`/games/${id}/trace?seq=99`),
      409,
      "game/state",
      /GET \/games\/:id\/transcript lists the steps/,
    );
    assertRefused(
      await ann.post(`/games/${id}/quests/No%20Such%20Quest/accept`),
      422,
      "engine/refused",
      /GET \/games\/:id lists the party's quests/,
    );
    const stream = listen(`${running.url}/games/${id}/events`, created.hostToken);
    const kicked = (await host.get(`/games/${id}`)).json.players[0].id as string;
    assert.equal((await host.post(`/games/${id}/players/${kicked}/kick`)).status, 200);
    assertRefused(
      await ann.get(`/games/${id}`),
      403,
      "auth/kicked",
      /ask a host for the invite of another game/,
    );
    stream.close();

    assert.equal((await host.post(`/games/${id}/end`)).status, 200);
    assertRefused(
      await host.post(`/games/${id}/end`),
      409,
      "game/state",
      /already ended; GET \/games\/:id shows its status/,
    );
    assertRefused(
      await anyone.post("/games/join", { invite: created.invite, character: { name: "Bo" } }),
      409,
      "game/state",
      /Create a new game to play on/,
    );
  });
});
