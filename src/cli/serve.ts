import type { Command } from "commander";
import { fail, reasonOf } from "./exit.ts";
import type { CliIo } from "./io.ts";

export interface ServeFlags {
  port?: string;
  host?: string;
  data?: string;
  database?: string;
  cors?: string;
  trustProxy?: string;
  narrator?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  embeddingModel?: string;
  timeout?: string;
  config?: string;
  logLevel?: string;
  logFormat?: string;
}

/** `taleforge serve`: its options; the server itself (src/server) is loaded only when it runs. */
export function registerServe(command: Command, io: CliIo, done: (code: number) => void): void {
  command
    .description(
      "Serve games over HTTP for parties of players (SQLite by default, PostgreSQL with --database).",
    )
    .option("--port <n>", "the port to listen on", "8080")
    .option("--host <address>", "the address to listen on", "127.0.0.1")
    .option("--data <folder>", "the data folder of the embedded SQLite store", "taleforge-data")
    .option("--database <url>", "a postgresql:// URL: share one database between several processes")
    .option("--cors <origin>", "allow this origin (CORS is off without it)")
    .option(
      "--trust-proxy <addresses>",
      "proxies whose X-Forwarded-For gives the client's address: addresses or CIDRs, comma-separated (default: loopback)",
    )
    .option("--narrator <name>", "offline or openai (the provider options below, as for play)")
    .option("--provider <name>", "offline (default) or openai")
    .option("--model <name>", "the model name (openai provider)")
    .option("--base-url <url>", "the OpenAI-compatible server's base URL (implies openai)")
    .option("--api-key <key>", "the API key (prefer TALEFORGE_API_KEY or OPENAI_API_KEY)")
    .option("--embedding-model <name>", "a model for embeddings (optional)")
    .option("--timeout <seconds>", "per-request timeout of the openai provider")
    .option("--config <file>", "a JSON config file with provider settings")
    .option("--log-level <level>", "pino log level: fatal, error, warn, info, debug", "info")
    .option("--log-format <format>", "json (one JSON line each) or pretty (default: pretty on a terminal)")
    .addHelpText(
      "after",
      [
        "",
        "docs/server.md shows the API with curl, running behind a proxy, backups and upgrades.",
        "",
        "Examples:",
        "  taleforge serve                                        # http://127.0.0.1:8080, data in ./taleforge-data",
        "  taleforge serve --database postgresql://taleforge@db/taleforge --port 8081",
        "",
      ].join("\n"),
    )
    .action(async (flags: ServeFlags) => {
      try {
        done(await serve(flags, io));
      } catch (error) {
        done(fail(io, reasonOf(error)));
      }
    });
}

/** Starts the server (src/server/index.ts, its one entry) and resolves when it has stopped: 0, or 2 when it could not start. */
async function serve(flags: ServeFlags, io: CliIo): Promise<number> {
  const port = Number(flags.port ?? "8080");
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return fail(io, `--port takes a port number (0-65535), not "${flags.port}".`);
  if (flags.logFormat !== undefined && flags.logFormat !== "json" && flags.logFormat !== "pretty")
    return fail(io, `--log-format takes json or pretty, not "${flags.logFormat}".`);
  const { runServer } = await import("../server/index.ts");
  const provider = flags.narrator && !flags.provider ? flags.narrator : flags.provider;
  await runServer({
    port,
    host: flags.host ?? "127.0.0.1",
    store:
      flags.database !== undefined ? { database: flags.database } : { data: flags.data ?? "taleforge-data" },
    ...(flags.cors !== undefined ? { cors: flags.cors } : {}),
    ...(flags.trustProxy !== undefined ? { trustProxy: flags.trustProxy } : {}),
    logLevel: flags.logLevel ?? "info",
    ...(flags.logFormat !== undefined ? { logFormat: flags.logFormat as "json" | "pretty" } : {}),
    provider: { ...flags, ...(provider !== undefined ? { provider } : {}) },
    env: io.env,
    cwd: io.cwd ?? process.cwd(),
  });
  return 0;
}
