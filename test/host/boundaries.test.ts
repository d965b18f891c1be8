import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

/**
 * The layers' import rule for the front ends: nothing below them imports
 * `host`, `cli` or `server`; `cli` and `server` never import each other,
 * except the `serve` command, which starts the server through its one entry
 * (src/server/index.ts); the language server (`lsp`, a front end too) imports
 * neither of them. The package's entry (src/index.ts) stands above the
 * library's layers and may export the host layer too. And the layers above the
 * engine that use it as a library (`author`, `host`, `cli`, `server`, `lsp`) reach it
 * only through its index and its ports. Checked on every relative import
 * (static, dynamic, re-export, side effect) of every source file.
 */
const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
const FRONT = ["host", "cli", "server"];
/** The layers that import the engine only through ENGINE_GATES. */
const ENGINE_USERS = ["author", "host", "cli", "server", "lsp"];
const ENGINE_GATES = [join("engine", "index.ts"), join("engine", "ports.ts")];

function sources(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => join(SRC, f));
}

function layerOf(file: string): string {
  return relative(SRC, file).split(/[\\/]/)[0]!;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["'](\.{1,2}\/[^"']+)["']/g))
    found.push(resolve(dirname(file), match[1]!));
  return found;
}

describe("import boundaries of the front ends", () => {
  it("nothing below imports host, cli or server; cli and server never import each other", () => {
    const problems: string[] = [];
    for (const file of sources()) {
      const from = layerOf(file);
      for (const target of importsOf(file)) {
        const to = layerOf(target);
        if (to === from || !FRONT.includes(to)) continue;
        const allowed =
          ((from === "cli" || from === "server" || from === "lsp" || from === "index.ts") && to === "host") ||
          (relative(SRC, file) === join("cli", "serve.ts") &&
            relative(SRC, target) === join("server", "index.ts"));
        if (!allowed) problems.push(`${relative(SRC, file)} imports ${relative(SRC, target)}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it("author, host, cli and server import the engine only through src/engine/index.ts and ports.ts", () => {
    const problems: string[] = [];
    for (const file of sources()) {
      if (!ENGINE_USERS.includes(layerOf(file))) continue;
      for (const target of importsOf(file)) {
        const path = relative(SRC, target);
        if (layerOf(target) === "engine" && !ENGINE_GATES.includes(path))
          problems.push(
            `${relative(SRC, file)} imports ${path}: import it from src/engine/index.ts (export it there if it is missing)`,
          );
      }
    }
    assert.deepEqual(problems, []);
  });

  it("sees the imports it checks (the scan is not empty)", () => {
    const server = sources().filter((f) => layerOf(f) === "server");
    assert.ok(
      server.some((f) => importsOf(f).some((t) => layerOf(t) === "host")),
      "server imports host",
    );
    assert.ok(
      server.some((f) => importsOf(f).some((t) => relative(SRC, t) === join("engine", "index.ts"))),
      "server imports the engine's index",
    );
  });
});
