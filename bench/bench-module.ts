import type { Progress } from "./progress.ts";

/**
 * One section of `npm run bench`. Sections print figures and never assert:
 * targets are shown next to the figures for a reader to judge. Add a section
 * by writing `<name>.bench.ts` that default-exports one of these and listing
 * it in run.ts.
 */
export interface BenchModule {
  name: string;
  title: string;
  run(context: BenchContext): Promise<void> | void;
}

export interface BenchContext {
  /** A temporary directory for generated files (under os.tmpdir(), removed afterwards unless --keep). */
  workDir: string;
  /** Timed runs per figure at scale 1 (larger scales use fewer). */
  runs: number;
  /** The scale factors to measure beyond 1x. */
  scales: number[];
  /** The repository root, for spawning bin/taleforge.js. */
  root: string;
  print(text?: string): void;
  progress(title: string, total: number): Progress;
}
