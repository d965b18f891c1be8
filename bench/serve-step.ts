/**
 * A server step without the server (issue 38): what the runner's step does on the main thread between
 * the store's read and its commit, for the serve benchmark's game (examples/harbor.world.json, seed 1,
 * one player, "walk to the Gutted Eel" every turn). Per step: restore the session from the last save
 * (trusted, as the runner does), one turn through the recording provider with the offline narrator and
 * the sandbox's script process, the views and events of the turn, the row's JSON (save, cassette,
 * trace, result). GAMES games are played interleaved, WARMUP rounds unmeasured, then ROUNDS measured.
 *
 *   npx tsx bench/serve-step.ts [--games 20] [--warmup 6] [--rounds 10] [--split] [--out file]
 *
 * Prints the CPU per step (process.cpuUsage: this process, all its threads; the script process apart,
 * from /proc) and, with --split, the CPU of each part of the step. --out writes every step's row
 * (save, cassette, trace, result, events) as JSON lines: two builds' rows must be byte-identical.
 * Not a `npm run bench` section: a probe for the step's own cost, run under callgrind or --cpu-prof.
 */
import { readFileSync, writeFileSync } from "node:fs";

import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { CassetteEntry } from "../src/ai/cassette.ts";
import { createOfflineProvider } from "../src/ai/offline/index.ts";
import { recordProvider } from "../src/ai/recorded.ts";
import type { TurnResult } from "../src/engine/index.ts";
import { Game as HostGame } from "../src/host/game.ts";
import { cleanWorld } from "../src/host/outside-text.ts";
import { createSandbox } from "../src/sandbox/index.ts";
import { gameEvents } from "../src/server/events.ts";
import { rowSave } from "../src/server/runner.ts";
import { narrativeNotes, playerResult, playerState, questStatuses } from "../src/server/views.ts";
import { storedWorld } from "../src/server/worlds.ts";

const { values } = parseArgs({
  options: {
    games: { type: "string", default: "20" },
    warmup: { type: "string", default: "6" },
    rounds: { type: "string", default: "10" },
    split: { type: "boolean", default: false },
    out: { type: "string" },
    // A CPU profile of the measured rounds only (node:inspector), written to this file.
    profile: { type: "string" },
  },
});
const GAMES = Number(values.games);
const WARMUP = Number(values.warmup);
const ROUNDS = Number(values.rounds);
const ACTION = "walk to the Gutted Eel";

// The repository: run from its root (the bundled copy of this file lives elsewhere).
const root = process.cwd();
// As the server's world cache holds it (src/server/worlds.ts).
const world = cleanWorld(
  storedWorld(readFileSync(join(root, "examples/harbor.world.json"), "utf8"), "harbor"),
);
const scripts = createSandbox();

/** CPU (µs) by part, summed over the measured steps. */
const parts = new Map<string, number>();
let measuring = false;
let last = 0;
/** The main thread's own CPU time (µs, nanosecond precision: schedstat), without V8's helper threads. */
const mainCpu = () => {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1000;
  } catch {
    return 0;
  }
};
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const lap = (part: string) => {
  if (!values.split || !measuring) return;
  const now = cpu();
  parts.set(part, (parts.get(part) ?? 0) + now - last);
  last = now;
};

const rows: string[] = [];

/** One step of the runner (`claimed` with `claimTurn`'s run), from a save (or fresh: the opening). */
async function step(save: string | undefined, seq: number): Promise<string> {
  if (measuring && values.split) last = cpu();
  const entries: string[] = [];
  const narrator = createOfflineProvider(world, { gameMode: null });
  const provider = recordProvider(narrator, {
    write: (entry: CassetteEntry) => entries.push(JSON.stringify(entry)),
    writeJson: (text) => entries.push(text),
  });
  const setup =
    save !== undefined
      ? { seed: 1, gameMode: null, load: save, trustedLoad: true }
      : { seed: 1, gameMode: null, players: [{ name: "Ann" }] };
  const host = await HostGame.start(world, { ai: provider, scripts }, setup, provider, {});
  lap("restore");
  let result: TurnResult;
  let inputs: unknown;
  if (save === undefined) {
    result = host.session.opening!;
    inputs = { players: [{ name: "Ann" }] };
  } else {
    const actions = [{ player: "Ann", text: ACTION }];
    const outcome = await host.apply({ type: "turn", actions }, { onChunk: () => {} });
    result = (outcome as { result: TurnResult }).result;
    inputs = { actions };
  }
  lap("turn");
  const seen = playerResult(result, host.session.read(questStatuses));
  const events = [
    gameEvents.turn({
      seq,
      ...seen,
      actions: [],
      state: host.session.read((state) => playerState(state, world)),
      notes: narrativeNotes(result.diff, world, result.tick),
    }),
  ];
  lap("views");
  const state = rowSave(host);
  lap("save");
  const row = {
    tick: host.session.tick,
    inputs: JSON.stringify(inputs),
    cassette: `[${entries.join(",")}]`,
    trace: JSON.stringify(result),
    result: JSON.stringify(seen),
    narration: result.story,
  };
  lap("row");
  if (values.out) rows.push(JSON.stringify({ state, ...row, events }));
  return state;
}

const saves: (string | undefined)[] = [];
for (let g = 0; g < GAMES; g++) saves.push(await step(undefined, 0));
let measured = 0;
const scriptCpu = () => {
  try {
    let total = 0;
    for (const line of readFileSync(`/proc/self/task/${process.pid}/children`, "utf8").trim().split(/\s+/)) {
      if (!line) continue;
      const stat = readFileSync(`/proc/${line}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += ((Number(f[11]) + Number(f[12])) / 100) * 1e6;
    }
    return total;
  } catch {
    return 0;
  }
};
const profiler = values.profile ? new Session() : undefined;
profiler?.connect();
let from = 0;
let fromMain = 0;
let fromScripts = 0;
for (let round = 0; round < WARMUP + ROUNDS; round++) {
  if (round === WARMUP) {
    if (profiler) {
      await profiler.post("Profiler.enable");
      await profiler.post("Profiler.setSamplingInterval", { interval: 100 });
      await profiler.post("Profiler.start");
    }
    measuring = true;
    fromMain = mainCpu();
    from = cpu();
    fromScripts = scriptCpu();
  }
  for (let g = 0; g < GAMES; g++) {
    saves[g] = await step(saves[g], round + 1);
    if (measuring) measured++;
  }
}
const total = cpu() - from;
const main = mainCpu() - fromMain;
const scriptsTotal = scriptCpu() - fromScripts;
if (profiler && values.profile) {
  const { profile } = await profiler.post("Profiler.stop");
  writeFileSync(values.profile, JSON.stringify(profile));
}
await scripts.close();
const ms = (us: number) => (us / 1000 / measured).toFixed(3);
console.log(
  `steps ${measured}: CPU per step ${ms(total)} ms (this process; main thread ${ms(main)}), script process ${ms(scriptsTotal)} ms; load ${(
    await import("node:os")
  )
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
if (values.split) for (const [part, us] of parts) console.log(`  ${part.padEnd(8)} ${ms(us)} ms`);
if (values.out) writeFileSync(values.out, `${rows.join("\n")}\n`);
process.exit(0);
