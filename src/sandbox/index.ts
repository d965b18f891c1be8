import { type HostOptions, SandboxHost } from "./host.ts";

/**
 * The script sandbox (spec 4, 7, 8): the engine's ScriptRunner backed by
 * isolated-vm isolates in a child process. Call `close()` when done, or the
 * child process keeps Node alive.
 */
export function createSandbox(options: HostOptions = {}): SandboxHost {
  return new SandboxHost(options);
}

export type { HostOptions, SandboxHost };
