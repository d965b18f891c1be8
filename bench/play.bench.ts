import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import type { CassetteEntry } from "../src/ai/cassette.ts";
import { loreQuery, selectLore } from "../src/ai/lore.ts";
import { createOfflineProvider } from "../src/ai/offline/index.ts";
import { intentPrompt, judgePrompt, narrationPrompt, promptChars } from "../src/ai/prompts/index.ts";
import { type Provider, tokensForChars } from "../src/ai/provider.ts";
import { recordProvider } from "../src/ai/recorded.ts";
import type { IntentRequest, JudgeRequest, NarrationRequest } from "../src/engine/ports.ts";
import { createSession } from "../src/engine/session.ts";
import { createSandbox } from "../src/sandbox/index.ts";
import type { World } from "../src/world/schema/index.ts";
import type { BenchContext, BenchModule } from "./bench-module.ts";
import { generateWorld } from "./generate-world.ts";
import { collectGarbage, median, p99 } from "./measure.ts";
import { formatTable } from "./table.ts";

/** Targets from the project plan and issue 13, printed next to the figures (never asserted). */
const TARGET_OVERHEAD_MS = 20;
const TARGET_P99_MS = 15;
const TURNS = 120;

const bench: BenchModule = {
  name: "play",
  title: "Playing with the offline provider and the real sandbox: turn overhead, prompt sizes",
  run,
};
export default bench;

const EXAMPLE_ACTIONS = JSON.parse(
  readFileSync(new URL("../examples/harbor.walkthrough.json", import.meta.url), "utf8"),
).steps.map((s: { command: string }) => s.command) as string[];

const AT_CAP_ACTIONS = [
  "I ask about the old legends of the region.",
  "I try to pry the door open.",
  "I offer to help with repairs.",
  "I look around quietly.",
];

/**
 * A provider that times itself: the time spent inside AI calls is "model
 * time" (here the offline provider's own work), subtracted from the turn to
 * give the engine's overhead, scripts included.
 */
function timed(inner: Provider): Provider & { spent: () => number } {
  let spent = 0;
  const wrap =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const start = performance.now();
      try {
        return await call(...args);
      } finally {
        spent += performance.now() - start;
      }
    };
  return {
    ...inner,
    classify: wrap(inner.classify.bind(inner)),
    narrate: wrap(inner.narrate.bind(inner)),
    judge: wrap(inner.judge.bind(inner)),
    ...(inner.embed ? { embed: wrap(inner.embed.bind(inner)) } : {}),
    spent: () => spent,
  };
}

interface Played {
  overhead: number[];
  model: number[];
  entries: CassetteEntry[];
  /** What happened in each turn, to tell what makes the slow ones. */
  turns: TurnRecord[];
}

/** One turn: its overhead and what happened in it. */
interface TurnRecord {
  tick: number;
  overhead: number;
  model: number;
  travel: boolean;
  /** Scripts run (both phases) and phases that ran any. */
  scripts: number;
  phases: number;
  /** Requests sent to the sandbox process (one IPC round trip each) and contexts it opened. */
  requests: number;
  opened: number;
  /** Wall ms waiting for the sandbox's answers to script runs, and the part spent in the sandbox process. */
  wait: number;
  inChild: number;
  /** CPU of this process during the turn (user + system), ms. */
  cpu: number;
  /** Garbage collection in this process during the turn: pauses and their total ms. */
  gcCount: number;
  gcMs: number;
}

