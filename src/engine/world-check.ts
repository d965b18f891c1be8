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
    throw new EngineError(
      "world/invalid",
      "The world must be a V33 world object (for example the `world` of validateWorld's result).",
    );
  }
  if (!validate) return input as World;
  let text: string;
  try {
    text = JSON.stringify(input);
  } catch (error) {
    throw new EngineError("world/invalid", `The world is not plain JSON data: ${(error as Error).message}.`);
  }
  const key = hashText(text);
  const known = checked.get(key);
  if (known) return known;
  let result: ReturnType<typeof validateWorld>;
  try {
    result = validateWorld(parseWorld(text, "<world>"));
  } catch (error) {
    // The checker does not throw on odd worlds; a pathological one (say, nested thousands deep) still must not crash a caller.
    throw new EngineError(
      "world/invalid",
      `The world could not be checked: ${(error as Error).message}. Simplify it and run taleforge check.`,
    );
  }
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || !result.world) {
    const shown = errors
      .slice(0, 5)
      .map((d) => `${d.code} at ${formatPath(d.path)}: ${d.message}`)
      .join("\n  ");
    throw new EngineError(
      "world/invalid",
      `The world has ${errors.length} validation error${errors.length === 1 ? "" : "s"}; fix ${errors.length === 1 ? "it" : "them"} (taleforge check) before playing:\n  ${shown}${errors.length > 5 ? `\n  (and ${errors.length - 5} more)` : ""}`,
      { diagnostics: errors },
    );
  }
  if (checked.size >= CACHE_SIZE) checked.delete(checked.keys().next().value!);
  checked.set(key, result.world);
  return result.world;
}
