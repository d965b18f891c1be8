import { type HostOptions, SandboxHost } from "./host.ts";

/**
 * The script sandbox (spec 4, 7, 8): the engine's ScriptRunner backed by
 * isolated-vm isolates in child processes. One sandbox may serve many
 * sessions at once (docs/scripts.md, "Running the sandbox in a host"); give
 * a server's pool more processes with `{ processes }`. Call `close()` when
 * done; a forgotten one does not keep Node alive.
 */
export function createSandbox(options: HostOptions = {}): SandboxHost {
  return new SandboxHost(options);
}

/** How many characters of JSON the scripts' storage may hold (a script's write past it is refused). */
export { STORAGE_MAX_CHARS } from "./protocol.ts";
export type { HostOptions, SandboxHost };