async function playWorld(
  context: BenchContext,
  label: string,
  world: World,
  actions: (tick: number) => string,
  travel: (tick: number) => string | undefined,
): Promise<Played> {
  const entries: CassetteEntry[] = [];
  const ai = timed(recordProvider(createOfflineProvider(world), { write: (e) => entries.push(e) }));
  const sandbox = createSandbox();
  const overhead: number[] = [];
  const model: number[] = [];
  const turns: TurnRecord[] = [];
  const windows: { start: number; end: number }[] = [];
  const pauses: { start: number; duration: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push({ start: entry.startTime, duration: entry.duration });
  });
  observer.observe({ entryTypes: ["gc"] });
  try {
    const session = await createSession(world, { ai, scripts: sandbox, seed: 1 });
    const progress = context.progress(label, TURNS);
    for (let tick = 1; tick <= TURNS; tick++) {
      collectGarbage?.();
      const before = ai.spent();
      const destination = travel(tick);
      const requests = sandbox.stats.requests;
      const opened = sandbox.stats.contextsOpened;
      const wait = sandbox.stats.runWaitMs;
      const inChild = sandbox.stats.runChildMs;
      const cpu = process.cpuUsage();
      const start = performance.now();
      const result = await session.turn({
        actions: [{ player: "Player", text: actions(tick) }],
        ...(destination ? { pins: { intent: { intent: "travel", target: destination } } } : {}),
      });
      const end = performance.now();
      const used = process.cpuUsage(cpu);
      const inModel = ai.spent() - before;
      overhead.push(end - start - inModel);
      model.push(inModel);
      windows.push({ start, end });
      turns.push({
        tick,
        overhead: end - start - inModel,
        model: inModel,
        travel: destination !== undefined,
        ...scriptsOf(result.trace.phases),
        requests: sandbox.stats.requests - requests,
        opened: sandbox.stats.contextsOpened - opened,
        wait: sandbox.stats.runWaitMs - wait,
        inChild: sandbox.stats.runChildMs - inChild,
        cpu: (used.user + used.system) / 1000,
        gcCount: 0,
        gcMs: 0,
      });
      progress.tick();
    }
    progress.stop();
  } finally {
    await sandbox.close();
    // Entries arrive after the pauses: wait for the last ones before reading them.
    await new Promise((resolve) => setImmediate(resolve));
    observer.disconnect();
  }
  for (const pause of pauses) {
    const at = windows.findIndex((w) => pause.start >= w.start && pause.start < w.end);
    if (at < 0) continue;
    turns[at]!.gcCount++;
    turns[at]!.gcMs += pause.duration;
  }
  return { overhead, model, entries, turns };
}

/**
 * Scripts run and phases that ran any, counted in loops: closures made per turn here would be
 * optimised again every few turns, on the compiler thread the measured turns share.
 */
function scriptsOf(
  phases: readonly { triggers: readonly { script?: { status: string } }[]; scripts: { begun: boolean } }[],
): {
  scripts: number;
  phases: number;
} {
  let scripts = 0;
  let begun = 0;
  for (const phase of phases) {
    if (phase.scripts.begun) begun++;
    for (const trigger of phase.triggers) if (trigger.script?.status === "ran") scripts++;
  }
  return { scripts, phases: begun };
}

/** The slowest turns of a game, with what happened in each: what makes the p99 (the second slowest of 120). */
function slowestTurns(label: string, turns: readonly TurnRecord[], count: number): string {
  const rows = [...turns]
    .sort((a, b) => b.overhead - a.overhead)
    .slice(0, count)
    .map((t) => [
      `${label} ${t.tick}${t.travel ? " (travel)" : ""}`,
      t.overhead.toFixed(2),
      t.model.toFixed(2),
      t.cpu.toFixed(1),
      `${t.gcCount} / ${t.gcMs.toFixed(2)}`,
      `${t.scripts} / ${t.phases}`,
      `${t.wait.toFixed(2)} / ${t.inChild.toFixed(2)}`,
      String(t.requests),
      String(t.opened),
    ]);
  const median = (pick: (t: TurnRecord) => number) => {
    const sorted = turns.map(pick).sort((a, b) => a - b);
    return sorted[sorted.length >> 1] ?? Number.NaN;
  };
  rows.push([
    `${label}, median turn`,
    median((t) => t.overhead).toFixed(2),
    median((t) => t.model).toFixed(2),
    median((t) => t.cpu).toFixed(1),
    `${median((t) => t.gcCount)} / ${median((t) => t.gcMs).toFixed(2)}`,
    `${median((t) => t.scripts)} / ${median((t) => t.phases)}`,
    `${median((t) => t.wait).toFixed(2)} / ${median((t) => t.inChild).toFixed(2)}`,
    String(median((t) => t.requests)),
    String(median((t) => t.opened)),
  ]);
  return formatTable(
    [
      "Turn",
      "Overhead ms",
      "Provider ms",
      "CPU ms",
      "GC pauses / ms",
      "Scripts / phases",
      "Script wait / in sandbox ms",
      "Sandbox requests",
      "Contexts opened",
    ],
    rows,
  );
}

