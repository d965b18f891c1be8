import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { before, describe, it } from "node:test";
import { Client, suiteServer } from "./harness.ts";

/**
 * Every server route has a test and a docs entry (CONTRIBUTING.md, "A server
 * route"). The routes are read from the running app's /openapi.json, which is
 * made from the route declarations, so a new route joins this check by
 * existing. "Has a test": some file under test/server or test/web requests
 * its path (parameters may be any expression) with its method named nearby.
 * "Has a docs entry": docs/server.md's route list names it as `METHOD /path`.
 */
const ROOT = new URL("../../", import.meta.url);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

interface Route {
  method: string;
  /** As fastify and the docs write it: /games/:id/turn. */
  path: string;
}

/** The test sources a route's request may be written in (this file excluded: it names every route). */
function testSources(): { file: string; text: string }[] {
  return ["test/server/", "test/web/"].flatMap((dir) =>
    readdirSync(new URL(dir, ROOT), { recursive: true, encoding: "utf8" })
      .filter((name) => /\.tsx?$/.test(name) && !name.endsWith("routes.test.ts"))
      .map((name) => ({ file: dir + name, text: readFileSync(new URL(dir + name, ROOT), "utf8") })),
  );
}

/** The path as a test writes it: literal segments exactly, a parameter as any one segment (`${id}`, abc). */
function pathPattern(path: string): RegExp {
  const segments = path
    .split("/")
    .slice(1)
    .map((s) => (s.startsWith(":") ? "[^/\\s\"'`?]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  // Ends where the path ends: a quote, a query, a closing brace or paren, a space; never a longer path.
  return new RegExp(`/${segments.join("/")}(?=["'\`?),\\s]|$)`, "gm");
}

/** True when some request in `text` has the route's path with its method in the same call. */
export function requests(text: string, route: Route): boolean {
  for (const match of text.matchAll(pathPattern(route.path))) {
    const start = match.index ?? 0;
    const around = text.slice(Math.max(0, start - 120), start + match[0].length + 40);
    const named = METHODS.filter((m) => new RegExp(`\\b${m}\\b`, "i").test(around));
    if (named.includes(route.method)) return true;
    // fetch's default: a GET names no method at all.
    if (route.method === "GET" && named.length === 0) return true;
  }
  return false;
}

describe("server routes: each has a test and a docs entry", () => {
  let routes: Route[];
  const running = suiteServer();
  before(async () => {
    const document = (await new Client(running.url).get("/openapi.json")).json as {
      paths: Record<string, Record<string, unknown>>;
    };
    routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => ({
        method: method.toUpperCase(),
        path: path.replace(/\{([A-Za-z]+)\}/g, ":$1"),
      })),
    );
  });

  it("reads the routes from /openapi.json (the list is not empty)", () => {
    assert.ok(routes.length >= 20, `${routes.length} routes`);
    assert.ok(routes.some((r) => r.method === "POST" && r.path === "/games/:id/turn"));
  });

  it("finds a request only with its path and method (the check can fail)", () => {
    // Test source as it is written: `{id}` below stands for a template placeholder (dollar, brace, id, brace).
    const code = (text: string) => text.replace(/\{(\w+)\}/g, (_whole, name: string) => `$${"{"}${name}}`);
    const turn = { method: "POST", path: "/games/:id/turn" };
    assert.equal(code("`{id}`"), "`$" + "{id}`");
    assert.equal(requests(code("await host.post(`/games/{id}/turn`);"), turn), true);
    assert.equal(requests(code("await host.get(`/games/{id}/turn`);"), turn), false);
    assert.equal(requests(code("await host.post(`/games/{id}/turns`);"), turn), false);
    assert.equal(
      requests(code("await host.get(`/games/{id}`);"), { method: "GET", path: "/games/:id" }),
      true,
    );
    assert.equal(
      requests(code("await fetch(`{url}/games/{id}/log`);"), { method: "GET", path: "/games/:id/log" }),
      true,
    );
    assert.equal(requests('call("POST", "/worlds", WORLD_TEXT)', { method: "GET", path: "/worlds" }), false);
  });

  it("every route is requested by a test under test/server or test/web", () => {
    const sources = testSources();
    const untested = routes.filter((route) => !sources.some((s) => requests(s.text, route)));
    assert.deepEqual(
      untested.map((r) => `${r.method} ${r.path}`),
      [],
      "routes no test requests: add a test under test/server/ (a real server and store)",
    );
  });

  it("every route is in docs/server.md's route list, and the list names only routes", () => {
    const docs = readFileSync(new URL("docs/server.md", ROOT), "utf8");
    const listed = [...docs.matchAll(/^\| `(GET|POST|PUT|PATCH|DELETE) (\/[^`]*)` \|/gm)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    const declared = routes.map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(
      declared.filter((r) => !listed.includes(r)),
      [],
      "routes missing from docs/server.md's route list",
    );
    assert.deepEqual(
      listed.filter((r) => !declared.includes(r)),
      [],
      "docs/server.md lists routes the server does not have",
    );
  });

  it("every route the server answers is in /openapi.json, but for the few docs/server.md names outside the API", () => {
    // Fastify's route tree, one segment per line ("│   ├── /start (POST)"), HEAD routes aside.
    const tree = running.server.app.printRoutes({ commonPrefix: false });
    const stack: string[] = [];
    const answered: string[] = [];
    for (const line of tree.split("\n")) {
      const match = /^([│ ]*)(?:├── |└── )(\S+) \(([A-Z, ]+)\)$/.exec(line);
      if (!match) continue;
      const depth = match[1]!.length / 4;
      stack.length = depth;
      stack.push(match[2]!);
      const path = stack.join("").replace(/\/\//g, "/");
      for (const method of match[3]!.split(", ")) if (method !== "HEAD") answered.push(`${method} ${path}`);
    }
    assert.ok(answered.includes("POST /games/:id/turn"), answered.join("\n"));
    const documented = new Set(routes.map((r) => `${r.method} ${r.path}`));
    const outside = [
      "GET /",
      "GET /index.html",
      "GET /assets/:file",
      "GET /openapi.json",
      "GET /healthz",
      "GET /readyz",
    ];
    assert.deepEqual(
      answered.filter((r) => !documented.has(r) && !outside.includes(r)).sort(),
      [],
      "routes the server answers that /openapi.json does not describe",
    );
    assert.deepEqual(
      outside.filter((r) => !answered.includes(r)),
      [],
      "the routes outside the API exist",
    );
  });
});
