import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createOfflineProvider } from "../src/ai/offline/index.ts";
import { writeSaveFile } from "../src/cli/save-file.ts";
import { EngineError } from "../src/engine/errors.ts";
import { createSession, restoreSession } from "../src/engine/session.ts";
import { createSandbox } from "../src/sandbox/index.ts";
import { lintWorld } from "../src/world/lint/index.ts";
import { parseWorld } from "../src/world/load.ts";
import { matchPattern } from "../src/world/pattern.ts";
import type { World } from "../src/world/schema/index.ts";
import { terminalSafe } from "../src/world/terminal-text.ts";
import type { BenchContext, BenchModule } from "./bench-module.ts";
import { median, ms } from "./measure.ts";
import { formatTable } from "./table.ts";

/**
 * `npm run bench -- --hostile`: what each attack class of issue 15 that the
 * hardening fixed costs now (items 2, 3, 6, 11, 12, 13, 14). Before the fixes
 * most of these hung, grew without bound or crashed; the figures show that
 * each is now refused or absorbed at a small, bounded cost.
 */
const bench: BenchModule = {
  name: "hostile",
  title: "Hostile inputs: the cost of each attack class, now refused or bounded",
  run,
};
export default bench;

const ESC = "\u001b";

async function run(context: BenchContext): Promise<void> {
  const runs = Math.max(3, Math.min(context.runs, 11));
  const rows: string[][] = [];
  const time = async (fn: () => unknown | Promise<unknown>): Promise<number> => {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await fn();
      samples.push(performance.now() - start);
    }
    return median(samples);
  };
  const world = JSON.parse(readFileSync(join(context.root, "examples/harbor.world.json"), "utf8")) as World &
    Record<string, unknown>;

  // Item 3: catastrophic backtracking. A backtracking engine never finishes these; RE2 is linear.
  const victim = `${"a".repeat(40)}!`;
  rows.push([
    "regex ^(a+)+$ vs 40 a's and '!' (was: hangs forever)",
    ms(await time(() => matchPattern("^(a+)+$", victim))),
    "linear-time RE2",
  ]);
  const long = `${"a".repeat(100_000)}!`;
  rows.push([
    "regex ^(a+)+$ vs 100,000 a's and '!'",
    ms(await time(() => matchPattern("^(a+)+$", long))),
    "linear-time RE2",
  ]);

  // Item 2: a script throwing a 12 MB message every turn (was: +24 MB of save per turn, out of memory).
  const logWorld = structuredClone(world);
  logWorld.triggers = {
    ...logWorld.triggers,
    log_bomb: {
      name: "log_bomb",
      recurring: true,
      conditions: [],
      effects: [],
      script: "throw new Error('E'.repeat(12 * 1024 * 1024));",
    },
  };
  const sandbox = createSandbox();
  try {
    const session = await createSession(logWorld, {
      ai: createOfflineProvider(logWorld),
      scripts: sandbox,
      seed: 1,
    });
    const turns: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      await session.turn({ actions: [{ player: session.state.party[0]!.name, text: "wait" }] });
      turns.push(performance.now() - start);
    }
    const kb = (session.save().length / 1024).toFixed(0);
    rows.push([
      "script throwing 12 MB each turn: turn time (was: save +24 MB a turn)",
      ms(median(turns)),
      `save after 5 turns: ${kb} KB`,
    ]);

    // Item 12: a save checked against its world on load.
    const saved = session.save();
    rows.push([
      "restoreSession with the save checked against the world",
      ms(
        await time(() =>
          restoreSession(logWorld, saved, { ai: createOfflineProvider(logWorld), scripts: sandbox }),
        ),
      ),
      "",
    ]);
    const forged = JSON.parse(saved);
    forged.state.position = { ...forged.state.position, realm: "Void", region: "Nowhere", location: "Nope" };
    const refused = await time(async () => {
      try {
        await restoreSession(logWorld, forged, { ai: createOfflineProvider(logWorld), scripts: sandbox });
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
      }
    });
    rows.push(["a forged save (unknown place) refused, save/inconsistent", ms(refused), ""]);

    // Item 14: a 10 MB action (was: a 31 MB save after three).
    const huge = "x".repeat(10_000_000);
    const refusedInput = await time(async () => {
      try {
        await session.turn({ actions: [{ player: session.state.party[0]!.name, text: huge }] });
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
      }
    });
    rows.push(["a 10 MB action refused, turn/too-long (was: saved whole)", ms(refusedInput), ""]);
  } finally {
    await sandbox.close();
  }

  // Item 11: terminal escapes in 1 MB of text.
  const hostile = `${ESC}]0;pwned${ESC}\\ ${ESC}[2J ${ESC}]52;c;eA==\u0007 \u009b2J \u202e `.repeat(20_000);
  rows.push([
    `terminalSafe on ${(hostile.length / 1e6).toFixed(1)} M characters of escape sequences`,
    ms(await time(() => terminalSafe(hostile))),
    "",
  ]);
  const plain = "The fog lifts over the harbour. ".repeat(32_000);
  rows.push(["terminalSafe on 1 M characters of plain text", ms(await time(() => terminalSafe(plain))), ""]);

  // Item 6: an atomic, fsynced save of 1 MB.
  const text = JSON.stringify({ padding: "x".repeat(1_000_000) });
  const target = join(context.workDir, "hostile.save.json");
  rows.push([
    "atomic save of 1 MB (temp file, fsync file and folder, rename)",
    ms(await time(() => writeSaveFile(target, text))),
    "",
  ]);

  // Item 13: lint on a world far over the trigger limits (was: 100,000 triggers > 120 s, 1.5 GB).
  const count = 20_000;
  const big = structuredClone(world) as Record<string, unknown> & { triggers: Record<string, unknown> };
  for (let i = 0; i < count; i++)
    big.triggers[`t${i}`] = {
      name: `t${i}`,
      conditions: [{ type: "read-number", key: `k${i}`, operator: "greaterThan", value: 0 }],
      effects: [{ type: "write-number", key: `k${i === 0 ? count : i - 1}`, operator: "set", value: 1 }],
    };
  const bigText = JSON.stringify(big);
  const lintRuns: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    lintWorld(parseWorld(bigText, "big.world.json"));
    lintRuns.push(performance.now() - start);
  }
  rows.push([
    `lint on ${count.toLocaleString("en")} chained triggers (stops after limit/trigger-count)`,
    ms(median(lintRuns)),
    "was quadratic",
  ]);

  context.print(formatTable(["Attack (issue 15)", "Median", "Note"], rows));
  context.print();
  context.print(
    `Medians of ${runs} runs (lint: 3). A backtracking regex engine, the unbounded log, the unbounded input and the quadratic lint are not run for comparison: they hang or exhaust memory.`,
  );
  context.print();
}
