import { setOwn } from "./own.ts";
import type { SessionState } from "./state.ts";

/**
 * The private copy a turn works on, copied only as deep as the engine writes:
 * - records whose values are only ever replaced, never changed in place
 *   (known, consumed, storage: write-* effects and scripts store new values),
 *   and the append-only lists whose entries are never changed once written
 *   (story and action history, log, pending instructions, bad patterns), are
 *   copied shallowly;
 * - the trigger edits are replaced whole, never changed, so they are shared;
 * - quest states are copied on write: the record is copied shallowly, and
 *   questEntry (quests.ts), the one way to a quest state that is changed,
 *   copies a state deeply the first time the turn asks for it (writableQuest);
 *   a turn touches a few of the quests, and the diff skipped the rest at once;
 * - everything else changed in place (party, position, events, the PRNG
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
    case "quests": {
      // Object spread keeps an own "__proto__" key as an own property, as cloneJson does.
      const quests = { ...(value as object) };
      sharedQuests.set(quests, new Set(Object.keys(quests)));
      return quests;
    }
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
/** Per draft's quest record, the quests whose state is still the previous state's (not to be changed in place). */
const sharedQuests = new WeakMap<object, Set<string>>();

/**
 * The state of a quest in a record, safe to change in place: a draft's
 * quest state still shared with the previous state is first replaced by a
 * deep copy. A record that is not a draft's (a state copied whole) is
 * changed in place as it is.
 */
export function writableQuest<T>(quests: Record<string, T>, key: string, entry: T): T {
  const shared = sharedQuests.get(quests);
  if (shared === undefined || !shared.delete(key)) return entry;
  const copy = cloneJson(entry) as T;
  setOwn(quests, key, copy);
  return copy;
}

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
