import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import type {
  AiPorts,
  IntentAnswer,
  JudgeRequest,
  JudgeVerdict,
  NarrationAnswer,
  NarrationRequest,
} from "../../src/engine/ports.ts";
import { createSession, type Session } from "../../src/engine/session.ts";
import { analyse } from "../../src/world/lint/analysis.ts";
import type { Reachability } from "../../src/world/lint/reachability.ts";
import { assertOptions } from "./budget.ts";
import { AREAS, LOCATIONS, QUESTS, worldArb } from "./trigger-vocabulary.ts";

/**
 * The lint analysis claims things can never happen in play. Here the real
 * engine plays random games on random trigger maps, with an AI whose every
 * answer (intent, travel target, AI verdicts, event verdicts) and every
 * quest answer of the player come from the generated choices, and nothing
 * the analysis calls impossible may happen: no trigger it says can never
 * fire fires, no quest reaches a status it says is out of reach, no event
 * starts that it says never starts, no storage key holds a value it says
 * the key never holds. (Scripts are left out: without a script runner the
 * engine skips them, which only removes possibilities.)
 */

const TURNS = 8;

/** Answers taken in turn from a list of numbers. */
class Choices {
  private at = 0;
  constructor(private readonly list: number[]) {}
  next(n: number): number {
    const value = this.list[this.at++ % this.list.length] ?? 0;
    return value % n;
  }
}

function scriptedAi(choices: Choices): AiPorts {
  return {
    async classify(): Promise<IntentAnswer> {
      switch (choices.next(5)) {
        case 0:
          return { intent: "travel", target: LOCATIONS[choices.next(LOCATIONS.length)]! };
        case 1:
          return { intent: "move", target: AREAS[choices.next(AREAS.length)]! };
        case 2:
          return { intent: "acceptQuest" };
        default:
          return { intent: "other" };
      }
    },
    async narrate(request: NarrationRequest): Promise<NarrationAnswer> {
      const verdicts = ["completed", "stopped", "neither"] as const;
      return { text: `Turn ${request.tick}.`, eventVerdict: verdicts[choices.next(3)]! };
    },
    async judge(request: JudgeRequest): Promise<JudgeVerdict[]> {
      return request.questions.map((q) => ({
        trigger: q.trigger,
        conditionIndex: q.conditionIndex,
        passed: choices.next(2) === 0,
      }));
    },
  };
}

/** Fails when the session's state holds something the analysis says can never happen. */
function assertReachable(session: Session, analysis: Reachability, where: string): void {
  const { evaluator, facts, model } = analysis;
  const state = session.state;
  for (const [quest, entry] of Object.entries(state.quests)) {
    if (!model.quests.has(quest)) continue;
    assert.ok(
      evaluator.questStatuses(quest).has(entry.status),
      `${where}: quest "${quest}" is ${entry.status}, which lint says it can never be`,
    );
  }
  for (const [event, entry] of Object.entries(state.events)) {
    if (entry.status !== "inactive")
      assert.ok(evaluator.startedPossible(event), `${where}: event "${event}" is ${entry.status}`);
  }
  for (const [key, value] of Object.entries(state.storage)) {
    const writes = facts.readable(key);
    const ok =
      typeof value === "number"
        ? writes.number.has(value)
        : typeof value === "string"
          ? writes.string.has(value)
          : typeof value === "boolean"
            ? writes.boolean.has(value)
            : Array.isArray(value)
              ? writes.array && value.every((element) => writes.elements.has(element))
              : true;
    assert.ok(ok, `${where}: storage ${JSON.stringify(key)} holds ${JSON.stringify(value)}`);
  }
  for (const [entity, known] of Object.entries(state.known)) {
    if (known && !model.entities.has(entity))
      assert.ok(facts.knownAll || facts.known.has(entity), `${where}: "${entity}" became known`);
  }
}

function assertMayFire(fired: readonly string[], analysis: Reachability, where: string): void {
  for (const key of fired) {
    const actor = analysis.model.actors.find((a) => a.key === key && a.kind !== "event");
    if (!actor) continue;
    assert.ok(
      analysis.fires.has(actor),
      `${where}: trigger "${key}" fired, which lint says can never happen: ${JSON.stringify(analysis.verdicts.get(actor))}`,
    );
  }
}

describe("lint against the engine", () => {
  test("nothing lint calls impossible happens in random games", async () => {
    await fc.assert(
      fc.asyncProperty(
        worldArb({ scripts: false }),
        fc.array(fc.nat(1000), { minLength: 20, maxLength: 60 }),
        async (world, list) => {
          const analysis = analyse(world);
          const choices = new Choices(list);
          const session = await createSession(world, { ai: scriptedAi(choices), seed: 1, validate: false });
          assertMayFire(session.opening?.fired ?? [], analysis, "tick 0");
          assertReachable(session, analysis, "tick 0");
          for (let turn = 1; turn <= TURNS; turn++) {
            const result = await session.turn({
              actions: [{ player: session.state.party[0]!.name, text: "go" }],
            });
            assertMayFire(result.fired, analysis, `turn ${turn}`);
            for (const quest of QUESTS) {
              if (session.state.quests[quest]?.status !== "available") continue;
              const answer = choices.next(3);
              if (answer === 0) session.acceptQuest(quest);
              else if (answer === 1) session.rejectQuest(quest);
            }
            if (session.state.quests["Lost Sheep"]?.status === "accepted" && choices.next(6) === 0)
              session.abandonQuest("Lost Sheep");
            assertReachable(session, analysis, `turn ${turn}`);
          }
        },
      ),
      assertOptions(0.1),
    );
  });
});
