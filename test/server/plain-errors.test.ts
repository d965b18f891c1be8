import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { openStore } from "../../src/server/store/open.ts";
import {
  type Answer,
  assertRefused,
  Client,
  type Running,
  STORE_NAME,
  suiteServers,
  WORLD_TEXT,
} from "./harness.ts";

/**
 * The mistakes a stranger makes with curl, over real HTTP: query values that are not numbers,
 * bodies of the wrong shape, the wrong method, a body over the limit, joining a started game.
 * Each answer is a JSON error with a stable code, and its message is plain words that say what
 * the request must hold (never zod's "Invalid input: expected number, received NaN").
 */
describe(`server: plain words for bad requests (${STORE_NAME})`, () => {
  const start = suiteServers();
  let running: Running | undefined;

  /** zod's own wording, which no answer may show. */
  const ZOD = /Invalid input|Invalid option|expected \w+, received|Too (small|big)|Unrecognized key|>=|<=/;

  const refused = (answer: Answer, status: number, code: string, says: RegExp) => {
    assert.doesNotMatch(answer.text, ZOD, "plain words, not zod's");
    return assertRefused(answer, status, code, says);
  };

  it("says what a query value, a body field or a method must be", { timeout: 120_000 }, async () => {
    running = await start();
    const anyone = new Client(running.url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash as string;
    const created = (await anyone.post("/games", { world: hash, seed: 3 })).json;
    const id = created.id as string;
    const host = new Client(running.url, created.hostToken);

    // Query values: one message for every way a number can be wrong, with what was sent.
    for (const [path, says] of [
      [`/games/${id}/events?after=abc`, /query\.after: must be a whole number, 0 or more \(got "abc"\)/],
      [`/games/${id}/events?after=-1`, /must be a whole number, 0 or more \(got "-1"\)/],
      [`/games/${id}/trace?seq=1.5`, /query\.seq: must be a whole number, 0 or more \(got "1\.5"\)/],
      [`/games/${id}/log?tick=NaN`, /query\.tick: must be a whole number, 0 or more \(got "NaN"\)/],
      [`/games/${id}/log?tick=1&tick=2`, /\(got 2 values: "1", "2"\)/],
      [`/games/${id}/log?limit=99999`, /query\.limit: must be a whole number from 1 to 5000 \(got "99999"\)/],
      [
        `/games/${id}/log?type=notices`,
        /query\.type: must be one of "notice", "script-log" or "trigger-script-error" \(got "notices"\)/,
      ],
    ] as const) {
      const error = refused(await host.get(path), 400, "request/invalid", says);
      assert.equal(error.details.where, "query");
    }

    // Bodies: a missing field, a wrong type, an unknown field, a choice, a list, a union's closest form.
    refused(
      await anyone.post("/games", {}),
      400,
      "request/invalid",
      /body\.world: is missing; it must be a string/,
    );
    refused(
      await anyone.post("/games", { world: hash, seed: "7" }),
      400,
      "request/invalid",
      /body\.seed: must be a number, not a string/,
    );
    refused(
      await anyone.post("/games", { world: hash, seed: -7 }),
      400,
      "request/invalid",
      /body\.seed: must be 0 or more/,
    );
    refused(
      await anyone.post("/games", { world: hash, seed: 1.5 }),
      400,
      "request/invalid",
      /body\.seed: must be a whole number, not 1\.5/,
    );
    refused(
      await anyone.post("/games", { world: hash, players: 3 }),
      400,
      "request/invalid",
      /has a field this route does not take, "players": remove it/,
    );
    refused(
      await anyone.post("/games", { world: hash, narrator: "openai" }),
      400,
      "request/invalid",
      /body\.narrator: must be one of "offline" or "server"/,
    );
    refused(
      await anyone.post("/games", [1]),
      400,
      "request/invalid",
      /at body: must be a JSON object \{\.\.\.\}, not a list/,
    );
    refused(
      await anyone.post("/games", { world: "abc" }),
      400,
      "request/invalid",
      /body\.world: must be a world hash: 64 hex digits, as POST \/worlds and GET \/worlds give it/,
    );
    const join = (character: unknown) => anyone.post("/games/join", { invite: created.invite, character });
    const traits = refused(
      await join({ name: "Ann", traits: "Noble" }),
      400,
      "request/invalid",
      /body\.character\.traits: must be a list \[\.\.\.\], not a string/,
    );
    assert.deepEqual((traits.details.issues as { path: string[] }[])[0]!.path, ["character", "traits"]);
    refused(
      await join({ premade: 7 }),
      400,
      "request/invalid",
      /body\.character\.premade: must be a string, not a number/,
    );
    for (const character of [{}, { name: "Ann", premade: "Isobel Carrow" }])
      refused(
        await join(character),
        400,
        "request/invalid",
        /body\.character: must be \{"premade": "<name>"\} for a premade character .* or \{"name": "<name>"\} for a new one/,
      );
    const ann = new Client(running.url, (await join({ name: "Ann" })).json.token);
    refused(
      await ann.post(`/games/${id}/actions`, { text: "   ", idempotencyKey: "k" }),
      400,
      "request/invalid",
      /body\.text: must not be empty/,
    );
    refused(
      await host.post(`/games/${id}/quests/X/maybe`),
      400,
      "request/invalid",
      /path\.answer: must be one of "accept", "reject" or "abandon"/,
    );
    refused(
      await anyone.get("/invites/x"),
      400,
      "request/invalid",
      /path\.code: must be at least 4 characters long/,
    );

    refused(
      await anyone.post("/games/import", { world: hash, save: { format: "taleforge-save" } }),
      400,
      "request/invalid",
      /body\.save: must be the save file's text, as one JSON string \(docs\/server\.md puts it there with jq --rawfile\)/,
    );

    // Tokens: the scheme in any case; an empty variable, another scheme or a quoted token told apart.
    const as = (authorization: string) => anyone.call("GET", `/games/${id}`, undefined, { authorization });
    assert.equal((await as(`bearer ${created.hostToken}`)).status, 200, "the scheme's case does not matter");
    refused(
      await as("Bearer "),
      401,
      "auth/missing",
      /holds no token after it \(is the shell variable meant to hold it empty\?\)/,
    );
    refused(await as("Basic dXNlcjpwYXNz"), 401, "auth/missing", /must be `Bearer <token>`.*another scheme/);
    refused(
      await as(`Bearer "${created.hostToken}"`),
      401,
      "auth/invalid",
      /Send it without quotes or spaces/,
    );
    refused(await as("Bearer tfh_forged"), 401, "auth/invalid", /not one this server issued/);

    // Not JSON: where it goes wrong.
    const broken = await anyone.call("POST", "/games", '{\n  "world": "x",\n  seed: 7\n}');
    const at = refused(
      broken,
      400,
      "request/malformed-json",
      /goes wrong at line 3, column 3 \(names and strings in double quotes/,
    );
    assert.deepEqual(at.details, { line: 3, column: 3 });

    // The wrong method: which ones the path takes. An unknown path: where the routes are listed.
    const wrongMethod = await anyone.call("DELETE", "/games");
    refused(wrongMethod, 405, "route/method-not-allowed", /^\/games takes POST, not DELETE/);
    assert.equal(wrongMethod.headers.get("allow"), "POST");
    const logByPost = await host.call("POST", `/games/${id}/log`);
    refused(logByPost, 405, "route/method-not-allowed", /takes GET, not POST/);
    assert.equal(logByPost.headers.get("allow"), "GET, HEAD");
    refused(
      await anyone.get("/nope"),
      404,
      "route/not-found",
      /No route GET \/nope; \/openapi\.json lists them/,
    );

    // A body over the limit: the limit, in the message and in details.
    const big = await ann.call(
      "POST",
      `/games/${id}/actions`,
      `{"text":"${"a".repeat(300 * 1024)}","idempotencyKey":"b"}`,
    );
    const tooLarge = refused(big, 413, "request/too-large", /\(at most 256 KiB\); send a smaller one/);
    assert.equal(tooLarge.details.limitBytes, 256 * 1024);
    refused(
      await anyone.call("POST", "/worlds", " ".repeat(8 * 1024 * 1024 + 1)),
      413,
      "request/too-large",
      /at most 8 MiB/,
    );
  });

  it("offers a started game's characters nobody plays, never a kicked player's", {
    timeout: 120_000,
  }, async () => {
    running ??= await start();
    const anyone = new Client(running.url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash as string;
    const created = (await anyone.post("/games", { world: hash, seed: 4 })).json;
    const id = created.id as string;
    const host = new Client(running.url, created.hostToken);
    const joined = [];
    for (const name of ["Ann", "Bea", "Cid"])
      joined.push((await anyone.post("/games/join", { invite: created.invite, character: { name } })).json);
    assert.equal((await host.post(`/games/${id}/start`)).status, 200);
    assert.equal((await host.post(`/games/${id}/players/${joined[2].playerId}/kick`)).status, 200);

    // Every character has a player (Cid's was kicked; the seat is not reopened): nothing to claim.
    const invite = await anyone.get(`/invites/${created.invite}`);
    assert.deepEqual(invite.json.players, ["Ann", "Bea"]);
    assert.deepEqual(invite.json.claimable, [], "a kicked player's character is not offered");
    refused(
      await anyone.post("/games/join", { invite: created.invite, character: { name: "Dan" } }),
      409,
      "game/state",
      /every character of its party has a player; ask its host to start another game/,
    );

    // Imported, the same party is all to claim; once Ann is claimed, Bea and Cid are offered, not Ann.
    const save = (await host.get(`/games/${id}/save`)).text;
    const imported = (await anyone.post("/games/import", { world: hash, save })).json;
    assert.equal(
      (await anyone.post("/games/join", { invite: imported.invite, character: { name: "Ann" } })).status,
      201,
    );
    assert.deepEqual((await anyone.get(`/invites/${imported.invite}`)).json.claimable, ["Bea", "Cid"]);
    const other = refused(
      await anyone.post("/games/join", { invite: imported.invite, character: { name: "Dan" } }),
      409,
      "game/state",
      /join as one of its characters nobody plays yet, with \{"character": \{"name": "<name>"\}\}: Bea, Cid\./,
    );
    assert.deepEqual(other.details.claimable, ["Bea", "Cid"]);

    // Ended: nothing to claim, and the status change that is already done says so.
    assert.equal((await host.post(`/games/${id}/end`)).status, 200);
    assert.deepEqual((await anyone.get(`/invites/${created.invite}`)).json.claimable, []);
    refused(await host.post(`/games/${id}/end`), 409, "game/state", /The game is already ended/);
    const importedHost = new Client(running.url, imported.hostToken);
    refused(
      await importedHost.post(`/games/${imported.id}/resume`),
      409,
      "game/state",
      /The game is already running/,
    );
  });

  it("names what is wrong with --database at the start (store/unreachable), never its password", async () => {
    await assert.rejects(
      openStore({ database: "postgresql://someone:s3cret@127.0.0.1:1/taleforge" }),
      (error: { code?: string; message?: string; details?: Record<string, unknown> }) => {
        assert.equal(error.code, "store/unreachable");
        assert.match(
          error.message ?? "",
          /^Cannot reach PostgreSQL at 127\.0\.0\.1:1 \(.*\); check that it runs there/,
        );
        assert.doesNotMatch(`${error.message} ${JSON.stringify(error.details)}`, /s3cret/);
        return true;
      },
    );
  });
});
