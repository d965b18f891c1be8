import { basename } from "node:path";
import { DEFAULT_PLAYER } from "../../engine/index.ts";
import type { JsonPath } from "../../world/diagnostic.ts";
import { DEFAULT_SEED, type Given, type PlayerSetup, type PlaytestFile, type Step } from "./schema.ts";

/** One play-test as it runs: the file's settings with the test's own laid over them. */
export interface PlannedTest {
  name: string;
  /** Where the test is in its file: [] for a file with `turns:`, ["tests", N] otherwise. */
  path: JsonPath;
  storyStart: string | undefined;
  seed: number;
  gameMode: string | null;
  /** undefined: the engine's default single player. */
  players: PlayerSetup[] | undefined;
  given: Given | undefined;
  steps: Step[];
  /** Where each setting was written: in the test, or at the top of the file. */
  origin: Record<SettingKey, JsonPath>;
}

export type SettingKey = "storyStart" | "seed" | "gameMode" | "players" | "given";
const SETTINGS: SettingKey[] = ["storyStart", "seed", "gameMode", "players", "given"];

export function planTests(file: PlaytestFile, fileName: string): PlannedTest[] {
  const base = {
    storyStart: file.storyStart,
    seed: file.seed ?? DEFAULT_SEED,
    gameMode: file.gameMode ?? null,
    players: file.players,
    given: file.given,
  };
  const top = Object.fromEntries(SETTINGS.map((k) => [k, [k]])) as Record<SettingKey, JsonPath>;
  if (file.turns !== undefined)
    return [{ name: file.name ?? testName(fileName), path: [], ...base, steps: file.turns, origin: top }];
  return (file.tests ?? []).map((test, i) => ({
    name: test.name ?? `test ${i + 1}`,
    path: ["tests", i],
    storyStart: test.storyStart ?? base.storyStart,
    seed: test.seed ?? base.seed,
    gameMode: test.gameMode ?? base.gameMode,
    players: test.players ?? base.players,
    given: test.given ?? base.given,
    steps: test.turns,
    origin: Object.fromEntries(
      SETTINGS.map((k) => [k, test[k] !== undefined ? ["tests", i, k] : [k]]),
    ) as Record<SettingKey, JsonPath>,
  }));
}

/** `main-quest.test.yaml` -> `main-quest`. */
export function testName(fileName: string): string {
  return basename(fileName)
    .replace(/\.test\.(ya?ml|json)$/i, "")
    .replace(/\.(ya?ml|json)$/i, "");
}

/** The party's player characters by name, as the engine will name them. */
export function playerNames(players: PlayerSetup[] | undefined): string[] {
  if (players === undefined) return [DEFAULT_PLAYER];
  return players.map((p) => p.premade ?? p.name ?? "");
}
