import type { CallIdentity } from "./ports.ts";
import { foldSeed } from "./rng.ts";
import type { SessionState } from "./state.ts";

export type CallKind = "intent" | "judge-planning" | "judge-state" | "narration" | "summary";

/**
 * The seed and game key a provider sends with a call (issue 19 items 6, 7):
 * the seed is derived from the session seed, the tick and the call kind, so
 * a replay of the game asks the same seeds; the game key is the session id,
 * stable for the game (a server's prompt-cache key). Both are plain data: the
 * cassette records them with the request.
 */
export function callIdentity(state: SessionState, kind: CallKind, draw = 0): Required<CallIdentity> {
  let h = 0x811c9dc5;
  // A retried turn's narration (issue 33) is a new draw: another seed. Draw 0 keeps the seed every game had.
  for (const ch of `${foldSeed(state.seed)}:${state.tick}:${kind}${draw > 0 ? `:${draw}` : ""}`)
    h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  // 31 bits: some servers take the seed as a signed 32-bit integer.
  return { seed: (h >>> 0) & 0x7fffffff, game: state.sessionId };
}
