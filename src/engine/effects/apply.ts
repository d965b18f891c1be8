import { parseEffect } from "../../world/schema/index.ts";
import type { DropReason, EffectTrace } from "../trace.ts";
import type { EffectContext } from "./context.ts";
import { applyOne } from "./index.ts";

/** Effects per trigger (spec 8): counted over valid effects only (resolutions "Triggers"). */
export const EFFECT_CAP = 5;

/**
 * Applies a trigger's effects in order: malformed ones (checked with
 * parseEffect) are dropped first, then the first `cap` valid ones apply and
 * the rest are dropped as over the cap. `cap` null applies every valid effect
 * (narrative events' onCompleteEffects are outside the per-trigger cap).
 */
export function applyEffects(
  list: readonly unknown[],
  source: EffectTrace["source"],
  ctx: EffectContext,
  cap: number | null,
): EffectTrace[] {
  const traces: EffectTrace[] = [];
  let valid = 0;
  list.forEach((raw, index) => {
    const type = typeOf(raw);
    const parsed = parsedEffect(raw);
    if (!parsed.ok) {
      const issue = parsed.issues[0];
      const where = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
      traces.push({
        index,
        source,
        type,
        status: "dropped",
        reason: "malformed",
        note: `${issue?.message ?? "invalid"}${where}`,
        effect: raw,
      });
      return;
    }
    valid++;
    if (cap !== null && valid > cap) {
      traces.push({
        index,
        source,
        type,
        status: "dropped",
        reason: "over the cap",
        note: `only the first ${cap} valid effects apply`,
        effect: raw,
      });
      return;
    }
    const outcome = applyOne(parsed.effect, ctx);
    const trace: EffectTrace = {
      index,
      source,
      type,
      status: outcome.changed ? "applied" : "unchanged",
      effect: raw,
    };
    if (outcome.note !== undefined) trace.note = outcome.note;
    traces.push(trace);
  });
  return traces;
}

/** Records effects that were not applied at all (the script set skip, or the trigger was suppressed). */
export function dropEffects(
  list: readonly unknown[],
  source: EffectTrace["source"],
  reason: DropReason,
): EffectTrace[] {
  return list.map((raw, index) => ({
    index,
    source,
    type: typeOf(raw),
    status: "dropped",
    reason,
    effect: raw,
  }));
}

type Parsed = ReturnType<typeof parseEffect>;

/** parseEffect's verdict per deeply frozen effect (the world's, and kept script edits never change): checked once. */
const verdicts = new WeakMap<object, Parsed>();

function parsedEffect(raw: unknown): Parsed {
  if (raw === null || typeof raw !== "object") return parseEffect(raw);
  let parsed = verdicts.get(raw);
  if (parsed === undefined) {
    parsed = parseEffect(raw);
    if (deeplyFrozen(raw)) verdicts.set(raw, parsed);
  }
  return parsed;
}

/** Whether a value and everything under it is frozen, so that a verdict on it stays true (bounded: a large value is just not kept). */
function deeplyFrozen(value: object): boolean {
  const stack: unknown[] = [value];
  for (let seen = 0; stack.length > 0; seen++) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    if (seen > 1000 || !Object.isFrozen(node)) return false;
    for (const key of Object.keys(node)) stack.push((node as Record<string, unknown>)[key]);
  }
  return true;
}

function typeOf(raw: unknown): string {
  const type = (raw as { type?: unknown } | null)?.type;
  return typeof type === "string" ? type : "(none)";
}
