import type { AiPorts, ScriptRunner } from "./ports.ts";
import type { WorldIndex } from "./world-index.ts";

/** What a session's turns run with, besides the state: the world and the ports. */
export interface Env {
  index: WorldIndex;
  ai: AiPorts;
  scripts: ScriptRunner | undefined;
  /** At most this many AI-judged candidate triggers per phase (default 20). */
  maxJudged: number;
}

export const DEFAULT_MAX_JUDGED = 20;
