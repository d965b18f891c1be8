import cliProgress from "cli-progress";
import type { CliIo } from "./io.ts";

/** A progress bar of long work: ticks with how much is done. */
export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

const NONE: Progress = { update() {}, stop() {} };

/**
 * A bar on stderr (io.progressStream) for work long enough to wonder about
 * (issue 15 item 13), and only when stderr is a terminal: piped or redirected
 * output, JSON and SARIF reports stay byte for byte what they were. The bar
 * is cleared when the work ends, so the report follows on a clean line.
 */
export function startProgress(io: Pick<CliIo, "progressStream">, title: string, total: number): Progress {
  const stream = io.progressStream;
  if (stream?.isTTY !== true || total <= 0) return NONE;
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${title} [{bar}] {percentage}% ({value}/{total} rules)`,
      clearOnComplete: true,
      hideCursor: false,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return {
    update: (done, all) => {
      bar.setTotal(all);
      bar.update(done);
    },
    stop: () => bar.stop(),
  };
}
