import { formatPath } from "../world/diagnostic.ts";
import { parseWorld } from "../world/load.ts";
import type { World } from "../world/schema/index.ts";
import { validateWorld } from "../world/validate.ts";
import { EngineError } from "./errors.ts";
import { hashText } from "./hash.ts";

/** Recently checked worlds by content hash: many sessions on one world are checked once. */
const checked = new Map<string, World>();
const CACHE_SIZE = 16;

/**
 * The world a session runs: checked like a file (load compatibility steps,
 * shape, every rule) unless the caller says it already did, and frozen, so
 * neither the engine nor the caller can change it under a running session.
 */
export function prepareWorld(input: unknown, validate: boolean): World {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new EngineError("world/invalid", "not-object");
  }
  if (!validate) return input as World;
  let text: string;
  try {
    text = JSON.stringify(input);
  } catch (error) {
    throw new EngineError("world/invalid", "not-json", { reason: `${(error as Error).message}` });
  }
  const key = hashText(text);
  const known = checked.get(key);
  if (known) return known;
  let result: ReturnType<typeof validateWorld>;
  try {
    result = validateWorld(parseWorld(text, "<world>"));
  } catch (error) {
    // The checker does not throw on odd worlds; a pathological one (say, nested thousands deep) still must not crash a caller.
    throw new EngineError("world/invalid", "unchecked", { reason: `${(error as Error).message}` });
  }
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || !result.world) {
    const shown = errors
      .slice(0, 5)
      .map((d) => `${d.code} at ${formatPath(d.path)}: ${d.message}`)
      .join("\n  ");
    const count = errors.length;
    throw new EngineError(
      "world/invalid",
      count === 1 ? "errors-one" : count > 5 ? "errors-more" : "errors-many",
      { count, shown, rest: count - 5 },
      { diagnostics: errors },
    );
  }
  if (checked.size >= CACHE_SIZE) checked.delete(checked.keys().next().value!);
  checked.set(key, result.world);
  return result.world;
}
