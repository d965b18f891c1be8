import type { DiffEntry } from "./diff.ts";
import type { IntentAnswer, StorySegment } from "./ports.ts";
import type { QuestPrompt } from "./quests.ts";
import type { LogEntry } from "./state.ts";
import type { TurnTrace } from "./trace.ts";

/** What a turn (or the opening, at tick 0) returns. */
export interface TurnResult {
  tick: number;
  intent: IntentAnswer | null;
  /** The story text the narrator wrote for this turn. */
  story: string;
  /**
   * In a party game, when the narrator said: the story's paragraphs with the character each tells
   * of, so a page can mark its viewer's own lines (issue 34). Absent otherwise.
   */
  segments?: StorySegment[];
  /** Keys of the triggers that fired, planning phase first, in map order. */
  fired: string[];
  trace: TurnTrace;
  diff: DiffEntry[];
  /** Quest acceptance prompts raised after the turn. */
  prompts: QuestPrompt[];
  /** Log entries written during the turn. */
  logs: LogEntry[];
  tip: string | null;
  /**
   * What the party should do next, computed after all of the turn's changes
   * (next-step.ts): the narration is written before the state phase, so front
   * ends show this, not a line of the story. Null when there is none.
   */
  next: string | null;
}
