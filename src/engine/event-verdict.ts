import type { StepContext } from "./context.ts";
import { applyEffects } from "./effects/apply.ts";
import { own } from "./own.ts";
import type { EventVerdict } from "./ports.ts";
import type { EventTrace } from "./trace.ts";

/** A narrative event with `targetTurns: N` is force-completed after FORCE_FACTOR * N active turns. */
export const FORCE_FACTOR = 2;

/**
 * The end-of-turn step for the event that was active during narration
 * (resolutions "Narrative events"): the turn counts as an active turn; the
 * narrator's verdict applies (completed wins a tie, so the provider sends one
 * verdict); reaching 2 x targetTurns force-completes it, even on a "stopped"
 * verdict, because the event has run its course. Completion applies the
 * event's onCompleteEffects, outside the per-trigger cap.
 */
export function concludeEvent(
  ctx: StepContext,
  key: string | null,
  verdict: EventVerdict | undefined,
): EventTrace | null {
  if (key === null) return null;
  const entry = own(ctx.state.events, key);
  const definition = own(ctx.index.world.narrativeEvents, key);
  if (!entry || !definition || entry.status !== "active") return null;
  entry.activeTurns += 1;
  const said =
    verdict === "completed" || verdict === "stopped" || verdict === "neither" ? verdict : "missing";
  const target = definition.targetTurns;
  const forced = target !== undefined && target > 0 && entry.activeTurns >= FORCE_FACTOR * target;
  const trace: EventTrace = {
    event: key,
    verdict: said,
    activeTurns: entry.activeTurns,
    result: "active",
    effects: [],
  };
  if (said === "completed" || forced) {
    entry.status = "completed";
    trace.result = said === "completed" ? "completed" : "forced";
    ctx.recorder.outcomes.push({ type: "event", actor: null, key, change: "completed" });
    const players = ctx.state.party.filter((c) => c.kind === "player").map((c) => c.name);
    trace.effects = applyEffects(
      definition.onCompleteEffects ?? [],
      "event",
      { ...ctx, owner: `narrativeEvents/${key}`, recurring: false, scope: "party", targets: players },
      null,
    );
  } else if (said === "stopped") {
    entry.status = "stopped";
    trace.result = "stopped";
  }
  return trace;
}
