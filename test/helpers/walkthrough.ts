import { readFileSync } from "node:fs";
import type { Intent, Json } from "../../src/engine/ports.ts";

/** One command of the example world's main-quest walkthrough (examples/harbor.walkthrough.json). */
export interface WalkthroughStep {
  command: string;
  /** What a classifier should answer. */
  intent: Intent;
  target?: string;
  /** The triggers that must fire that turn, planning phase first, in map order. */
  fired: string[];
}

export interface Walkthrough {
  storyStart: string;
  player: { premade: string };
  steps: WalkthroughStep[];
  expect: { quests: Record<string, string>; storage: Record<string, Json> };
}

/** The walkthrough, read fresh for each caller. */
export function readWalkthrough(): Walkthrough {
  return JSON.parse(
    readFileSync(new URL("../../examples/harbor.walkthrough.json", import.meta.url), "utf8"),
  ) as Walkthrough;
}
