import cliProgress from "cli-progress";

/** A progress bar for long work, on stderr and only on a terminal, so piped figures stay clean. */
export interface Progress {
  tick(): void;
  stop(): void;
}

export function startProgress(title: string, total: number): Progress {
  if (!process.stderr.isTTY) return { tick() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: `${title.padEnd(34)} [{bar}] {value}/{total}`, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return {
    tick: () => bar.increment(),
    stop: () => bar.stop(),
  };
}
