import type { RunOptions } from "./run.ts";

export type { RunOptions };

/**
 * The server's one entry for the command line (`taleforge serve`). It starts
 * opening the store first (on SQLite: its thread starts, opens the file and
 * migrates), then loads the HTTP server's modules (run.ts: Fastify, the
 * routes, the engine) while that goes on, and runs the server once both are
 * ready; it resolves when SIGTERM or SIGINT has stopped it. This file stays
 * small so that the opening starts before the heavy modules load.
 */
export async function runServer(options: RunOptions): Promise<void> {
  const opening =
    options.opening ?? import("./store/open.ts").then(({ openStore }) => openStore(options.store));
  // A failure (a data folder in use, a database out of reach) is run.ts's to report once it awaits the
  // opening: caught here only so that it is not an unhandled rejection meanwhile.
  opening.catch(() => {});
  const run = await import("./run.ts");
  await run.runServer({ ...options, opening });
}