/** Prompt sizes the OpenAI-compatible provider would send for the calls of a played game. */
async function promptSizes(world: World, entries: CassetteEntry[]): Promise<Map<string, number[]>> {
  const sizes = new Map<string, number[]>();
  const add = (kind: string, chars: number) => sizes.set(kind, [...(sizes.get(kind) ?? []), chars]);
  const gameMode = Object.keys(world.gameModes ?? {})[0] ?? null;
  for (const entry of entries) {
    if (!("call" in entry)) continue;
    if (entry.call === "classify")
      add("intent", promptChars(intentPrompt(world, entry.request as IntentRequest)));
    if (entry.call === "judge") add("judge", promptChars(judgePrompt(world, entry.request as JudgeRequest)));
    if (entry.call === "narrate") {
      const request = entry.request as NarrationRequest;
      const lore = await selectLore(world, loreQuery(request));
      add(
        request.opening ? "opening" : "narration",
        promptChars(narrationPrompt(world, request, { gameMode, lore })),
      );
    }
  }
  return sizes;
}

async function run(context: BenchContext): Promise<void> {
  const example = JSON.parse(readFileSync(join(context.root, "examples/harbor.world.json"), "utf8")) as World;
  const atCap = generateWorld(1) as unknown as World;
  const locations = Object.keys(atCap.locations);
  context.print(
    `Each world is played for ${TURNS} turns with the offline provider answering and the real sandbox running every script (the example world's 3, the at-cap world's 26 generated ones). Overhead = turn time minus the time inside AI calls. The example world replays its walkthrough in a loop; the at-cap world travels every seventh turn.`,
  );
  context.print();
  const played = {
    example: await playWorld(
      context,
      "example",
      example,
      (t) => EXAMPLE_ACTIONS[(t - 1) % EXAMPLE_ACTIONS.length]!,
      () => undefined,
    ),
    atCap: await playWorld(
      context,
      "at-cap",
      atCap,
      (t) => AT_CAP_ACTIONS[t % AT_CAP_ACTIONS.length]!,
      (t) => (t % 7 === 0 ? locations[t % locations.length] : undefined),
    ),
  };
  const rows = Object.entries({ "Example world": played.example, "At-cap world": played.atCap }).flatMap(
    ([label, p]) => [
      [
        `${label}: engine overhead per turn, median`,
        `${median(p.overhead).toFixed(2)} ms`,
        `${TARGET_OVERHEAD_MS} ms`,
      ],
      [`${label}: engine overhead per turn, p99`, `${p99(p.overhead).toFixed(2)} ms`, `${TARGET_P99_MS} ms`],
      [`${label}: offline provider per turn, median`, `${median(p.model).toFixed(2)} ms`, ""],
    ],
  );
  context.print(formatTable(["Figure", "Measured", "Target"], rows));
  context.print();
  context.print(
    "The slowest turns, with what happened in them (CPU and GC of this process during the turn; the sandbox's requests are IPC round trips, its contexts opened each cost a new context or isolate):",
  );
  context.print();
  context.print(slowestTurns("Example", played.example.turns, 4));
  context.print();
  context.print(slowestTurns("At-cap", played.atCap.turns, 6));
  context.print();

  const sizeRows: string[][] = [];
  for (const [label, world, p] of [
    ["Example", example, played.example],
    ["At-cap", atCap, played.atCap],
  ] as const) {
    const sizes = await promptSizes(world, p.entries);
    for (const kind of ["opening", "intent", "narration", "judge"]) {
      const list = sizes.get(kind) ?? [];
      if (list.length === 0) {
        sizeRows.push([`${label}: ${kind}`, "0", "-", "-", "-"]);
        continue;
      }
      const largest = Math.max(...list);
      sizeRows.push([
        `${label}: ${kind}`,
        String(list.length),
        `${Math.round(median(list))}`,
        `${largest}`,
        `~${tokensForChars(Math.round(median(list)))} / ~${tokensForChars(largest)}`,
      ]);
    }
  }
  context.print(
    "Prompt sizes the OpenAI-compatible provider would send for those games (characters; tokens ~ chars/4):",
  );
  context.print();
  context.print(
    formatTable(["Prompt", "Calls", "Median chars", "Max chars", "Tokens median / max"], sizeRows),
  );
  context.print();
}
