import type { StepContext } from "./context.ts";
import { own, setOwn } from "./own.ts";
import type { EventState } from "./state.ts";

/**
 * The narrative event state machine (resolutions "Narrative events"): events
 * start inactive; `narrative-event-start` makes one active; only one is active
 * at a time and a second start is ignored, not queued; a stopped event resumes
 * with its turn count; a completed one restarts, count reset, only from a
 * recurring trigger. Verdicts are applied by event-verdict.ts.
 */

export function activeEvent(ctx: StepContext): string | null {
  for (const [key, entry] of Object.entries(ctx.state.events)) if (entry.status === "active") return key;
  return null;
}

export function eventEntry(ctx: StepContext, key: string): EventState {
  const existing = own(ctx.state.events, key);
  if (existing) return existing;
  const entry: EventState = { status: "inactive", activeTurns: 0 };
  setOwn(ctx.state.events, key, entry);
  return entry;
}

/** Starts an event; returns a note saying why nothing changed, or null when it started. */
export function startEvent(ctx: StepContext, key: string, fromRecurring: boolean): string | null {
  if (!Object.hasOwn(ctx.index.world.narrativeEvents ?? {}, key)) return `no narrative event "${key}"`;
  const active = activeEvent(ctx);
  if (active === key) return `"${key}" is already active`;
  if (active !== null)
    return `"${active}" is active; only one event runs at a time and a second start is ignored`;
  const entry = own(ctx.state.events, key);
  if (entry?.status === "completed") {
    if (!fromRecurring) return `"${key}" is completed; only a recurring trigger restarts it`;
    entry.status = "active";
    entry.activeTurns = 0;
  } else {
    // inactive starts at 0; stopped resumes keeping its count.
    eventEntry(ctx, key).status = "active";
  }
  ctx.recorder.outcomes.push({ type: "event", actor: null, key, change: "began" });
  return null;
}
