import type { Recorder } from "./record.ts";
import type { SessionState } from "./state.ts";
import type { WorldIndex } from "./world-index.ts";

/** What every step of a turn works on: the turn's private draft of the state, the world index, the recorder. */
export interface StepContext {
  state: SessionState;
  index: WorldIndex;
  recorder: Recorder;
}
