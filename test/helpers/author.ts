import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { emptyWorld } from "../../src/world/defaults.ts";
import type { Quest, World } from "../../src/world/schema/index.ts";

/** The example world, parsed fresh for each caller (the engine caches per object). */
export function harbor(): World {
  return JSON.parse(
    readFileSync(new URL("../../examples/harbor.world.json", import.meta.url), "utf8"),
  ) as World;
}

/** Parsed JSON that a test edits freely, such as a world broken on purpose: `harbor() as Json`. */
// biome-ignore lint/suspicious/noExplicitAny: tests edit the parsed JSON freely
export type Json = any;

/** A world with only the given sections: enough for the author tools, which read a few. */
export function tinyWorld(parts: Partial<World> & Record<string, unknown>): World {
  return { ...emptyWorld(), ...parts } as World;
}

export function basicQuest(name: string): Quest {
  return {
    name,
    questSource: "a notice board",
    questStatement: "Do it.",
    mainObjective: "Do it.",
    completionCondition: "",
    detailType: "basic",
    spatialRelationship: "existingLocalArea",
  } as Quest;
}

/** A trigger record; conditions and effects as loose objects, as the drawing code accepts them. */
export function trigger(
  name: string,
  conditions: Record<string, unknown>[] = [],
  effects: Record<string, unknown>[] = [],
  extra: Record<string, unknown> = {},
) {
  return { name, conditions, effects, ...extra } as unknown as World["triggers"][string];
}

/** Names that break naive escaping in Mermaid, DOT, XML and JSON. */
export const HOSTILE_NAMES = [
  'say "hi"',
  "a]b[c",
  "<script>alert(1)</script>",
  "fish & chips &amp; #quot; #35;",
  "two\nlines\r\nand\ttab",
  "pipe|semi;colon:percent%%",
  "back\\slash `tick` 'single'",
  "Ærø 🐉 城 ﷽",
  "{braces} (parens)",
  " ",
];

/** shared/worlds, beside the repository (never copied into it). */
export const SHARED_WORLDS = fileURLToPath(new URL("../../../shared/worlds/", import.meta.url));

/**
 * The skip reason of a test over shared/worlds when the folder is absent (false when it is there):
 * only the folder's absence skips; a folder that is there but lacks a world the test needs fails.
 */
export function sharedWorldsAbsent(): string | false {
  return existsSync(SHARED_WORLDS) ? false : "shared/worlds is not beside the repository";
}

/**
 * The real world files of shared/worlds (and its mods/ fragments), beside the
 * repository as on the developers' machines and in CI; empty when absent.
 */
export function sharedWorldFiles(): string[] {
  const root = SHARED_WORLDS;
  if (!existsSync(root)) return [];
  const list = (dir: string) =>
    readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => join(dir, f));
  const mods = join(root, "mods");
  return [...list(root), ...(existsSync(mods) ? list(mods) : [])];
}

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
export function pngSize(data: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((b, i) => data[i] === b)) throw new Error("not a PNG: wrong signature");
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (String.fromCharCode(...data.subarray(12, 16)) !== "IHDR") throw new Error("not a PNG: no IHDR first");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
