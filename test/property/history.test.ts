import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import fc from "fast-check";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import type { Provider } from "../../src/ai/provider.ts";
import type { AiPorts, SessionState } from "../../src/engine/index.ts";
import { Game, type GameInput } from "../../src/host/game.ts";
import { type AiAnswer, headOf, nodeOf, pathTo } from "../../src/host/history.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import { harbor } from "../helpers/author.ts";

/**
 * The history's promises (issue 33), on random games of the example world
 * played offline with the real sandbox:
 * - rewinding to any turn and submitting the same inputs with the same AI
 *   answers gives the same states, results (trace, narration) byte for byte;
 * - a retry never changes the draw it replaced;
 * - an alteration changes only the story entry and adds one log line.
 */
const world = harbor();
const sandbox = createSandbox();
after(() => sandbox.close());

const COMMANDS = [
  "walk to the Gutted Eel",
  "talk to Mara Venn",
  "travel to the Old Lighthouse",
  "climb the stairwell",
  "read the keeper's logbook",
  "look around",
  "walk to the Counting House",
  "wait",
  "ask about the keeper",
];

/**
 * The AI the game sees: the offline narrator, or (while `scripted` is set) the answers a step
 * recorded, in the order of their kind, as the history keeps them.
 */
class SwitchableAi implements AiPorts {
  scripted: Map<string, AiAnswer[]> | null = null;
  /** The narration requests asked, as sent. */
  asked: unknown[] = [];
  constructor(private readonly live: Provider) {}
  play(answers: readonly AiAnswer[]): void {
    this.scripted = new Map();
    for (const a of answers) this.scripted.set(a.call, [...(this.scripted.get(a.call) ?? []), a]);
  }
  private next(call: string): AiAnswer {
    const answer = this.scripted!.get(call)?.shift();
    assert.ok(answer, `a recorded ${call} answer`);
    if (answer.error !== undefined) throw new Error(answer.error);
    return structuredClone(answer);
  }
  classify: AiPorts["classify"] = async (request, signal) =>
    this.scripted ? (this.next("classify").answer as never) : this.live.classify(request, signal);
  narrate: AiPorts["narrate"] = async (request, onChunk, signal) => {
    this.asked.push(structuredClone(request));
    if (!this.scripted) return this.live.narrate(request, onChunk, signal);
    const answer = this.next("narrate");
    for (const chunk of answer.chunks ?? []) onChunk?.(chunk);
    return answer.answer as never;
  };
  judge: AiPorts["judge"] = async (request, signal) =>
    this.scripted ? (this.next("judge").answer as never) : this.live.judge(request, signal);
  summarise: AiPorts["summarise"] = async (request, signal) =>
    this.scripted ? (this.next("summarise").answer as never) : this.live.summarise!(request, signal);
}

type Move = { type: "turn"; command: number } | { type: "answer"; yes: boolean };
const move: fc.Arbitrary<Move> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ type: fc.constant("turn" as const), command: fc.nat(COMMANDS.length - 1) }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("answer" as const), yes: fc.boolean() }) },
);

/** Plays the moves (a quest answer only when an offer is open); the game and its inputs. */
async function playGame(seed: number, moves: readonly Move[]) {
  const ai = new SwitchableAi(createOfflineProvider(world));
  const game = await Game.start(
    world,
    { ai, scripts: sandbox },
    { seed, gameMode: null, storyStart: "Dawn at the Docks", players: [{ premade: "Isobel Carrow" }] },
  );
  const player = game.players[0]!;
  for (const m of moves) {
    if (m.type === "turn") {
      await game.apply({ type: "turn", actions: [{ player, text: COMMANDS[m.command]! }] });
      continue;
    }
    const offered = Object.entries(game.session.state.quests).find(([, q]) => q.status === "available");
    if (offered) await game.apply({ type: "answer", quest: offered[0], answer: m.yes ? "accept" : "reject" });
  }
  return { game, ai };
}

/** The input that made a node, as the game takes it. */
function inputOf(node: ReturnType<typeof headOf>): GameInput {
  if (node.input.type === "turn") return { type: "turn", actions: node.input.actions };
  if (node.input.type === "answer")
    return { type: "answer", quest: node.input.quest, answer: node.input.answer };
  throw new Error(`no input makes a ${node.input.type} step`);
}

const json = (value: unknown) => JSON.stringify(value);

/** A value without the scripts' measured run times. */
const untimed = (value: unknown) =>
  JSON.parse(JSON.stringify(value, (key, v) => (key === "elapsedMs" ? undefined : v)));

