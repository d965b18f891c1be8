import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { SERVER_ERRORS } from "../../src/server/errors.ts";
import { Client, STORE_NAME, suiteServer, WORLD_TEXT } from "./harness.ts";

interface Operation {
  security?: unknown;
  requestBody?: unknown;
  "x-access"?: string;
  parameters?: { in: string; name: string; schema?: { type?: string } }[];
}

const BODY_LIMIT = 4096;
const WORLD_LIMIT = WORLD_TEXT.length + 10;

/**
 * Every route of /openapi.json, sent what a careless or hostile client sends:
 * malformed ids, unknown ids, missing, forged and foreign tokens, bodies that
 * are not JSON, JSON of the wrong shape, bodies over the limit, the wrong
 * content type, query values of the wrong type. Each answer is a JSON error
 * with a code from the error table, a message, no stack trace, and never a
 * 5xx.
 */
describe(`server: malformed and oversized requests on every route (${STORE_NAME})`, () => {
  let anyone: Client;
  let paths: Record<string, Record<string, Operation>>;
  let real: Record<string, string>;
  let hostToken: string;
  let playerToken: string;
  let foreignToken: string;
  const checked = new Set<string>();

  const running = suiteServer({ bodyLimit: BODY_LIMIT, worldLimit: WORLD_LIMIT });
  before(async () => {
    anyone = new Client(running.url);
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    const games = [];
    for (let g = 0; g < 2; g++) {
      const created = (await anyone.post("/games", { world: hash, seed: g })).json;
      const joined = (
        await anyone.post("/games/join", { invite: created.invite, character: { name: "Ann" } })
      ).json;
      // Bea is the one the kick route may remove: Ann's token must keep working.
      const bea = (await anyone.post("/games/join", { invite: created.invite, character: { name: "Bea" } }))
        .json;
      await new Client(running.url, created.hostToken).post(`/games/${created.id}/start`);
      games.push({ ...created, player: bea.playerId, playerToken: joined.token });
    }
    real = { id: games[0].id, hash, player: games[0].player, quest: "The Keeper's Debt", answer: "accept" };
    hostToken = games[0].hostToken;
    playerToken = games[0].playerToken;
    foreignToken = games[1].playerToken;
    paths = (await anyone.get("/openapi.json")).json.paths;
  });

  const fill = (path: string, values: Record<string, string>) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? real[name] ?? "x"));

  const expectError = (
    what: string,
    answer: { status: number; json: unknown; text: string },
    allowSuccess = false,
  ) => {
    assert.ok(answer.status < 500, `${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
    assert.doesNotMatch(answer.text, /\bat .*\.(ts|js):\d+|node:internal|Error: /, `${what}: no stack trace`);
    if (allowSuccess && answer.status < 400) return;
    assert.ok(answer.status >= 400, `${what}: refused (${answer.status} ${answer.text.slice(0, 200)})`);
    const error = (answer.json as { error?: { code?: string; message?: string } } | undefined)?.error;
    assert.ok(
      error && typeof error.code === "string",
      `${what}: a JSON error (${answer.text.slice(0, 200)})`,
    );
    assert.ok(error.code! in SERVER_ERRORS, `${what}: ${error.code} is a stable code`);
    assert.equal(SERVER_ERRORS[error.code as keyof typeof SERVER_ERRORS].status, answer.status, what);
    assert.ok((error.message ?? "").length > 10, `${what}: a message`);
  };

  const send = async (
    method: string,
    path: string,
    options: { token?: string; authorization?: string; body?: string; type?: string } = {},
  ) => {
    const headers: Record<string, string> = {};
    if (options.authorization !== undefined) headers.authorization = options.authorization;
    else if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers["content-type"] = options.type ?? "application/json";
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 10_000);
    try {
      const response = await fetch(`${running.url}${path}`, {
        method,
        headers,
        ...(options.body !== undefined ? { body: options.body } : {}),
        signal: controller.signal,
      });
      // An event stream that opened would never end: read its status only.
      const text = response.headers.get("content-type")?.includes("event-stream")
        ? ""
        : await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, json, text };
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  };

  it("refuses bad and unknown path parameters", { timeout: 120_000 }, async () => {
    const bad = {
      id: "not-an-id",
      hash: "zz",
      player: "../etc",
      quest: "x".repeat(500),
      answer: "maybe",
      code: "../etc",
    };
    const unknown = {
      id: "0".repeat(32),
      hash: "f".repeat(64),
      player: "0".repeat(32),
      code: "0".repeat(12),
    };
    for (const [path, methods] of Object.entries(paths))
      for (const method of Object.keys(methods)) {
        if (!path.includes("{")) continue;
        for (const name of path.match(/\{(\w+)\}/g)!.map((p) => p.slice(1, -1)))
          for (const values of [bad, unknown]) {
            if (!(name in values)) continue;
            const url = fill(path, { [name]: values[name as keyof typeof values]! });
            const body = method === "post" ? "{}" : undefined;
            expectError(
              `${method} ${url}`,
              await send(method.toUpperCase(), url, { token: hostToken, body }),
            );
            checked.add(`${method} ${path}`);
          }
      }
  });

  it("refuses missing, forged, malformed and foreign tokens", { timeout: 120_000 }, async () => {
    const variants = [
      {},
      { token: "tfp_forged" },
      { token: "tfh_forged" },
      { authorization: "Basic dXNlcjpwYXNz" },
      { authorization: "Bearer" },
      { token: `tfp_${"a".repeat(4000)}` },
      { token: foreignToken },
    ];
    for (const [path, methods] of Object.entries(paths))
      for (const [method, operation] of Object.entries(methods)) {
        if (!operation.security) continue;
        for (const variant of variants) {
          const url = fill(path, {});
          const answer = await send(method.toUpperCase(), url, {
            ...variant,
            ...(method === "post" ? { body: "{}" } : {}),
          });
          expectError(`${method} ${url} ${JSON.stringify(variant).slice(0, 40)}`, answer);
          assert.ok([401, 403].includes(answer.status), `${method} ${url}: ${answer.status}`);
        }
      }
  });

  it("refuses bodies that are not JSON, too large, of the wrong type or shape", {
    timeout: 120_000,
  }, async () => {
    const pad = (n: number) => JSON.stringify({ text: "x".repeat(n), idempotencyKey: "k" });
    for (const [path, methods] of Object.entries(paths))
      for (const [method, operation] of Object.entries(methods)) {
        if (method !== "post") continue;
        const url = fill(path, {});
        const limit =
          path === "/worlds" ? WORLD_LIMIT : path === "/games/import" ? 8 * 1024 * 1024 + 4096 : BODY_LIMIT;
        const malformed: { body: string; type?: string; code: string }[] = [
          { body: "{not json", code: "request/malformed-json" },
          { body: '{"a":', code: "request/malformed-json" },
          { body: pad(limit + 100), code: "request/too-large" },
          { body: "<xml/>", type: "application/xml", code: "request/unsupported-type" },
        ];
        for (const m of malformed) {
          const answer = await send("POST", url, { token: hostToken, body: m.body, type: m.type });
          expectError(`POST ${url} ${m.code}`, answer);
          if (path !== "/worlds" || m.code !== "request/malformed-json")
            assert.equal((answer.json as { error: { code: string } }).error.code, m.code, `POST ${url}`);
        }
        // JSON of the wrong type: refused where the route reads a body; elsewhere the body is ignored.
        for (const body of ["[]", '"text"', "42", "null", '{"text":5,"idempotencyKey":[],"world":{}}']) {
          // The routes that act as a character (access "player") take a player's token; the others the host's.
          const token = operation["x-access"] === "player" ? playerToken : hostToken;
          const answer = await send("POST", url, { token, body });
          expectError(`POST ${url} ${body}`, answer, !operation.requestBody);
          if (operation.requestBody && path !== "/worlds")
            assert.equal(
              (answer.json as { error: { code: string } }).error.code,
              "request/invalid",
              `POST ${url} ${body}`,
            );
        }
        checked.add(`${method} ${path}`);
      }
  });

  it("refuses query values of the wrong type", { timeout: 60_000 }, async () => {
    for (const [path, methods] of Object.entries(paths))
      for (const [method, operation] of Object.entries(methods))
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in !== "query") continue;
          const values =
            parameter.schema?.type === "integer" ? ["abc", "-1", "1.5", "1e999"] : ["x".repeat(3000)];
          for (const value of values) {
            const url = `${fill(path, {})}?${parameter.name}=${encodeURIComponent(value)}`;
            const answer = await send(method.toUpperCase(), url, {
              token: hostToken,
              ...(method === "post" ? { body: "{}" } : {}),
            });
            expectError(`${method} ${url.slice(0, 80)}`, answer, parameter.schema?.type !== "integer");
          }
          checked.add(`${method} ${path}`);
        }
  });

  it("covered every route of /openapi.json", () => {
    const all = Object.entries(paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m} ${path}`),
    );
    const untouched = all.filter(
      (r) =>
        !checked.has(r) &&
        !["get /worlds", "post /games", "post /games/join", "post /games/import"].includes(r),
    );
    // Those four have no path or query parameter; their bodies were checked above.
    assert.deepEqual(untouched, []);
    assert.ok(all.length >= 20, `${all.length} routes`);
  });
});
