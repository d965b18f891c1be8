/**
 * A server in its own process, on the store named by TALEFORGE_CHILD_STORE;
 * prints its URL on stdout. TALEFORGE_CHILD_NARRATOR=hang (the kill -9 test):
 * the offline narrator, except that a turn's intent never comes, so a turn is
 * in flight (its lease taken) when the test kills the process, which it does
 * on the line "turn in flight" this process prints then. Otherwise the
 * offline narrator (the two-process interleavings test).
 */
import { offlineNarrator, startServer } from "./harness.ts";

const where = JSON.parse(process.env.TALEFORGE_CHILD_STORE ?? "{}");
const hang = process.env.TALEFORGE_CHILD_NARRATOR === "hang";
const running = await startServer({
  where,
  ...(process.env.TALEFORGE_CHILD_LEASE_MS ? { leaseMs: Number(process.env.TALEFORGE_CHILD_LEASE_MS) } : {}),
  narrator: hang
    ? (world, game) =>
        new Proxy(offlineNarrator(world, game), {
          get(target, key) {
            if (key === "classify")
              return () => {
                // The test kills the process on this line: the turn is in flight, its lease taken.
                process.stdout.write("turn in flight\n");
                return new Promise(() => {});
              };
            const value = Reflect.get(target, key);
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