/** Byte-equal JSON; on failure, where the two first differ (the whole texts are too long to read). */
function sameJson(actual: unknown, expected: unknown, label: string): void {
  const a = json(actual);
  const b = json(expected);
  if (a === b) return;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  assert.fail(
    `${label} differs at ${i}:\n  got      ${a.slice(Math.max(0, i - 150), i + 150)}\n  expected ${b.slice(Math.max(0, i - 150), i + 150)}`,
  );
}
const runs = { numRuns: 12, endOnFailure: true };

describe("history: property tests", () => {
  test("a rewind replayed with the same inputs and AI answers reproduces the branch byte for byte", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(1000),
        fc.array(move, { minLength: 2, maxLength: 7 }),
        fc.nat(),
        async (seed, moves, pick) => {
          const { game, ai } = await playGame(seed, moves);
          const original = pathTo(game.history, game.history.head);
          fc.pre(original.length > 1);
          // Back to any node but the last one, by turn: the last node of that turn on the branch.
          const from = original[pick % (original.length - 1)]!;
          const back = original.findLastIndex((n) => n.tick === from.tick);
          if (back < original.length - 1) {
            const turn = original[back]!.tick;
            if (turn !== game.session.tick) await game.apply({ type: "rewind", turn });
          }
          for (const node of original.slice(back + 1)) {
            ai.play(node.answers);
            const outcome = await game.apply(inputOf(node));
            ai.scripted = null;
            const replayed = headOf(game.history);
            assert.notEqual(replayed.id, node.id);
            sameJson(replayed.state, node.state, `the state after turn ${node.tick}`);
            assert.equal(replayed.story, node.story);
            // A script's run time (elapsedMs) is a measurement of this run, not part of the game.
            if (outcome.type === "turn")
              sameJson(untimed(outcome.result), untimed(node.result), `the result of turn ${node.tick}`);
          }
          assert.equal(game.session.save().length > 0, true);
          assert.equal(json(game.session.read((s) => s)), json(original.at(-1)!.state));
        },
      ),
      runs,
    );
  });

  test("a retry never changes the draw it replaced, and the replaced draw stays a branch", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(1000), fc.array(move, { minLength: 1, maxLength: 5 }), async (seed, moves) => {
        const { game } = await playGame(seed, [...moves, { type: "turn", command: 5 }]);
        const old = headOf(game.history);
        const before = json({ ...old, result: undefined });
        const outcome = await game.apply({ type: "retry" });
        assert.equal(outcome.type, "retry");
        const kept = nodeOf(game.history, old.id);
        assert.equal(json({ ...kept, result: undefined }), before);
        const branches = game.branches();
        assert.ok(branches.some((b) => b.tip === old.id && !b.current));
        assert.ok(branches.some((b) => b.tip === game.history.head && b.current));
        // The retry is another draw of the same actions from the same state.
        const retried = headOf(game.history);
        assert.equal(retried.parent, old.parent);
        assert.deepEqual(
          retried.input.type === "turn" && retried.input.actions,
          old.input.type === "turn" && old.input.actions,
        );
        assert.equal(retried.input.type === "turn" && retried.input.draw, 1);
      }),
      runs,
    );
  });

  test("an alteration changes only the altered story entry and logs it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(1000),
        fc.array(move, { minLength: 1, maxLength: 5 }),
        fc.string({ minLength: 1, maxLength: 80 }).filter((s) => s.trim() !== ""),
        async (seed, moves, text) => {
          const { game, ai } = await playGame(seed, [...moves, { type: "turn", command: 7 }]);
          const before: SessionState = game.session.state;
          const outcome = await game.apply({ type: "alter", text, by: "Aria" });
          assert.equal(outcome.type, "alter");
          const now = game.session.state;
          const entry = now.history.story.at(-1)!;
          assert.equal(entry.text, outcome.type === "alter" ? outcome.text : "");
          assert.equal(now.log.length, before.log.length + 1);
          assert.match(now.log.at(-1)!.message, /was altered by Aria\./);
          // Everything else is as it was.
          const undone = structuredClone(now);
          undone.history.story[undone.history.story.length - 1] = before.history.story.at(-1)!;
          undone.log.pop();
          assert.equal(json(undone), json(before));
          // The narrator's next request sees the altered text.
          ai.asked = [];
          await game.apply({ type: "turn", actions: [{ player: game.players[0]!, text: "wait" }] });
          assert.equal(ai.asked.length, 1);
          assert.ok(
            json(ai.asked[0]).includes(json(entry.text).slice(1, -1)),
            "the narrator sees the new text",
          );
        },
      ),
      runs,
    );
  });
});
