import { createOfflineProvider } from "../src/ai/offline/index.ts";
import { Game } from "../src/host/game.ts";
import { saveHistory } from "../src/host/history.ts";
import { createSandbox } from "../src/sandbox/index.ts";
import type { World } from "../src/world/schema/index.ts";
import type { BenchContext, BenchModule } from "./bench-module.ts";
import { generateWorld } from "./generate-world.ts";
import { median, p99 } from "./measure.ts";
import { formatTable } from "./table.ts";

/**
 * The game's history (issue 33) on the at-cap world: a game of 500 turns
 * played offline with the real sandbox, then rewinds to random turns (in the
 * running game, and from its save as a server would load it), branch listing
 * with a world diff per branch, and the storage each turn costs in a save.
 */
const TURNS = 500;
const BRANCHES = 10;
const TARGET_REWIND_MS = 50;

const bench: BenchModule = {
  name: "history",
  title: `Story history: rewind, branches and storage per turn (at-cap world, ${TURNS} turns)`,
  run,
};
export default bench;

const ACTIONS = [
  "I ask about the old legends of the region.",
  "I try to pry the door open.",
  "I offer to help with repairs.",
  "I look around quietly.",
];

/** A small deterministic PRNG (the figures do not depend on Math.random). */
function picker(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

async function run(context: BenchContext): Promise<void> {
  const world = generateWorld(1) as unknown as World;
  const locations = Object.keys(world.locations);
  const sandbox = createSandbox();
  try {
    const ports = { ai: createOfflineProvider(world), scripts: sandbox };
    const game = await Game.start(world, ports, { seed: 7, gameMode: null });
    const player = game.players[0]!;
    const progress = context.progress(`History: ${TURNS} at-cap turns`, TURNS);
    for (let t = 1; t <= TURNS; t++) {
      const place = t % 7 === 0 ? locations[t % locations.length] : undefined;
      const text = place ? `I travel to ${place}.` : ACTIONS[t % ACTIONS.length]!;
      await game.apply({ type: "turn", actions: [{ player, text }] });
      progress.tick();
    }
    progress.stop();

    // Storage: the save with its tree, against what whole states per turn would take.
    const lastState = JSON.stringify(game.session.state).length;
    const firstStart = performance.now();
    game.save();
    const firstSaveMs = performance.now() - firstStart;
    // A game saves after every turn: the next save works out the new turn's delta only.
    await game.apply({ type: "turn", actions: [{ player, text: ACTIONS[0]! }] });
    const saveStart = performance.now();
    const save = game.save();
    const saveMs = performance.now() - saveStart;
    const tree = saveHistory(game.history);
    const deltas = tree.nodes
      .filter((n) => n.parent !== null)
      .map((n) => JSON.stringify(n.delta ?? null).length);
    const answers = tree.nodes.map((n) => JSON.stringify(n.answers).length);
    let wholeStates = 0;
    for (const node of game.history.nodes.values()) wholeStates += JSON.stringify(node.state).length;

    const pick = picker(11);
    const runs = Math.max(context.runs, 21);
    // Rewinds in the running game, each to a random earlier turn of the first story.
    const inGame: number[] = [];
    const mainTip = game.history.head;
    for (let i = 0; i < runs; i++) {
      await game.apply({ type: "branch", op: "switch", branch: "1" });
      const turn = pick(TURNS - 1);
      const start = performance.now();
      await game.apply({ type: "rewind", turn });
      inGame.push(performance.now() - start);
    }
    // From the save, as a server that keeps the save loads it for each request: load, rewind, save.
    const fromSave: number[] = [];
    const afterLoad: number[] = [];
    for (let i = 0; i < Math.min(runs, 11); i++) {
      const turn = pick(TURNS - 1);
      const start = performance.now();
      const loaded = await Game.start(world, ports, { seed: 7, gameMode: null, load: save });
      const rewind = performance.now();
      await loaded.apply({ type: "rewind", turn });
      afterLoad.push(performance.now() - rewind);
      loaded.save();
      fromSave.push(performance.now() - start);
    }

    // Branches: BRANCHES rewinds to random turns, three turns each; then the list and a diff of every tip with the first story's.
    for (let b = 0; b < BRANCHES; b++) {
      await game.apply({ type: "branch", op: "switch", branch: "1" });
      await game.apply({ type: "rewind", turn: 1 + pick(TURNS - 2) });
      for (let t = 0; t < 3; t++)
        await game.apply({ type: "turn", actions: [{ player, text: ACTIONS[(b + t) % ACTIONS.length]! }] });
    }
    const listing: number[] = [];
    let changes = 0;
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      const branches = game.branches();
      for (const branch of branches.slice(1)) changes += game.diff("#1", `#${branch.number}`).changes.length;
      listing.push(performance.now() - start);
    }
    const branchCount = game.branches().length;
    void mainTip;

    const kb = (chars: number) => `${(chars / 1024).toFixed(1)} KB`;
    context.print(
      `A game of ${TURNS} turns on the at-cap world (offline provider, real sandbox), then ${runs} rewinds to random turns; ${BRANCHES} branches of 3 turns each for the listing. Sizes are JSON characters.`,
    );
    context.print();
    context.print(
      formatTable(
        ["Figure", "Measured", "Target"],
        [
          ["Rewind in the running game, median", `${median(inGame).toFixed(2)} ms`, `${TARGET_REWIND_MS} ms`],
          ["Rewind in the running game, p99", `${p99(inGame).toFixed(2)} ms`, `${TARGET_REWIND_MS} ms`],
          [
            "Rewind in a game just loaded (the target state checked), median",
            `${median(afterLoad).toFixed(2)} ms`,
            `${TARGET_REWIND_MS} ms`,
          ],
          ["Load the save, rewind, save again, median", `${median(fromSave).toFixed(1)} ms`, ""],
          [
            `List ${branchCount} branches and diff each with the first, median`,
            `${median(listing).toFixed(2)} ms`,
            "",
          ],
          ["World changes found per listing", String(Math.round(changes / runs)), ""],
          ["Save with the tree (whole file)", kb(save.length), ""],
          ["Writing that save the first time (every delta)", `${firstSaveMs.toFixed(1)} ms`, ""],
          ["Writing it after the next turn (autosave)", `${saveMs.toFixed(1)} ms`, ""],
          ["State delta per turn, median / p99", `${kb(median(deltas))} / ${kb(p99(deltas))}`, ""],
          ["AI answers kept per turn, median", kb(median(answers)), ""],
          ["Save per turn (file / turns)", kb(save.length / TURNS), ""],
          ["The last state whole", kb(lastState), ""],
          ["Whole states for every turn (what deltas avoid)", kb(wholeStates), ""],
        ],
      ),
    );
  } finally {
    await sandbox.close();
  }
}
