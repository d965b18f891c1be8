import { defineCommand } from "../command.ts";
import { fail, reasonOf } from "../exit.ts";
import type { ServeFlags } from "../serve.ts";

export default defineCommand({
  name: "serve",
  summary: "Serve games over HTTP for parties of players (SQLite by default, PostgreSQL with --database).",
  arguments: [],
  options: [
    { flags: "--port <n>", description: "the port to listen on", default: "8080" },
    { flags: "--host <address>", description: "the address to listen on", default: "127.0.0.1" },
    {
      flags: "--data <folder>",
      description: "the data folder of the embedded SQLite store",
      default: "taleforge-data",
    },
    {
      flags: "--database <url>",
      description: "a postgresql:// URL: share one database between several processes",
    },
    { flags: "--cors <origin>", description: "allow this origin (CORS is off without it)" },
    {
      flags: "--trust-proxy <addresses>",
      description:
        "proxies whose X-Forwarded-For gives the client's address: addresses or CIDRs, comma-separated (default: loopback)",
    },
    {
      flags: "--upload-token <token>",
      description:
        "the operator's token for world uploads (or TALEFORGE_UPLOAD_TOKEN); a game's host token also uploads, within its quota",
    },
    {
      flags: "--open-uploads",
      description: "anyone may upload worlds without a token, each address within the quota (5 worlds)",
    },
    {
      flags: "--strict",
      description:
        "refuse an uploaded world with any error (without it, repairable errors are repaired and a quest no trigger starts is played, each reported, as play does)",
    },
    {
      flags: "--max-steps <n>",
      description:
        "turns this process runs at once, the others queue; a turn waiting for a remote model frees its place (0: no limit)",
      default: "3",
    },
    {
      flags: "--narrator <name>",
      description: "offline or openai (the provider options below, as for play)",
    },
    { flags: "--provider <name>", description: "offline (default) or openai" },
    { flags: "--model <name>", description: "the model name (openai provider)" },
    { flags: "--base-url <url>", description: "the OpenAI-compatible server's base URL (implies openai)" },
    { flags: "--api-key <key>", description: "the API key (prefer TALEFORGE_API_KEY or OPENAI_API_KEY)" },
    { flags: "--embedding-model <name>", description: "a model for embeddings (optional)" },
    { flags: "--timeout <seconds>", description: "per-request timeout of the openai provider" },
    { flags: "--config <file>", description: "a JSON config file with provider settings" },
    {
      flags: "--log-level <level>",
      description: "pino log level: fatal, error, warn, info, debug",
      default: "info",
    },
    {
      flags: "--log-format <format>",
      description: "json (one JSON line each) or pretty (default: pretty on a terminal)",
    },
  ],
  about: ["docs/server.md shows the API with curl, running behind a proxy, backups and upgrades."],
  exitCodes: [
    { code: 0, meaning: "stopped by SIGTERM or SIGINT, after the turns in flight" },
    { code: 2, meaning: "could not start: bad option, a data folder in use, an unreachable database" },
  ],
  exitCodesInHelp: "none",
  examples: [
    "taleforge serve                                        # http://127.0.0.1:8080, data in ./taleforge-data",
    "taleforge serve --database postgresql://taleforge@db/taleforge --port 8081",
  ],
  footer: [""],
  // The server (src/server) loads only when it runs, through src/cli/serve.ts.
  run: async (_args, options, io) => {
    try {
      return await (await import("../serve.ts")).serve(options as ServeFlags, io);
    } catch (error) {
      return fail(io, reasonOf(error));
    }
  },
});
