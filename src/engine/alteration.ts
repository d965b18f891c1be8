import type { SessionState } from "./state.ts";

/**
 * A narration replaced by hand (issue 33's Alter): the one change of a state it makes, shared by the
 * host's Game (which alters) and the play-test export (which follows a recorded alteration), so the
 * two cannot drift apart.
 */

/** The longest altered narration kept; a longer one is refused. */
export const MAX_ALTERED = 20_000;

/** Who altered a narration when nobody is named. */
export const SOMEONE = "the player";

/**
 * The state with turn `tick`'s narration as `text`: the newest story entry of that tick is replaced,
 * nothing else (it is what later story conditions and the narrator's history read). With `notice`,
 * the log says who altered it and what the narrator wrote (the head's state only).
 */
export function withAlteredNarration(
  state: SessionState,
  tick: number,
  text: string,
  notice?: { by: string; original: string },
): SessionState {
  const story = [...state.history.story];
  for (let i = story.length - 1; i >= 0; i--) {
    if (story[i]!.tick !== tick) continue;
    story[i] = { tick, text };
    break;
  }
  if (!notice) return { ...state, history: { ...state.history, story } };
  const { by, original } = notice;
  const clipped = original.length > 300 ? `${original.slice(0, 299)}…` : original;
  const log = [
    ...state.log,
    {
      tick,
      phase: "session" as const,
      trigger: null,
      type: "notice" as const,
      message: `The narration of turn ${tick} was altered by ${by}. The narrator wrote: "${clipped}"`,
    },
  ];
  return { ...state, history: { ...state.history, story }, log };
}
