import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pathOf, ROUTES } from "../../web/src/api.ts";
import { ROOT } from "../cli/helpers.ts";
import { closeSandbox, dropStore, type Running, startServer } from "../server/harness.ts";

/**
 * The browser's API client against the server's /openapi.json: every method
 * and path the page calls is one the server documents (and serves), with the
 * same path parameters; the request and answer types come from the same zod
 * schemas (web/src/api.ts imports them as types). So the two cannot drift.
 */
describe("browser: the typed API client matches /openapi.json", () => {
  let running: Running;
  before(async () => {
    running = await startServer();
  });
  after(async () => {
    await running.close();
    await dropStore(running.where);
    await closeSandbox();
  });

  it("calls only documented routes, with their path parameters", async () => {
    const doc = (await (await fetch(`${running.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    const missing: string[] = [];
    for (const [name, [method, path]] of Object.entries(ROUTES)) {
      const operation = doc.paths[path]?.[method.toLowerCase()];
      if (!operation) {
        missing.push(`${name}: ${method} ${path}`);
        continue;
      }
      const documented = (operation.parameters ?? [])
        .filter((p) => p.in === "path")
        .map((p) => p.name)
        .sort();
      const used = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
      assert.deepEqual(used, documented, `${name}: the path parameters of ${method} ${path}`);
    }
    assert.deepEqual(missing, [], "every route of the client is in /openapi.json");
  });

  it("fills path parameters URL-encoded", () => {
    assert.equal(
      pathOf("answer", { id: "a".repeat(32), quest: "The Keeper's Debt/2", answer: "accept" }),
      `/games/${"a".repeat(32)}/quests/The%20Keeper's%20Debt%2F2/accept`,
    );
    assert.throws(() => pathOf("game"), /missing path parameter id/);
  });

  it("takes only types from the server's sources: no server code is bundled into the page", () => {
    const dir = join(ROOT, "web", "src");
    const problems: string[] = [];
    for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
      if (!/\.tsx?$/.test(file)) continue;
      const text = readFileSync(join(dir, file), "utf8");
      for (const match of text.matchAll(/^import\s+(type\s+)?[^;]*?from\s+"([^"]+)";/gms))
        if (match[2]!.includes("/src/") && !match[1]) problems.push(`${file}: ${match[0].split("\n")[0]}`);
      if (/from\s+"(?:zod|fastify|kysely)"/.test(text.replace(/import type[^;]*;/g, "")))
        problems.push(`${file} imports a server package`);
    }
    assert.deepEqual(problems, []);
  });
});
