import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { completeTrace } from "../../src/engine/index.ts";
import type { TurnResult } from "../../src/engine/result.ts";
import { createSession, type Session } from "../../src/engine/session.ts";
import type { TriggerTrace } from "../../src/engine/trace.ts";
import { formatTrace } from "../../src/host/trace.ts";
import { createSandbox, type SandboxHost } from "../../src/sandbox/index.ts";
import { DataAi } from "../engine/helpers.ts";
import { harbor } from "../helpers/author.ts";
import { readWalkthrough } from "../helpers/walkthrough.ts";

/**
 * formatTrace on real turns of the example world: the walkthrough played by
 * the engine with the real sandbox and an in-test AI that answers the
 * walkthrough's intents, echoes the action as the story, passes every judged
 * question and settles Storm Night after three active turns. Golden-ish: the
 * important lines, not the whole text.
 */
const world = harbor();
const walkthrough = readWalkthrough();

function harborAi(judge: boolean) {
  return new DataAi({
    intent: (r) => {
      const step = walkthrough.steps.find((s) => s.command === r.text);
      if (!step) return { intent: "other" };
      return step.target === undefined
        ? { intent: step.intent }
        : { intent: step.intent, target: step.target };
    },
    story: (r) => ({
      text: `You ${r.actions[0]?.text ?? "look around"}.`,
      eventVerdict: r.event && r.event.activeTurns >= 3 ? "completed" : "neither",
    }),
    judge: () => judge,
  });
}

let sandbox: SandboxHost;
let session: Session;
const turns: TurnResult[] = [];
const consumedBefore: Record<string, number>[] = [];
const PLAYER = "Isobel Carrow";

before(async () => {
  sandbox = createSandbox();
  session = await createSession(world, {
    players: [{ premade: PLAYER }],
    ai: harborAi(true),
    scripts: sandbox,
    seed: 7,
  });
  for (const step of walkthrough.steps) {
    consumedBefore.push(session.state.consumed);
    turns.push(await session.turn({ actions: [{ player: PLAYER, text: step.command }] }));
  }
  // Tick 13: Storm Night completes (its effects run after the turn).
  consumedBefore.push(session.state.consumed);
  turns.push(await session.turn({ actions: [{ player: PLAYER, text: "wait for dawn" }] }));
});
after(async () => {
  await sandbox.close();
});

const at = (tick: number) => turns[tick - 1]!;
const NO_EDITS = { overrides: {}, deleted: [], added: [] };

/** A result as stored before traces carried their conditions' subjects and the spent triggers. */
function storedBefore(result: TurnResult): TurnResult {
  const stored = JSON.parse(JSON.stringify(result)) as TurnResult;
  delete stored.trace.spent;
  for (const phase of stored.trace.phases)
    for (const t of phase.triggers) for (const c of t.conditions) delete c.subject;
  return stored;
}
const plain = (result: TurnResult, verbose = false) => formatTrace(result, { color: false, verbose });
const lines = (text: string) => text.split("\n");

function hasLine(text: string, pattern: RegExp): void {
  assert.ok(
    lines(text).some((l) => pattern.test(l)),
    `expected a line matching ${pattern} in:\n${text}`,
  );
}

