import assert from "node:assert/strict";
import { test } from "node:test";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import type { JudgeRequest, JudgeVerdict } from "../../src/engine/ports.ts";
import { createSession } from "../../src/engine/session.ts";
import { onlyTriggers, say, worldWith } from "./helpers.ts";

/**
 * Issue 39: a recurring trigger's story condition is judged on the story since it last fired, so
 * a condition once true does not stay true: its question carries `since`, the tick it last fired.
 */
test("a recurring story condition is asked about the story since the trigger last fired", async () => {
  const world = worldWith(
    onlyTriggers({
      bell: { conditions: [{ type: "story", query: "The bell rings." }], recurring: true },
      once: { conditions: [{ type: "story", query: "A gull cries." }] },
    }),
  );
  const offline = createOfflineProvider(world);
  const asked: JudgeRequest[] = [];
  let pass = false;
  const ai = {
    ...offline,
    judge: async (request: JudgeRequest): Promise<JudgeVerdict[]> => {
      asked.push(structuredClone(request));
      return request.questions.map((q) => ({
        trigger: q.trigger,
        conditionIndex: q.conditionIndex,
        passed: pass,
      }));
    },
  };
  const session = await createSession(world, { ai, validate: false });
  pass = true;
  await session.turn(say("I ring the bell"));
  const fired = session.state.tick;
  assert.equal(session.state.recurringFired?.bell, fired);
  pass = false;
  asked.length = 0;
  await session.turn(say("I wait"));
  const bell = asked.flatMap((r) => r.questions).filter((q) => q.trigger === "bell");
  assert.ok(bell.length > 0, "the bell is asked about again");
  for (const q of bell) assert.equal(q.since, fired);
  // A trigger that never fired is asked about the whole story: no `since`.
  const before = asked.flatMap((r) => r.questions).filter((q) => q.trigger !== "bell");
  for (const q of before) assert.equal(q.since, undefined);
});
