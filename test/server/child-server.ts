/**
 * A server in its own process, for the kill -9 test: the offline narrator,
 * except that a turn's intent never comes, so a turn is in flight (its lease
 * taken) when the test kills the process. Prints its URL on stdout.
 */
import { offlineNarrator, startServer } from "./harness.ts";

const where = JSON.parse(process.env.TALEFORGE_CHILD_STORE ?? "{}");
const running = await startServer({
  where,
  leaseMs: Number(process.env.TALEFORGE_CHILD_LEASE_MS ?? "1500"),
  narrator: (world, game) =>
    new Proxy(offlineNarrator(world, game), {
      get(target, key) {
        if (key === "classify") return () => new Promise(() => {});
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }),
});
process.stdout.write(`${running.url}\n`);