describe("formatTrace, compact", () => {
  test("the header: tick, intent with its source, movement, AI calls, what fired", () => {
    const text = plain(at(3));
    assert.equal(lines(text)[0], "Turn 3");
    hasLine(text, /^ {2}intent {4}travel → "Old Lighthouse" \(classifier\)$/);
    hasLine(text, /^ {2}movement {2}moved to Old Lighthouse \/ Rock Landing \(Gull Coast, Brine Reach\)$/);
    hasLine(text, /^ {2}AI calls {2}2 \(classify 1, narrate 1, judge 0\)$/);
    hasLine(text, /^ {2}fired {5}arrive_lighthouse, fog_warning, count_lighthouse_visits$/);
  });

  test("one line per trigger that fired, with its script, effects, targets and consumption", () => {
    const text = plain(at(3));
    hasLine(text, /^ {2}✔ arrive_lighthouse {2}fired; 4 effects applied; targets: Isobel Carrow; consumed$/);
    hasLine(
      text,
      /^ {2}✔ fog_warning {2}fired; script ran in [\d.]+ ms; 2 effects applied; targets: Isobel Carrow; consumed$/,
    );
    // Recurring: not consumed.
    hasLine(
      text,
      /^ {2}✔ count_lighthouse_visits {2}fired; script ran in [\d.]+ ms; no effects; targets: Isobel Carrow$/,
    );
  });

  test("a trigger that came close says at which condition it failed, with actual and expected values", () => {
    // The result names each condition's subject: no trigger map is needed beside it.
    const named = plain(at(3));
    hasLine(
      named,
      /^ {2}· storm_rises {2}failed at condition 2: read-boolean slade_confronted equals true, actual false$/,
    );
    // A result stored before traces carried subjects prints without them, and completeTrace names them again.
    const stored = storedBefore(at(3));
    hasLine(
      plain(stored),
      /^ {2}· storm_rises {2}failed at condition 2: read-boolean equals true, actual false$/,
    );
    assert.equal(
      plain(completeTrace(stored, world, { triggerEdits: NO_EDITS, consumed: consumedBefore[2]! })),
      named,
    );
  });

  test("triggers far from firing are counted, not listed; objective triggers are excluded with the reason", () => {
    const text = plain(at(3));
    assert.doesNotMatch(text, /temple_bell_plea/);
    hasLine(text, /^ {2}… \d+ other triggers did not fire \(verbose lists them with every condition\)$/);
    hasLine(
      text,
      /^ {2}- The Tongueless Bell_objective {2}not tried: it moves a quest on that the party has not accepted \(quest "The Tongueless Bell" is hidden, not accepted\)$/,
    );
  });

  test("the AI judge: candidates, what was sent, the verdict", () => {
    const text = plain(at(12));
    hasLine(text, /^ {2}AI judge: 1 candidate; sent: light_the_beacon; lexical ranking; judge called$/);
    hasLine(text, /^ {2}✔ light_the_beacon {2}fired; AI verdict: passed; 5 effects applied;/);
    hasLine(text, /^ {2}AI calls {2}3 \(classify 1, narrate 1, judge 1\)$/);
  });

  test("trigger-map edits kept, the event, quest changes, logs", () => {
    const text = plain(at(12));
    hasLine(text, /^ {2}trigger-map edits kept: fog_warning, lighthouse_haven \(live from the next turn\)$/);
    hasLine(text, /^ {2}event {5}"Storm Night": narrator said neither; active 3 turns; still active$/);
    hasLine(
      text,
      /^ {2}quest {5}"The Keeper's Debt": expired → completed \(quest-complete by light_the_beacon\)$/,
    );
    hasLine(text, /^ {2}log {7}script-log dawn_after_storm: fog_warning retired, lighthouse_haven added$/);
    const t13 = plain(at(13));
    hasLine(t13, /^ {2}event {5}"Storm Night": narrator said completed; active 4 turns; completed$/);
    hasLine(t13, /^ {12}2 effects applied, 1 unchanged$/);
    assert.match(plain(at(3)), /quest {5}"The Keeper's Debt": available → expired/);
  });

  test("no colour unless asked; styleText colours when asked", () => {
    assert.doesNotMatch(plain(at(12), true), /\u001b\[/);
    assert.match(formatTrace(at(12), { color: true }), /\u001b\[32m✔\u001b\[39m/);
  });
});

describe("formatTrace, verbose", () => {
  test("every trigger considered, each condition with actual and expected and pass/fail", () => {
    const text = plain(at(3), true);
    for (const phase of at(3).trace.phases)
      for (const t of phase.triggers) hasLine(text, new RegExp(`^ {2}[✔·✗] ${t.trigger} `));
    hasLine(text, /^ {6}✔ \[1\] party-location equals "Old Lighthouse", actual "Old Lighthouse"$/);
    hasLine(text, /^ {6}✗ \[1\] party-location equals "Saltlight Temple", actual "Old Lighthouse"$/);
    hasLine(
      text,
      /^ {6}\? \[2\] action "Does the player read the keeper's logbook\?": not decided \(not sent to the judge\)$/,
    );
  });

  test("scripts with their time, and every effect with its status and note", () => {
    const text = plain(at(3), true);
    hasLine(text, /^ {6}script ran in [\d.]+ ms$/);
    hasLine(text, /^ {6}effect \[2\] player-resource \[script\] applied — Isobel Carrow 10 -> 9$/);
    // Storm Night's resolve +2 lands on a party already at full nerve (the lit lamp gave +2).
    hasLine(
      plain(at(13), true),
      /^ {6}effect \[3\] player-resource \[event\] unchanged — Isobel Carrow 10 -> 10$/,
    );
  });

  test("AI-judged conditions show the verdict and the credited players", () => {
    hasLine(
      plain(at(12), true),
      /^ {6}✔ \[2\] action "Does the player light the lighthouse lamp\?": AI verdict: yes; credited: Isobel Carrow$/,
    );
  });

  test("the state diff, and the triggers already spent, which the result lists", () => {
    const text = plain(at(12), true);
    assert.deepEqual(at(12).trace.spent, consumedBefore[11]);
    // A result stored before traces listed them: none, until completeTrace adds the state's consumed map.
    const stored = storedBefore(at(12));
    assert.doesNotMatch(plain(stored, true), /^Not evaluated/m);
    assert.equal(
      plain(completeTrace(stored, world, { triggerEdits: NO_EDITS, consumed: consumedBefore[11]! }), true),
      text,
    );
    hasLine(text, /^State diff: \d+ changes$/);
    hasLine(text, /^ {2}storage\.beacon_lit: \(absent\) → true$/);
    hasLine(text, /^ {2}quests\["The Keeper's Debt"\]\.status: "expired" → "completed"$/);
    hasLine(text, /^Not evaluated \(consumed: non-recurring triggers that already fired\)$/);
    hasLine(text, /^ {2}- keeper_rumour {2}fired on turn 1$/);
  });
});

describe("formatTrace, pins and rare outcomes", () => {
  test("pinned intent and a pinned AI verdict say so", async () => {
    const s = await createSession(world, {
      players: [{ premade: PLAYER }],
      ai: harborAi(true),
      scripts: sandbox,
      seed: 7,
    });
    for (const step of walkthrough.steps.slice(0, 11))
      await s.turn({ actions: [{ player: PLAYER, text: step.command }] });
    const result = await s.turn({
      actions: [{ player: PLAYER, text: "light the lighthouse lamp" }],
      pins: { intent: { intent: "other" }, judge: { light_the_beacon: false }, story: "Nothing happens." },
    });
    const text = plain(result, true);
    hasLine(text, /^ {2}intent {4}other \(pinned\)$/);
    hasLine(text, /^ {2}AI judge: 1 candidate; pinned: light_the_beacon; lexical ranking; judge not called$/);
    hasLine(text, /^ {2}· light_the_beacon {2}AI verdict pinned: failed$/);
    hasLine(
      text,
      /^ {6}✗ \[2\] action "Does the player light the lighthouse lamp\?": pinned: no; credited: Isobel Carrow$/,
    );
    hasLine(text, /^ {2}AI calls {2}0 \(classify 0, narrate 0, judge 0\)$/);
  });

  test("script failures, skip, suppression, the judge's other verdicts, dropped effects, discarded edits", () => {
    const base = at(3);
    const trigger = (t: Partial<TriggerTrace> & { trigger: string }): TriggerTrace => ({
      conditions: [],
      mechanicalPassed: true,
      candidate: false,
      fired: false,
      targets: [],
      effects: [],
      consumed: false,
      ...t,
    });
    const judged = {
      index: 0,
      type: "story",
      actual: undefined,
      expected: "Is it?",
      passed: false,
      judged: true,
    };
    const result: TurnResult = {
      ...base,
      trace: {
        ...base.trace,
        phases: [
          {
            ...base.trace.phases[1]!,
            triggers: [
              trigger({
                trigger: "broken",
                fired: true,
                script: { status: "error", reason: "x is not defined", line: 3, column: 7, elapsedMs: 1 },
                effects: [
                  { index: 0, source: "typed", type: "story", status: "applied", effect: {} },
                  {
                    index: 1,
                    source: "typed",
                    type: "bad",
                    status: "dropped",
                    reason: "malformed",
                    note: "unknown type",
                    effect: {},
                  },
                ],
              }),
              trigger({
                trigger: "slow",
                fired: true,
                script: { status: "timeout", reason: "took too long" },
              }),
              trigger({ trigger: "skipper", script: { status: "ran", setSkip: true, elapsedMs: 0.5 } }),
              trigger({ trigger: "nobody", suppressed: true }),
              trigger({ trigger: "unsure", candidate: true, verdict: "no verdict", conditions: [judged] }),
              trigger({
                trigger: "far",
                candidate: true,
                verdict: "not among the top N",
                rank: 21,
                conditions: [judged],
              }),
            ],
            edits: { status: "discarded", changed: ["x"], problems: ["trigger x has no conditions"] },
            scripts: { begun: true, budgetExhausted: true },
            storageRejected: true,
          },
        ],
      },
    };
    const text = plain(result);
    hasLine(
      text,
      /^ {2}✔ broken {2}fired; script error at line 3:7 in 1 ms: x is not defined \(typed effects applied instead\); 1 effect applied, 1 dropped$/,
    );
    hasLine(text, /^ {6}effect \[2\] bad dropped \(malformed\) — unknown type$/);
    hasLine(text, /^ {2}✔ slow {2}fired; script timeout: took too long/);
    hasLine(text, /^ {2}· skipper {2}script set skip \(the trigger stays armed\)$/);
    hasLine(
      text,
      /^ {2}· nobody {2}suppressed: every condition passed but no player satisfies it \(scope: player\)$/,
    );
    hasLine(text, /^ {2}· unsure {2}AI gave no verdict \(counts as failed\)$/);
    hasLine(text, /^ {2}· far {2}not among the top N AI candidates \(rank 21\), not sent to the judge$/);
    hasLine(text, /^ {2}trigger-map edits discarded: x: trigger x has no conditions$/);
    hasLine(text, /^ {2}scripts: the phase's script budget ran out; later scripts did not run$/);
    hasLine(text, /^ {2}storage: a script stored a BigInt or circular value;/);
  });

  test("a pure function: the same result gives the same text, and the result is not changed", () => {
    const result = at(12);
    const copy = structuredClone(result);
    assert.equal(plain(result, true), plain(result, true));
    assert.deepEqual(result, copy);
  });
});
