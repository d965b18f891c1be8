import assert from "node:assert/strict";
import { describe, it } from "node:test";
import Fastify from "fastify";

/**
 * Fastify's inject (light-my-request) writes a request's cookies with the `cookie` package, pinned by
 * an npm override to the 1.x line: cookie 2 requires Node 22 (and is ES modules only, which
 * light-my-request's require() cannot load before Node 20.19), and Taleforge supports Node 20.
 */
describe("server dependencies: Fastify inject with cookies on this Node", () => {
  it("sends the cookies, encoded, as one Cookie header", async () => {
    const app = Fastify();
    app.get("/echo", async (request) => ({ cookie: request.headers.cookie ?? null }));
    try {
      const response = await app.inject({
        method: "GET",
        url: "/echo",
        cookies: { session: "a b;c", theme: "dark" },
      });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), { cookie: "session=a%20b%3Bc; theme=dark" });
      // A name that is not a cookie name is refused, not sent.
      await assert.rejects(app.inject({ method: "GET", url: "/echo", cookies: { "bad name": "x" } }));
    } finally {
      await app.close();
    }
  });
});
