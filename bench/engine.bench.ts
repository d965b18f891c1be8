import type {
  AiPorts,
  IntentAnswer,
  IntentRequest,
  JudgeRequest,
  JudgeVerdict,
  NarrationAnswer,
  NarrationRequest,
} from "../src/engine/ports.ts";
import { createSession, restoreSession, type Session } from "../src/engine/session.ts";
import type { World } from "../src/world/schema/index.ts";
import type { BenchContext, BenchModule } from "./bench-module.ts";
import { generateWorld } from "./generate-world.ts";
import { collectGarbage, median, p99 } from "./measure.ts";
import { formatTable } from "./table.ts";

/** Targets from the project plan, printed next to the figures (never asserted). */
const TARGET_TURN_MS = 1.5;
const TARGET_SESSION_BYTES = 5 * 2 ** 20;
const TURNS = 200;
const SESSIONS_FOR_MEMORY = 100;

const bench: BenchModule = {
  name: "engine",
  title: "Playing a world: one full turn, save and restore, memory per session (at-cap world)",
  run,
};
export default bench;

const STORY = [
  "A storm rolls in over the harbour and a bell rings somewhere in the smoke.",
  "The party helped a stranger mend a cart without asking for payment.",
  "Singing drifts from a tavern; nobody seems to notice the party at all.",
  "A hidden passage opens behind the shelves with a breath of cold air.",
];

/**
 * An AI that answers at once, from the tick: the figures measure the engine,
 * not a model. The judge passes about a third of its questions, and every
 * seventh turn travels, so conditions on position and AI verdicts vary.
 */
function instantAi(locations: string[]): AiPorts {
  return {
    async classify(request: IntentRequest): Promise<IntentAnswer> {
      if (request.tick % 7 === 0)
        return { intent: "travel", target: locations[request.tick % locations.length]! };
      return { intent: "other" };
    },
    async narrate(request: NarrationRequest): Promise<NarrationAnswer> {
      return {
        text: STORY[request.tick % STORY.length]!,
        eventVerdict: request.tick % 5 === 0 ? "completed" : "neither",
      };
    },
    async judge(request: JudgeRequest): Promise<JudgeVerdict[]> {
      return request.questions.map((q) => ({
        trigger: q.trigger,
        conditionIndex: q.conditionIndex,
        passed: (q.trigger.length + request.tick) % 3 === 0,
      }));
    },
  };
}

const ACTIONS = [
  "I ask about the old legends of the region.",
  "I try to pry the door open.",
  "I offer to help with repairs.",
  "I look around quietly.",
];

async function run(context: BenchContext): Promise<void> {
  const world = generateWorld(1) as unknown as World;
  const ai = instantAi(Object.keys(world.locations));
  const createStart = performance.now();
  const session = await createSession(world, { ai, seed: 1 });
  const createMs = performance.now() - createStart;
  const checkedWorld = session.world;
  const triggers = Object.keys(world.triggers).length;
  context.print(
    `At-cap world: ${triggers} triggers, ${Object.keys(world.locations).length} locations, ${Object.keys(world.npcs).length} NPCs, ${(JSON.stringify(world).length / 1e6).toFixed(2)} MB of JSON. No script runner (the few scripted triggers are skipped with a logged notice; the sandbox has its own section).`,
  );
  context.print(
    `createSession with the world check (load steps, shape, every rule): ${createMs.toFixed(0)} ms, once per world.`,
  );
  context.print();

  const turnMs = await timeTurns(context, session);

  const saveMs: number[] = [];
  const restoreMs: number[] = [];
  let saved = "";
  for (let i = 0; i < context.runs; i++) {
    collectGarbage?.();
    let start = performance.now();
    saved = session.save();
    saveMs.push(performance.now() - start);
    start = performance.now();
    await restoreSession(checkedWorld, saved, { ai, validate: false });
    restoreMs.push(performance.now() - start);
  }

  const heap = await retainedPerSession(checkedWorld, ai, saved);
  context.print(
    formatTable(
      ["Figure", "Measured", "Target"],
      [
        [`Turn (both phases), median of ${TURNS}`, `${median(turnMs).toFixed(2)} ms`, `${TARGET_TURN_MS} ms`],
        [`Turn, p99 of ${TURNS}`, `${p99(turnMs).toFixed(2)} ms`, ""],
        [`Save (JSON text), median of ${context.runs}`, `${median(saveMs).toFixed(2)} ms`, ""],
        [
          `Restore (save checked, world not re-checked), median of ${context.runs}`,
          `${median(restoreMs).toFixed(2)} ms`,
          "",
        ],
        [`Save size after ${TURNS} turns`, kb(saved.length), ""],
        [
          heap === null
            ? "Memory per session (retained heap): needs --expose-gc"
            : `Memory per session: retained heap of ${SESSIONS_FOR_MEMORY} restored sessions / ${SESSIONS_FOR_MEMORY}`,
          heap === null ? "n/a" : kb(heap),
          `${TARGET_SESSION_BYTES / 2 ** 20} MB`,
        ],
      ],
    ),
  );
  context.print();
  context.print(
    "The world and its derived index are shared by every session on it and not counted per session; the save size is a lower bound of one session's own state.",
  );
  context.print();
}

async function timeTurns(context: BenchContext, session: Session): Promise<number[]> {
  const progress = context.progress("turns", TURNS);
  const times: number[] = [];
  // A few warm-up turns on a separate session would change nothing for the at-cap world: the first turns are the expensive ones (most triggers are still armed), so they are measured.
  for (let i = 0; i < TURNS; i++) {
    const start = performance.now();
    await session.turn({ actions: [{ player: "Player", text: ACTIONS[i % ACTIONS.length]! }] });
    times.push(performance.now() - start);
    progress.tick();
  }
  progress.stop();
  return times;
}

/** Heap retained by `count` sessions restored from one save, per session (null without --expose-gc). */
async function retainedPerSession(world: World, ai: AiPorts, saved: string): Promise<number | null> {
  if (!collectGarbage) return null;
  const keep: Session[] = [];
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < SESSIONS_FOR_MEMORY; i++)
    keep.push(await restoreSession(world, saved, { ai, validate: false }));
  collectGarbage();
  const after = process.memoryUsage().heapUsed;
  if (keep.length !== SESSIONS_FOR_MEMORY)
    throw new Error("unreachable: keeps the sessions alive until measured");
  return (after - before) / SESSIONS_FOR_MEMORY;
}

function kb(bytes: number): string {
  return bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
}
