import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import ai from "./ai.bench.ts";
import author from "./author.bench.ts";
import type { BenchContext, BenchModule } from "./bench-module.ts";
import modelContext from "./context.bench.ts";
import engine from "./engine.bench.ts";
import history from "./history.bench.ts";
import historyServer from "./history-server.bench.ts";
import hostile from "./hostile.bench.ts";
import lsp from "./lsp.bench.ts";
import play from "./play.bench.ts";
import { startProgress } from "./progress.ts";
import sandbox from "./sandbox.bench.ts";
import serve from "./serve.bench.ts";
import validate from "./validate.bench.ts";

/**
 * `npm run bench [-- <section>...] [--runs N] [--scales 4,16] [--keep]`:
 * runs each benchmark section and prints its figures. Figures only, never a
 * pass/fail: targets are printed next to them. Later sections (engine,
 * sandbox) are added to SECTIONS.
 */
const SECTIONS: BenchModule[] = [
  validate,
  engine,
  sandbox,
  play,
  history,
  historyServer,
  hostile,
  ai,
  modelContext,
  serve,
  lsp,
  author,
];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: "string", default: "21" },
    scales: { type: "string", default: "4,16" },
    keep: { type: "boolean", default: false },
    // `--hostile` runs the hostile-inputs section alone (same as the positional `hostile`).
    hostile: { type: "boolean", default: false },
  },
});
if (values.hostile) positionals.push("hostile");

const runs = Number(values.runs);
const scales = values.scales
  .split(",")
  .filter((s) => s.trim() !== "")
  .map(Number);
if (!Number.isInteger(runs) || runs < 1 || scales.some((s) => !(s > 0))) {
  console.error("bench: --runs takes a whole number (1 or more) and --scales a list such as 4,16.");
  process.exit(2);
}
const unknown = positionals.filter((p) => !SECTIONS.some((s) => s.name === p));
if (unknown.length > 0) {
  console.error(
    `bench: no section ${unknown.join(", ")}. Sections: ${SECTIONS.map((s) => s.name).join(", ")}.`,
  );
  process.exit(2);
}

const workDir = mkdtempSync(join(tmpdir(), "taleforge-bench-"));
const context: BenchContext = {
  workDir,
  runs,
  scales,
  root: fileURLToPath(new URL("../", import.meta.url)),
  print: (text = "") => console.log(text),
  progress: startProgress,
};

const cpu = cpus();
console.log(
  `Taleforge benchmarks: Node ${process.version}, ${cpu.length} cores (${cpu[0]?.model.trim() ?? "unknown CPU"}), ${(totalmem() / 2 ** 30).toFixed(1)} GB, ${process.platform}`,
);
// Figures from a busy machine mislead: say how busy it was, before and after.
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(", ");
console.log(`Load average at start: ${load()} (1, 5, 15 min)`);
console.log();
try {
  for (const section of SECTIONS) {
    if (positionals.length > 0 && !positionals.includes(section.name)) continue;
    console.log(`== ${section.name}: ${section.title}`);
    console.log();
    await section.run(context);
  }
} finally {
  console.log(`Load average at end: ${load()}`);
  if (values.keep) console.log(`Generated files kept in ${workDir}`);
  else rmSync(workDir, { recursive: true, force: true });
}
