import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { BenchContext } from "./bench-module.ts";
import { median } from "./measure.ts";
import { formatTable } from "./table.ts";

/** Issue 11: "from a clean clone, `npx taleforge serve` starts in under 2 seconds". */
const TARGET_START_MS = 2000;
/** TALEFORGE_BENCH_SERVE_START_RUNS=0 leaves the start-up figures out. */
const START_RUNS = Number(process.env.TALEFORGE_BENCH_SERVE_START_RUNS ?? "5");

interface Start {
  /** From the spawn to the "listening" log line. */
  readyMs: number;
  /** From the spawn to a created game's answer (201): a real request served. */
  answerMs: number;
  /** CPU time (user + system) of every process of the command's process group until that answer; undefined without /proc. */
  cpuMs: number | undefined;
}

/** CPU time so far of the processes of one group (the command, npm's and its children): Linux's /proc. */
function groupCpuMs(group: number): number | undefined {
  if (!existsSync("/proc/self/stat")) return undefined;
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== group) continue;
      // utime, stime, and those of the children it waited for (npm's prepare check, the shell).
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // Gone meanwhile.
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

/** Starts `command args serve --port 0 --data <data>`, creates a game on the example world, stops it. */
async function startOnce(
  command: string,
  args: readonly string[],
  cwd: string,
  data: string,
  worldHash: string,
): Promise<Start> {
  const from = performance.now();
  const child = spawn(command, [...args, "serve", "--port", "0", "--data", data, "--log-format", "json"], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    // A group of its own: npx runs the server as a grandchild, stopped with the group.
    detached: true,
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    return await new Promise<Start>((resolve, reject) => {
      child.once("exit", (code) =>
        reject(new Error(`${command} serve exited (${code}) before answering: ${stderr}`)),
      );
      let ready: number | undefined;
      createInterface({ input: child.stdout! }).on("line", (line) => {
        if (ready !== undefined || !line.includes("taleforge serve is listening")) return;
        ready = performance.now() - from;
        const readyMs = ready;
        const { url } = JSON.parse(line) as { url: string };
        void fetch(`${url}/games`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ world: worldHash, storyStart: "Dawn at the Docks", seed: 7 }),
        }).then(async (response) => {
          await response.text();
          const answerMs = performance.now() - from;
          if (response.status !== 201) reject(new Error(`POST /games answered ${response.status}`));
          else resolve({ readyMs, answerMs, cpuMs: groupCpuMs(child.pid!) });
        }, reject);
      });
    });
  } finally {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // Already gone.
    }
    await exited;
  }
}

/**
 * How long `taleforge serve` takes to serve its first request: from the spawn to the listening line,
 * and to the answer of a game's creation, with a new data folder and with one a server already used;
 * run from dist/ on plain Node and through `npx taleforge` in this clone (npm's own start, then the same
 * command). Runs alternate between the ways, so that a change of the machine's load falls on all.
 */
export async function measureStart(context: BenchContext): Promise<void> {
  if (START_RUNS <= 0) return;
  const bin = join(context.root, "dist", "taleforge.js");
  if (!existsSync(bin)) {
    context.print("Start-up figures skipped: dist/ is not built (npm run build).");
    return;
  }
  const world = readFileSync(join(context.root, "examples", "harbor.world.json"), "utf8");
  const worldHash = createHash("sha256").update(world, "utf8").digest("hex");
  const npx = process.platform === "win32" ? "npx.cmd" : "npx";
  const ways = [
    { label: "node dist/taleforge.js serve", command: process.execPath, args: [bin] },
    { label: "npx taleforge serve", command: npx, args: ["taleforge"] },
  ];
  const used = {
    node: mkdtempSync(join(context.workDir, "start-")),
    npx: mkdtempSync(join(context.workDir, "start-")),
  };
  // One start each first: the folders of the "used" rows, and npx's first run in a clone (npm links the
  // clone into its npx cache and runs `prepare`, which finds dist/ up to date).
  await startOnce(ways[0]!.command, ways[0]!.args, context.root, used.node, worldHash);
  await startOnce(ways[1]!.command, ways[1]!.args, context.root, used.npx, worldHash);
  const results = new Map<string, Start[]>();
  const loads: number[] = [loadavg()[0]!];
  const progress = context.progress("serve start-up", START_RUNS * 4);
  for (let run = 0; run < START_RUNS; run++)
    for (const folder of ["new", "used"] as const)
      for (const way of ways) {
        const data =
          folder === "new"
            ? mkdtempSync(join(context.workDir, "start-"))
            : way.args.length === 1
              ? used.node
              : used.npx;
        const start = await startOnce(way.command, way.args, context.root, data, worldHash);
        const key = `${way.label}|${folder}`;
        results.set(key, [...(results.get(key) ?? []), start]);
        progress.tick();
      }
  progress.stop();
  loads.push(loadavg()[0]!);
  const range = (values: number[]) =>
    `${Math.round(median(values))} (${Math.round(Math.min(...values))}-${Math.round(Math.max(...values))})`;
  const rows = [...results].map(([key, starts]) => {
    const [label, folder] = key.split("|") as [string, string];
    const answers = starts.map((s) => s.answerMs);
    const cpu = starts.map((s) => s.cpuMs).filter((c): c is number => c !== undefined);
    return [
      label,
      folder === "new" ? "new, empty" : "used before",
      range(starts.map((s) => s.readyMs)),
      range(answers),
      cpu.length > 0 ? range(cpu) : "-",
      `< ${TARGET_START_MS}`,
      median(answers) < TARGET_START_MS ? "yes" : "no",
    ];
  });
  context.print(
    formatTable(
      ["Start", "data folder", "listening ms", "first answer ms", "CPU ms (all processes)", "target", "met"],
      rows,
    ),
  );
  context.print(
    `Start-up of taleforge serve (SQLite), ${START_RUNS} runs each, alternated: median (min-max). Listening: from the spawn to the "listening" log line; first answer: to the answer (201) of POST /games on the example world sent at that line. CPU: user + system of the command's processes until that answer (npx: npm's own start included). Load average ${loads.map((l) => l.toFixed(1)).join(" -> ")} over the runs (${process.env.TALEFORGE_BENCH_SERVE_START_RUNS ? "" : "TALEFORGE_BENCH_SERVE_START_RUNS=n for more runs; "}wall times grow with the load, CPU much less).`,
  );
  context.print();
}
