/**
 * A server in its own process, on the store named by TALEFORGE_CHILD_STORE;
 * prints its URL on stdout. TALEFORGE_CHILD_NARRATOR=hang (the kill -9 test):
 * the offline narrator, except that a turn's intent never comes, so a turn is
 * in flight (its lease taken) when the test kills the process, which it does
 * on the line "turn in flight" this process prints then. Otherwise the
 * offline narrator (the two-process interleavings test). TALEFORGE_CHILD_NARRATOR=slow:<ms>: the
 * offline narrator, whose intent takes <ms> more (the chaos tests: a turn is in flight a while).
 * TALEFORGE_CHILD_NARRATOR=gate:<file>: the offline narrator, which streams the first half of each
 * narration, then waits until <file> exists before the rest (the live narration test: a stream opens
 * mid-narration on another process).
 * TALEFORGE_CHILD_LEASE_MS, _MAX_STEPS, _SWEEP_MS: the server's options of those names.
 */

import { existsSync } from "node:fs";
import { createLogger } from "../../src/server/logger.ts";
import { gatedNarrator, offlineNarrator, startServer } from "./harness.ts";

const where = JSON.parse(process.env.TALEFORGE_CHILD_STORE ?? "{}");
const mode = process.env.TALEFORGE_CHILD_NARRATOR ?? "";
const slowMs = mode.startsWith("slow:") ? Number(mode.slice(5)) : 0;
const number = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const options = {
  leaseMs: number("TALEFORGE_CHILD_LEASE_MS"),
  maxSteps: number("TALEFORGE_CHILD_MAX_STEPS"),
  sweepMs: number("TALEFORGE_CHILD_SWEEP_MS"),
};
const running = await startServer({
  where,
  ...(process.env.TALEFORGE_CHILD_LOG
    ? {
        log: createLogger({
          level: process.env.TALEFORGE_CHILD_LOG,
          format: "json",
          destination: process.stderr,
        }),
      }
    : {}),
  ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
  narrator: mode.startsWith("gate:")
    ? gatedNarrator(
        () =>
          new Promise<void>((resolve) => {
            const look = setInterval(() => {
              if (!existsSync(mode.slice(5))) return;
              clearInterval(look);
              resolve();
            }, 20);
          }),
      )
    : mode === "hang" || slowMs > 0
      ? (world, game) =>
          new Proxy(offlineNarrator(world, game), {
            get(target, key) {
              const value = Reflect.get(target, key);
              if (key === "classify")
                return mode === "hang"
                  ? () => {
                      // The test kills the process on this line: the turn is in flight, its lease taken.
                      process.stdout.write("turn in flight\n");
                      return new Promise(() => {});
                    }
                  : async (...args: unknown[]) => {
                      await new Promise((r) => setTimeout(r, slowMs));
                      return (value as (...a: unknown[]) => unknown).apply(target, args);
                    };
              return typeof value === "function" ? value.bind(target) : value;
            },
          })
      : offlineNarrator,
});
process.stdout.write(`${running.url}\n`);
// SIGTERM: close like a real server (finish steps in flight, close the store), then exit.
process.once("SIGTERM", () => {
  void running.close().finally(() => process.exit(0));
});
