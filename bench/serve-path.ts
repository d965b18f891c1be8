import { readFileSync } from "node:fs";
import { median, p99 } from "./measure.ts";

/** A turn from the client's side (performance.now() ms). */
export type ClientSide = { game: string; tick: number; sent: number; answered: number; arrived: number };
/** A turn's step from its step log: its own time, its wait for a slot, and when it was logged (epoch ms). */
export type StepSide = {
  game: string;
  tick: number;
  durationMs: number;
  waitMs: number;
  claimMs: number;
  at: number;
};

/** The legs of a turn's end-to-end time, in order; they add up to it. */
export const LEGS = ["sent → queued", "queued", "claim", "step", "commit → turn event"] as const;

/**
 * Where each turn's end-to-end time went, the client's times joined with its step's log line (same
 * machine, same clock; the log's times are whole ms): sent → queued (the POST through HTTP, the
 * submission stored, the turn found due), queued (the wait for a step slot), claim (the game claimed
 * and its submissions read again, holding the slot), step (restore, engine, narrator, commit), commit →
 * turn event (the event published, written to the stream and read by the client). Also the POST's own
 * answer time, which overlaps the first legs.
 * Each: p50, p99 and the mean over the slowest 1% of turns (by end-to-end), to tell what makes the tail.
 */
export function pathOf(clients: ClientSide[], steps: StepSide[]) {
  const byTurn = new Map(steps.map((s) => [`${s.game} ${s.tick}`, s]));
  const origin = performance.timeOrigin;
  const turns = clients.flatMap((c) => {
    const step = byTurn.get(`${c.game} ${c.tick}`);
    if (!step) return [];
    const started = step.at - step.durationMs;
    const queuedAt = started - step.claimMs - step.waitMs;
    const legs = [
      queuedAt - (origin + c.sent),
      step.waitMs,
      step.claimMs,
      step.durationMs,
      origin + c.arrived - step.at,
    ];
    return [{ post: c.answered - c.sent, legs, total: c.arrived - c.sent }];
  });
  const slowest = [...turns]
    .sort((a, b) => b.total - a.total)
    .slice(0, Math.max(1, Math.ceil(turns.length / 100)));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const figure = (of: (t: (typeof turns)[number]) => number) => ({
    p50: median(turns.map(of)),
    p99: p99(turns.map(of)),
    slowest: mean(slowest.map(of)),
  });
  return {
    matched: turns.length,
    post: figure((t) => t.post),
    legs: LEGS.map((_, i) => figure((t) => t.legs[i]!)),
    total: figure((t) => t.total),
  };
}

/** The machine's CPU time so far (all processes, every core), busy and total, in clock ticks (/proc/stat). */
export function machineTicks(): { busy: number; total: number } | null {
  try {
    const fields = readFileSync("/proc/stat", "utf8")
      .split("\n")[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    // idle and iowait
    return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
  } catch {
    return null;
  }
}
