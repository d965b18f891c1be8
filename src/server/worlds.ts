import { createHash } from "node:crypto";
import { parseWorld } from "../world/load.ts";
import type { World } from "../world/schema/index.ts";
import { type ValidationResult, validateWorld } from "../world/validate.ts";
import { ApiError } from "./errors.ts";
import type { Store } from "./store/store.ts";

/** The JSON report of `taleforge check --format json` (docs/json-output.md): the same keys, in that order. */
export function checkReport(file: string, result: ValidationResult) {
  return {
    file,
    errorCount: result.errorCount,
    warningCount: result.warningCount,
    diagnostics: result.diagnostics.map((d) => ({
      code: d.code,
      severity: d.severity,
      message: d.message,
      path: d.path,
      line: d.line,
      column: d.column,
    })),
  };
}

export function worldHashOf(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Checks an uploaded world: a world with errors is refused with the check's report. */
export function checkUpload(
  text: string,
  name: string,
): { world: World; report: ReturnType<typeof checkReport> } {
  const result = validateWorld(parseWorld(text, name));
  const report = checkReport(name, result);
  if (result.errorCount > 0 || result.world === undefined)
    throw new ApiError(
      "world/invalid",
      `The world has ${result.errorCount} error(s); fix them (taleforge check shows them with their lines) and upload it again.`,
      { report },
    );
  return { world: result.world, report };
}

/** Parsed and checked worlds by hash, kept for the turns that follow (a small LRU). */
export class WorldCache {
  private readonly entries = new Map<string, World>();
  constructor(
    private readonly store: Store,
    private readonly capacity = 32,
  ) {}

  remember(hash: string, world: World): void {
    this.entries.delete(hash);
    this.entries.set(hash, world);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  async get(hash: string): Promise<World> {
    const cached = this.entries.get(hash);
    if (cached) {
      this.remember(hash, cached);
      return cached;
    }
    const row = await this.store.world(hash);
    if (!row)
      throw new ApiError("world/not-found", `No world ${hash}; upload it with POST /worlds.`, { hash });
    const { world } = checkUpload(row.text, row.name);
    this.remember(hash, world);
    return world;
  }
}
