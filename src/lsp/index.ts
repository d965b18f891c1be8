/**
 * The language server for world files and play-tests (`taleforge lsp`): a
 * front end beside the CLI and the server, over the world, author and engine
 * layers. docs/editors.md says how editors start it.
 */
export { DEBOUNCE_MS, type ServerOptions, SUMMARY_COMMAND, startServer } from "./server.ts";

import { startServer } from "./server.ts";

/**
 * Serves the protocol on this process's stdin and stdout until the client
 * sends `exit` (0 after a `shutdown` request, 1 without one, as the protocol
 * asks) or stdin closes; then the process ends, whatever timers are left.
 */
export function serveStdio(): Promise<number> {
  const connection = startServer({ input: process.stdin, output: process.stdout });
  let shutdown = false;
  connection.onShutdown(() => {
    shutdown = true;
  });
  return new Promise((resolve) => {
    const end = (code: number) => {
      resolve(code);
      // The connection keeps stdin open: end the process once main has set the exit code.
      setImmediate(() => process.exit(code));
    };
    process.stdin.on("end", () => end(shutdown ? 0 : 1));
    connection.onExit(() => end(shutdown ? 0 : 1));
  });
}
