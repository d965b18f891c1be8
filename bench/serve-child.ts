/**
 * One `taleforge serve` process for the serve benchmark: the store from
 * TALEFORGE_BENCH_STORE, the offline narrator, JSON logs on stdout (the parent
 * reads each step's duration from them). Talks to the parent over IPC: sends
 * its URL; answers "memory" with its memory use after a full GC; "stop" closes it.
 */
import { createOfflineProvider } from "../src/ai/offline/index.ts";
import { createSandbox } from "../src/sandbox/index.ts";
import { createServer } from "../src/server/app.ts";
import { createLogger } from "../src/server/logger.ts";
import { openStore } from "../src/server/store/open.ts";

const store = await openStore(JSON.parse(process.env.TALEFORGE_BENCH_STORE ?? "{}"));
const sandbox = createSandbox();
const server = await createServer({
  store,
  scripts: sandbox,
  log: createLogger({ level: "info", format: "json", destination: process.stdout }),
  narrator: (world, game) => createOfflineProvider(world, { gameMode: game.gameMode }),
  perMinute: 1e9,
  actionsPerMinute: 1e9,
  streams: { perToken: 1000 },
});
const url = await server.app.listen({ host: "127.0.0.1", port: 0 });
process.send!({ url });
process.on("message", (message) => {
  if (message === "memory") {
    (globalThis as { gc?: () => void }).gc?.();
    process.send!({ memory: process.memoryUsage() });
  } else if (message === "stop") {
    void server
      .close(10_000)
      .then(() => sandbox.close())
      .finally(() => process.exit(0));
  }
});
