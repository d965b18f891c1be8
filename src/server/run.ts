import { homedir } from "node:os";
import {
  type ConfigFlags,
  describeProviderConfig,
  type ProviderConfig,
  resolveProviderConfig,
} from "../ai/config.ts";
import { createProvider } from "../ai/index.ts";
import { createOfflineProvider } from "../ai/offline/index.ts";
import { createSandbox } from "../sandbox/index.ts";
import { createServer } from "./app.ts";
import { createLogger, type LogFormat } from "./logger.ts";
import { DEFAULT_MAX_STEPS } from "./runner.ts";
import { type OpenStore, openStore, type StoreOptions } from "./store/open.ts";

export interface RunOptions {
  port: number;
  host: string;
  store: StoreOptions;
  /**
   * The store already being opened with `store` (the command starts it before this module loads, so
   * that the SQLite thread's start and the migrations overlap the loading of Fastify and the engine).
   */
  opening?: Promise<OpenStore>;
  cors?: string;
  trustProxy?: string;
  /** Who may upload worlds (routes/worlds.ts). */
  uploads?: { open: boolean; token?: string | undefined; strict?: boolean };
  /** Steps run at once by this process (0: no limit); default DEFAULT_MAX_STEPS. */
  maxSteps?: number;
  logLevel: string;
  /** Default: pretty on a terminal, JSON lines otherwise. */
  logFormat?: LogFormat;
  /** The narrator's provider settings, as `taleforge play` takes them. */
  provider: ConfigFlags;
  /** Those settings already resolved (the command line checks them before it opens the store). */
  config?: ProviderConfig;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/**
 * The server's run (through index.ts, its one entry): opens the store (or
 * takes the opening index.ts started), starts the sandbox and the HTTP
 * server, and resolves when SIGTERM or SIGINT has stopped it gracefully.
 */
export async function runServer(options: RunOptions): Promise<void> {
  const opening = options.opening ?? openStore(options.store);
  let config: Awaited<ReturnType<typeof resolveProviderConfig>>;
  try {
    config =
      options.config ??
      (await resolveProviderConfig({
        flags: options.provider,
        env: options.env,
        cwd: options.cwd,
        home: homedir(),
      }));
  } catch (error) {
    // A bad provider setting stops the start: the store opened meanwhile is closed (its lock released).
    await opening.then(
      (store) => store.close(),
      () => {},
    );
    throw error;
  }
  const log = createLogger({
    level: options.logLevel,
    ...(options.logFormat !== undefined ? { format: options.logFormat } : {}),
    secrets: [(config as { apiKey?: string }).apiKey],
  });
  const store = await opening;
  // A script process per step slot (each started when first needed): a step whose scripts spend their
  // whole budget holds one process, and the other steps' phases go to another (the least busy).
  const steps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const sandbox = createSandbox({ processes: steps > 0 ? Math.min(steps, 4) : DEFAULT_MAX_STEPS });
  const server = await createServer({
    store,
    scripts: sandbox,
    log,
    ...(options.cors !== undefined ? { cors: options.cors } : {}),
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    ...(options.uploads !== undefined ? { uploads: options.uploads } : {}),
    narrator: (world, game) =>
      game.narrator === "offline"
        ? createOfflineProvider(world, { gameMode: game.gameMode })
        : createProvider(world, config, { gameMode: game.gameMode }),
  });
  let url: string;
  try {
    url = await server.app.listen({ host: options.host, port: options.port });
  } catch (error) {
    // Nothing listens: the store (its lock on the data folder) and the script process are released.
    await server.close(0).catch(() => {});
    await sandbox.close();
    throw listenFailure(error, options.host, options.port);
  }
  // The script process starts once the server answers, not on the way to it (its start is CPU the
  // listening server would otherwise wait for on a busy machine); it is ready long before most
  // games' first script.
  sandbox.warm();
  log.info(
    {
      store: store.describe,
      // PostgreSQL: the name of this process's connection in pg_stat_activity, which its claims end with.
      ...(store.presence !== undefined ? { presence: store.presence } : {}),
      narrator: describeProviderConfig(config),
      url,
    },
    "taleforge serve is listening",
  );
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log.info({ signal }, "stopping: finishing the turns in flight");
      process.off("SIGTERM", onTerm);
      process.off("SIGINT", onInt);
      void server
        .close(30_000)
        .then(() => sandbox.close())
        .finally(resolve);
    };
    const onTerm = () => stop("SIGTERM");
    const onInt = () => stop("SIGINT");
    process.on("SIGTERM", onTerm);
    process.on("SIGINT", onInt);
  });
  log.info("stopped");
  log.flush();
}

/** Why the server could not listen, in words that say which option to change (Node's say `listen EADDRINUSE`). */
function listenFailure(error: unknown, host: string, port: number): Error {
  const code = (error as { code?: string }).code;
  const at = `${host}:${port}`;
  if (code === "EADDRINUSE")
    return new Error(
      `Port ${port} of ${host} is in use by another program (another taleforge serve?); stop it, or choose another port with --port.`,
    );
  if (code === "EACCES")
    return new Error(
      `This user may not listen on ${at} (ports below 1024 need privileges); choose a port from 1024 up with --port.`,
    );
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN")
    return new Error(
      `--host ${host} is not an address of this machine; use 127.0.0.1 (this machine only) or 0.0.0.0 (every network).`,
    );
  return error instanceof Error ? error : new Error(String(error));
}
