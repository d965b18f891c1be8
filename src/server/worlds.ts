import { readFileSync } from "node:fs";
import { type CheckReport, checkReport } from "../host/check-report.ts";
import { cleanWorld } from "../host/outside-text.ts";
import { checkForServe } from "../world/repair.ts";
import type { World } from "../world/schema/index.ts";
import { ApiError } from "./errors.ts";
import type { Store } from "./store/store.ts";
import type { WorkPool } from "./work/pool.ts";
import { worldHashOf } from "./work/tasks.ts";

/** The example world every server lists (examples/harbor.world.json), stored like an upload. */
export const BUNDLED_WORLD = {
  name: "harbor",
  url: new URL("../../examples/harbor.world.json", import.meta.url),
};

/** Stores the example world if it is not stored yet (the same bytes are one world); returns its hash. */
export async function bundleExampleWorld(store: Store, worlds: WorldCache): Promise<string> {
  const text = readFileSync(BUNDLED_WORLD.url, "utf8");
  const hash = worldHashOf(text);
  if (await store.world(hash)) return hash;
  const { world, report } = checkUpload(text, BUNDLED_WORLD.name);
  await store.putWorld({
    hash,
    name: BUNDLED_WORLD.name,
    text,
    bytes: Buffer.byteLength(text),
    warnings: JSON.stringify(report.diagnostics),
    created_at: Date.now(),
    uploader: "bundled",
  });
  worlds.remember(hash, world);
  return hash;
}

export { worldHashOf };

/**
 * Checks an uploaded world in the work pool's threads: a world that cannot be played is refused
 * with the check's report (any error with `strict`); see checkForServe.
 */
export async function checkInPool(
  pool: WorkPool,
  text: string,
  name: string,
  strict = false,
): Promise<{ hash: string; world: World; report: CheckReport }> {
  const result = await pool.run({ kind: "check", text, name, strict });
  if (result.kind === "invalid")
    throw new ApiError("world/invalid", "has-errors", { count: result.count }, { report: result.report });
  if (result.kind !== "checked") throw new Error(`a check answered ${result.kind}`);
  return { hash: result.hash, world: result.world, report: result.report };
}

/** Checks an uploaded world: a world that cannot be played is refused with the check's report. */
export function checkUpload(text: string, name: string): { world: World; report: CheckReport } {
  // Accepted as `play` accepts a real world: repaired, or with the errors the platform plays (issue 35).
  const result = checkForServe(text, name);
  const report = checkReport({ ...result, file: name });
  if (result.world === undefined)
    throw new ApiError("world/invalid", "has-errors", { count: result.errorCount }, { report });
  return { world: result.world, report };
}

/** Parsed and checked worlds by hash, kept for the turns that follow (a small LRU). */
export class WorldCache {
  private readonly entries = new Map<string, World>();
  constructor(
    private readonly store: Store,
    private readonly capacity = 32,
  ) {}

  /** Keeps a world for its games, its text cleaned (outside-text.ts): the page shows its names plain. */
  remember(hash: string, world: World): void {
    this.entries.delete(hash);
    this.entries.set(hash, cleanWorld(world));
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  async get(hash: string): Promise<World> {
    const cached = this.entries.get(hash);
    if (cached) {
      this.remember(hash, cached);
      return cached;
    }
    const row = await this.store.world(hash);
    if (!row) throw new ApiError("world/not-found", "no-world", { hash }, { hash });
    this.remember(hash, storedWorld(row.text, row.name));
    return this.entries.get(hash)!;
  }
}

/**
 * A stored world read back: it passed every rule when it was uploaded, so only
 * its shape is checked again (what the engine needs to run it). Running every
 * rule again cost several times as much on each miss of the cache, which any
 * client could cause by asking for worlds in turn; and a rule added by an
 * upgrade no longer shuts out the games already played on a world it flags.
 */
export function storedWorld(text: string, name: string): World {
  const result = checkForServe(text, name, []);
  if (result.world === undefined) {
    const report = checkReport({ ...result, file: name });
    throw new ApiError("world/invalid", "has-errors", { count: result.errorCount }, { report });
  }
  return result.world;
}
