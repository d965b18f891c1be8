import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type CassetteData,
  type CassetteEntry,
} from "../src/ai/cassette.ts";
import { createOfflineProvider } from "../src/ai/offline/index.ts";
import { recordProvider } from "../src/ai/recorded.ts";
import { runEval, starterCases } from "../src/author/eval/index.ts";
import { exportPlaytest, recordFromCassette, runPlaytests } from "../src/author/playtest/index.ts";
import { worldHash } from "../src/engine/index.ts";
import { Game, type GameSetup } from "../src/host/game.ts";
import { createSandbox } from "../src/sandbox/index.ts";
import { readCheckedWorld } from "../src/world/checked-file.ts";
import { runnableWorld } from "../src/world/validate.ts";
import type { BenchContext, BenchModule } from "./bench-module.ts";
import { median } from "./measure.ts";
import { formatTable } from "./table.ts";

/**
 * `npm run bench -- author` (issue 36): a 500-turn game of the example world
 * (played offline, recorded as a cassette) exported as a play-test, and that
 * play-test run; targets: each under 2 s. Then `taleforge eval`'s cost per
 * case on the example world's starter set with the offline judge.
 */
const TURNS = 500;
const TARGET_MS = 2_000;
const COMMANDS = [
  "walk to the Gutted Eel",
  "talk to Mara Venn",
  "travel to the Old Lighthouse",
  "climb the stairwell",
  "go up to the Lamp Room",
  "read the keeper's logbook",
  "travel to the Counting House",
  "confront Corvin Slade about the keeper's debt",
  "travel to the Old Lighthouse",
  "climb the stairwell",
  "go up to the Lamp Room",
  "light the lighthouse lamp",
  "wait for dawn",
  "travel to Brinewick Docks",
  "look around",
  "travel to the Barrow",
  "rest",
];

const bench: BenchModule = {
  name: "author",
  title: `The author's loop: export a ${TURNS}-turn game as a play-test, run it; eval's cost per case`,
  run,
};
export default bench;

async function run(context: BenchContext): Promise<void> {
  const path = join(context.root, "examples", "harbor.world.json");
  const read = await readCheckedWorld(path);
  const world = read.ok ? runnableWorld(read.loaded, read.checked) : undefined;
  if (!world) throw new Error("the example world does not load");
  const scripts = createSandbox();
  try {
    const setup: GameSetup = {
      seed: 7,
      gameMode: null,
      storyStart: "Dawn at the Docks",
      players: [{ premade: "Isobel Carrow" }],
    };
    const entries: CassetteEntry[] = [];
    const provider = recordProvider(createOfflineProvider(world), { write: (e) => entries.push(e) });
    const game = await Game.start(world, { ai: provider, scripts }, setup, provider);
    const playing = context.progress(`playing ${TURNS} turns to export`, TURNS);
    for (let i = 0; i < TURNS; i++) {
      await game.apply({
        type: "turn",
        actions: [{ player: "Isobel Carrow", text: COMMANDS[i % COMMANDS.length]! }],
      });
      playing.tick();
    }
    playing.stop();
    const cassette: CassetteData = {
      header: {
        format: CASSETTE_FORMAT,
        version: CASSETTE_VERSION,
        provider: provider.name,
        model: provider.model,
        embeddings: false,
        setup: {
          worldHash: worldHash(world),
          ...(JSON.parse(JSON.stringify(setup)) as Record<string, never>),
        },
      },
      entries,
    };
    const dir = join(context.workDir, "author");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "long.test.yaml");
    const runs = Math.max(1, Math.min(3, context.runs));
    const exports: number[] = [];
    const tests: number[] = [];
    let passed = true;
    let bytes = 0;
    for (let r = 0; r < runs; r++) {
      let started = performance.now();
      const record = await recordFromCassette(world, cassette, scripts, "long.cassette.jsonl");
      const text = exportPlaytest(record, { world: path }).text;
      exports.push(performance.now() - started);
      writeFileSync(file, text);
      bytes = text.length;
      started = performance.now();
      const result = await runPlaytests([file], { scripts, cwd: dir });
      tests.push(performance.now() - started);
      passed &&= result.files[0]?.tests[0]?.passed === true;
    }
    const ms = (n: number) => `${Math.round(n)} ms`;
    context.print(
      formatTable(
        ["step", "median", "target", "note"],
        [
          [
            `export ${TURNS} turns (replay + YAML)`,
            ms(median(exports)),
            ms(TARGET_MS),
            `${Math.round(bytes / 1024)} KiB of YAML`,
          ],
          [`run its play-test`, ms(median(tests)), ms(TARGET_MS), passed ? "passed" : "FAILED"],
        ],
      ),
    );
    context.print();

    const cases = starterCases(world).map((c) => ({ ...c }));
    const judge = createOfflineProvider(world);
    const started = performance.now();
    const report = await runEval(world, cases, judge, { samples: 3 });
    const elapsed = performance.now() - started;
    const s = report.summary;
    context.print(
      formatTable(
        ["eval (offline judge, 3 samples)", "cases", "calls per case", "tokens per case", "ms per case"],
        [
          [
            "example world, starter set",
            String(s.cases),
            (s.calls / s.cases).toFixed(2),
            ((s.promptTokens + s.completionTokens) / s.cases).toFixed(1),
            (elapsed / s.cases).toFixed(2),
          ],
        ],
      ),
    );
    context.print(
      "  Against a model, each call costs a judge prompt (docs/eval.md): multiply calls per case by the model's latency.",
    );
  } finally {
    await scripts.close();
  }
}
