import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildWeb } from "../../scripts/build.ts";
import type { NarrationAnswer } from "../../src/engine/ports.ts";
import { createServer } from "../../src/server/app.ts";
import { silentLogger } from "../../src/server/logger.ts";
import type { NarratorFactory } from "../../src/server/runner.ts";
import { openStore } from "../../src/server/store/open.ts";
import { ROOT } from "../cli/helpers.ts";
import { offlineNarrator, type Running, sharedSandbox, startServer } from "../server/harness.ts";

/**
 * The browser app built from the sources under test (web/), once per
 * content: the build goes to node_modules/.cache/taleforge-web/<hash of web/>
 * and is reused while web/ is unchanged. Built into a scratch folder and
 * renamed, so two test files building at once do not see half a build.
 */
export async function builtWeb(): Promise<string> {
  const hash = createHash("sha256");
  for (const file of readdirSync(join(ROOT, "web"), { recursive: true, encoding: "utf8" }).sort()) {
    const path = join(ROOT, "web", file);
    if (file.includes("node_modules")) continue;
    try {
      hash.update(file).update(readFileSync(path));
    } catch {
      // A folder.
    }
  }
  const cache = join(ROOT, "node_modules", ".cache", "taleforge-web");
  const target = join(cache, hash.digest("hex").slice(0, 16));
  if (existsSync(join(target, "index.html"))) return target;
  mkdirSync(cache, { recursive: true });
  const scratch = `${target}.${process.pid}`;
  await buildWeb(scratch);
  try {
    renameSync(scratch, target);
  } catch {
    rmSync(scratch, { recursive: true, force: true });
  }
  return target;
}

/**
 * The offline narrator, optionally slowed down: each chunk of the narration
 * then arrives `slowMs` apart, so that a test can reload the page while a
 * turn is being narrated.
 */
export function adjustableNarrator(): { factory: NarratorFactory; slowMs: number } {
  const control = {
    slowMs: 0,
    factory: ((world, game) => {
      const inner = offlineNarrator(world, game);
      return {
        ...inner,
        async narrate(request, onChunk, signal): Promise<NarrationAnswer> {
          if (control.slowMs === 0) return inner.narrate(request, onChunk, signal);
          const chunks: string[] = [];
          const answer = await inner.narrate(request, (chunk) => chunks.push(chunk), signal);
          for (const chunk of chunks.flatMap((c) => c.split(/(?<=\s)/))) {
            onChunk?.(chunk);
            await new Promise((resolve) => setTimeout(resolve, control.slowMs));
          }
          return answer;
        },
      };
    }) as NarratorFactory,
  };
  return control;
}

/** A real server on 127.0.0.1 (port 0) serving the freshly built app, with the offline narrator. */
export async function startWebServer(narrator: NarratorFactory = offlineNarrator): Promise<Running> {
  const webRoot = await builtWeb();
  // Uploads as a server has them by default: a token (the page uses a game's host token; the tests
  // that upload through the API, the operator's).
  return startServer({ webRoot, narrator, uploads: { open: false, token: WEB_OPERATOR, perUploader: 100 } });
}

/** The operator's upload token of the browser tests' servers. */
export const WEB_OPERATOR = "web-test-operator-token";

/**
 * Stops the server (its event streams end: the pages lose their connection)
 * and starts it again on the same port and store, as a restarted or
 * redeployed server comes back.
 */
export async function restartWebServer(
  running: Running,
  narrator: NarratorFactory,
  whileDown: () => Promise<void> = async () => {},
): Promise<Running> {
  const port = Number(new URL(running.url).port);
  await running.close();
  await whileDown();
  const server = await createServer({
    store: await openStore(running.where),
    narrator,
    scripts: sharedSandbox(),
    log: silentLogger(),
    perMinute: 100_000,
    actionsPerMinute: 100_000,
    sweepMs: 200,
    webRoot: await builtWeb(),
  });
  await server.app.listen({ host: "127.0.0.1", port });
  return {
    url: running.url,
    server,
    where: running.where,
    async close() {
      await server.close(5000);
    },
  };
}

/** Where the screenshots go: docs/screenshots when TALEFORGE_SCREENSHOTS=docs, else a scratch folder. */
export function screenshotDir(): string {
  const dir =
    process.env.TALEFORGE_SCREENSHOTS === "docs"
      ? join(ROOT, "docs", "screenshots")
      : join(ROOT, "node_modules", ".cache", "taleforge-screenshots");
  mkdirSync(dir, { recursive: true });
  return dir;
}
