import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Timing helpers, in milliseconds: medians after warm-up, minimums, and child-process CPU time. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The 99th percentile (nearest rank): the value 99% of the samples are at or below. */
export function p99(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!;
}

export interface Samples<K extends string> {
  /** Each stage's time per run, in run order. */
  runs: Record<K, number>[];
  median(stage: K): number;
  min(stage: K): number;
}

/** Present when node runs with --expose-gc (npm run bench does): a collection between runs keeps one run's garbage out of the next. */
export const collectGarbage = (globalThis as { gc?: () => void }).gc;

/**
 * Runs `once` warm-up + `runs` times; `once` times its own stages with the
 * `lap` it is given (so a run can time parse and validate separately while
 * the work between them stays untimed).
 */
export function sample<K extends string>(
  options: { warmup: number; runs: number; onRun?: () => void },
  once: (lap: <T>(stage: K, work: () => T) => T) => void,
): Samples<K> {
  const runs: Record<K, number>[] = [];
  for (let i = 0; i < options.warmup + options.runs; i++) {
    collectGarbage?.();
    const times = {} as Record<K, number>;
    once((stage, work) => {
      const start = performance.now();
      const result = work();
      times[stage] = (times[stage] ?? 0) + performance.now() - start;
      return result;
    });
    if (i >= options.warmup) runs.push(times);
    options.onRun?.();
  }
  return {
    runs,
    median: (stage) => median(runs.map((r) => r[stage])),
    min: (stage) => Math.min(...runs.map((r) => r[stage])),
  };
}

export interface SpawnTimes {
  /** Wall time per run. */
  times: number[];
  /** CPU time (user + system) per run; empty where the platform does not say (Linux only). */
  cpu: number[];
  exitCodes: (number | null)[];
  /** The last run's stderr, for a note when the command failed. */
  stderr: string;
}

/** Whole process runs, as an author's shell sees them. */
export function spawnTimes(command: string, args: string[], runs: number, onRun?: () => void): SpawnTimes {
  return spawnRounds([{ command, args }], runs, onRun)[0]!;
}

/** One command line of `spawnRounds`; `env` replaces the environment when given. */
export interface SpawnCommand {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}

/**
 * Whole process runs of several commands, taken in turns (a round runs each
 * once): a slow spell of a shared virtual machine then falls on every
 * command alike, so that their ratios hold where their times alone drift.
 */
export function spawnRounds(
  commands: readonly SpawnCommand[],
  rounds: number,
  onRun?: () => void,
): SpawnTimes[] {
  const out = commands.map((): SpawnTimes => ({ times: [], cpu: [], exitCodes: [], stderr: "" }));
  for (let round = 0; round < rounds; round++) {
    commands.forEach(({ command, args, env }, i) => {
      const times = out[i]!;
      const cpuBefore = childrenCpuMs();
      const start = performance.now();
      const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, env });
      times.times.push(performance.now() - start);
      const cpuAfter = childrenCpuMs();
      if (cpuBefore !== undefined && cpuAfter !== undefined) times.cpu.push(cpuAfter - cpuBefore);
      times.exitCodes.push(result.status);
      times.stderr = result.stderr ?? "";
      onRun?.();
    });
  }
  return out;
}

/**
 * CPU time of this process's finished children (cutime + cstime of
 * /proc/self/stat, in clock ticks of 10 ms). On a busy machine it says what a
 * command costs when wall time says mostly how long it waited for a core.
 */
function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // Fields after the command name (which may hold spaces) start at field 3, "state".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return "-";
  return value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`;
}
