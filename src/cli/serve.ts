import { homedir } from "node:os";
import { fail } from "./exit.ts";
import type { CliIo } from "./io.ts";

export interface ServeFlags {
  port?: string;
  host?: string;
  data?: string;
  database?: string;
  cors?: string;
  trustProxy?: string;
  uploadToken?: string;
  openUploads?: boolean;
  strict?: boolean;
  maxSteps?: string;
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

/** Starts the server (src/server/index.ts, its one entry) and resolves when it has stopped: 0, or 2 when it could not start. */
export async function serve(flags: ServeFlags, io: CliIo): Promise<number> {
  const port = Number(flags.port ?? "8080");
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return fail(io, `--port takes a port number (0-65535), not "${flags.port}".`);
  if (flags.logFormat !== undefined && flags.logFormat !== "json" && flags.logFormat !== "pretty")
    return fail(io, `--log-format takes json or pretty, not "${flags.logFormat}".`);
  // Only the scheme is shown back: the URL may hold a password.
  if (flags.database !== undefined && !/^postgres(ql)?:\/\//i.test(flags.database)) {
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(flags.database)?.[0];
    return fail(
      io,
      `--database takes a PostgreSQL URL (postgresql://user@host:5432/database), not ${scheme ? `a "${scheme}" URL` : "a value without postgresql://"}. Leave it out to keep the games in SQLite under --data.`,
    );
  }
  const maxSteps = flags.maxSteps === undefined ? undefined : Number(flags.maxSteps);
  if (maxSteps !== undefined && (!/^\d+$/.test(flags.maxSteps!) || maxSteps > 1000))
    return fail(io, `--max-steps takes a whole number (0-1000, 0: no limit), not "${flags.maxSteps}".`);
  const provider = flags.narrator && !flags.provider ? flags.narrator : flags.provider;
  const providerFlags = { ...flags, ...(provider !== undefined ? { provider } : {}) };
  // The provider settings are checked before anything is written: a typo creates no data folder.
  const { resolveProviderConfig } = await import("../ai/config.ts");
  const config = await resolveProviderConfig({
    flags: providerFlags,
    env: io.env,
    cwd: io.cwd ?? process.cwd(),
    home: homedir(),
  });
  const store =
    flags.database !== undefined ? { database: flags.database } : { data: flags.data ?? "taleforge-data" };
  const { runServer } = await import("../server/index.ts");
  await runServer({
    port,
    host: flags.host ?? "127.0.0.1",
    store,
    ...(flags.cors !== undefined ? { cors: flags.cors } : {}),
    ...(flags.trustProxy !== undefined ? { trustProxy: flags.trustProxy } : {}),
    ...(maxSteps !== undefined ? { maxSteps } : {}),
    uploads: {
      open: flags.openUploads === true,
      strict: flags.strict === true,
      ...((flags.uploadToken ?? io.env.TALEFORGE_UPLOAD_TOKEN)
        ? { token: flags.uploadToken ?? io.env.TALEFORGE_UPLOAD_TOKEN }
        : {}),
    },
    logLevel: flags.logLevel ?? "info",
    ...(flags.logFormat !== undefined ? { logFormat: flags.logFormat as "json" | "pretty" } : {}),
    provider: providerFlags,
    config,
    env: io.env,
    cwd: io.cwd ?? process.cwd(),
  });
  return 0;
}
