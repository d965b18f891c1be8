import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import Fastify from "fastify";
import { LAZY_COMPILERS } from "../../src/server/app.ts";
import { DATABASE_URL, suiteServer } from "./harness.ts";

/**
 * What a server's start leaves out (issue 11: `npx taleforge serve` ready in under 2 s): Fastify's
 * JSON-schema compilers (the routes validate with zod), pg on SQLite, and the OpenAPI document until it
 * is asked for. Each is loaded or made when it is needed, so nothing a route does changes.
 */
const loaded = (fragment: string) =>
  Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes(fragment));

describe("a server's start", () => {
  const running = suiteServer();

  it("loads neither ajv nor fast-json-stringify (Fastify's compilers) nor, on SQLite, pg", () => {
    assert.equal(loaded("/@fastify/ajv-compiler/"), false);
    assert.equal(loaded("/@fastify/fast-json-stringify-compiler/"), false);
    if (!DATABASE_URL) assert.equal(loaded("/node_modules/pg/"), false);
  });

  it("makes /openapi.json when it is asked for, the same document each time", async () => {
    const first = await fetch(`${running.url}/openapi.json`);
    assert.equal(first.status, 200);
    const document = (await first.json()) as { openapi: string; paths: Record<string, unknown> };
    assert.equal(document.openapi, "3.1.0");
    assert.ok(Object.keys(document.paths).includes("/games"));
    assert.deepEqual(await (await fetch(`${running.url}/openapi.json`)).json(), document);
  });

  it("still answers a request at once: a game created from the example world", async () => {
    const { worlds } = (await (await fetch(`${running.url}/worlds`)).json()) as {
      worlds: { hash: string; bundled: boolean }[];
    };
    const bundled = worlds.find((w) => w.bundled);
    assert.ok(bundled);
    const created = await fetch(`${running.url}/games`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ world: bundled.hash, storyStart: "Dawn at the Docks", seed: 7 }),
    });
    assert.equal(created.status, 201);
  });
});

describe("Fastify's compilers, loaded when a route declares a JSON schema", () => {
  it("validate the body and serialise the answer as Fastify's own do", async () => {
    const app = Fastify({ schemaController: { compilersFactory: LAZY_COMPILERS } });
    app.post(
      "/echo",
      {
        schema: {
          body: { type: "object", required: ["a"], properties: { a: { type: "integer" } } },
          response: { 200: { type: "object", properties: { a: { type: "integer" } } } },
        },
      },
      async (request) => ({ ...(request.body as object), hidden: "dropped by the serialiser" }),
    );
    try {
      const refused = await app.inject({ method: "POST", url: "/echo", payload: { a: "x" } });
      assert.equal(refused.statusCode, 400);
      const answered = await app.inject({ method: "POST", url: "/echo", payload: { a: 3 } });
      assert.equal(answered.statusCode, 200);
      assert.deepEqual(answered.json(), { a: 3 });
      assert.equal(loaded("/@fastify/ajv-compiler/"), true);
    } finally {
      await app.close();
    }
  });
});
