import { readFile } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance, FastifyReply } from "fastify";
import { ApiError } from "./errors.ts";

/** Where the build puts the browser app (scripts/build.ts: dist/web), beside this source or its bundle. */
export const WEB_ROOT = fileURLToPath(new URL("../../dist/web/", import.meta.url));

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * The page's own policy, tighter than any inline content would need: its
 * scripts and styles come from this server only, the realm map is an <img>
 * of a blob, and the page talks to this origin only.
 */
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Taleforge</title></head>
<body><main><h1>The browser app is not built</h1><p>Run <code>npm run build</code> (or <code>npm ci</code>) in the
Taleforge folder, then reload. The API works without it: <a href="/openapi.json">/openapi.json</a>.</p></main></body></html>`;

/**
 * Serves the browser app (web/, built into dist/web) at `/`: index.html
 * (never cached, so a new version is picked up) and the hashed files under
 * /assets/ (cached for a year: their names change with their content). Only
 * plain file names are served, from that one folder: no path can leave it.
 */
export function webRoutes(app: FastifyInstance, root: string = WEB_ROOT): void {
  const folder = resolve(root);
  const send = async (reply: FastifyReply, file: string, cache: string) => {
    const path = resolve(folder, file);
    if (!path.startsWith(folder + sep)) return notFound(reply);
    let body: Buffer;
    try {
      body = await readFile(path);
    } catch {
      if (file === "index.html")
        return reply
          .code(503)
          .header("content-security-policy", PAGE_POLICY)
          .type(TYPES[".html"]!)
          .send(NOT_BUILT);
      return notFound(reply);
    }
    return reply
      .header("content-security-policy", PAGE_POLICY)
      .header("cache-control", cache)
      .type(TYPES[extname(path)] ?? "application/octet-stream")
      .send(body);
  };
  const page = (_request: unknown, reply: FastifyReply) => send(reply, "index.html", "no-cache");
  app.get("/", page);
  app.get("/index.html", page);
  app.get<{ Params: { file: string } }>("/assets/:file", (request, reply) => {
    const file = request.params.file;
    if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(file) || file.includes("..")) return notFound(reply);
    return send(reply, join("assets", file), "public, max-age=31536000, immutable");
  });
}

function notFound(reply: FastifyReply) {
  return reply.code(404).type("application/json").send(new ApiError("route/not-found", "no-file").toJSON());
}
