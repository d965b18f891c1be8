import type { SessionState } from "./state.ts";

/**
 * The private copy a turn works on, copied only as deep as the engine writes:
 * - records whose values are only ever replaced, never changed in place
 *   (known, consumed, storage: write-* effects and scripts store new values),
 *   and the append-only lists whose entries are never changed once written
 *   (story and action history, log, pending instructions, bad patterns), are
 *   copied shallowly;
 * - the trigger edits are replaced whole, never changed, so they are shared;
 * - everything changed in place (party, position, quests, events, the PRNG
 *   state, next step) is copied deeply.
 * So a long session does not pay for its whole history on every turn, and the
 * turn's diff skips shared entries at once. Key order is kept, so saves stay
 * byte-stable.
 */
export function draftOf(state: SessionState): SessionState {
  const draft: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(state)) draft[key] = copyField(key as keyof SessionState, value);
  return draft as unknown as SessionState;
}

function copyField(key: keyof SessionState, value: unknown): unknown {
  switch (key) {
    case "history": {
      const history = value as SessionState["history"];
      return { story: [...history.story], actions: [...history.actions] };
    }
    case "known":
    case "consumed":
    case "storage":
      return { ...(value as object) };
    case "log":
    case "pendingInstructions":
    case "badPatterns":
    case "rng":
      return [...(value as unknown[])];
    case "triggerEdits":
      return value;
    default:
      return cloneJson(value);
  }
}

/**
 * A deep copy of plain JSON data (the state is JSON by construction): what
 * structuredClone gives for it, without its serialisation round trip.
 */
function cloneJson(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(cloneJson);
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const child = cloneJson((value as Record<string, unknown>)[key]);
    // A key named "__proto__" (a quest or storage key can be anything) stays an own property.
    if (key === "__proto__")
      Object.defineProperty(out, key, { value: child, enumerable: true, writable: true, configurable: true });
    else out[key] = child;
  }
  return out;
}
