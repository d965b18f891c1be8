import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parse } from "yaml";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import { checkFiredOnly } from "../../src/author/playtest/expect.ts";
import { exportPlaytest } from "../../src/author/playtest/export.ts";
import { runPlaytests } from "../../src/author/playtest/index.ts";
import {
  ExportError,
  type GameRecord,
  recordFromCassette,
  trackedOf,
} from "../../src/author/playtest/record.ts";
import { turnInput } from "../../src/author/playtest/test-run.ts";
import { createSession } from "../../src/engine/index.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import type { World } from "../../src/world/schema/index.ts";
import { EXAMPLE_WORLD, recordGame, THIRTY_TURNS, worldAt } from "../helpers/recorded-game.ts";

const scripts = createSandbox();
const folder = mkdtempSync(join(tmpdir(), "taleforge-export-"));
let world: World;
let record: GameRecord;

before(async () => {
  world = await worldAt(EXAMPLE_WORLD);
  const { cassette, game } = await recordGame(world, THIRTY_TURNS, scripts);
  assert.equal(game.session.tick, 30, "the game played 30 turns");
  record = await recordFromCassette(world, cassette, scripts, "game.cassette.jsonl");
});

after(async () => {
  await scripts.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Writes a play-test beside `worldFile` and runs it as `taleforge test` does. */
async function runExported(text: string, name: string) {
  const file = join(folder, `${name}.test.yaml`);
  writeFileSync(file, text);
  const result = await runPlaytests([file], { scripts, cwd: folder });
  const only = result.files[0]!;
  assert.deepEqual(only.problems, [], `the exported file is well-formed: ${JSON.stringify(only.problems)}`);
  return only.tests[0]!;
}

describe("export-test: a played game as a play-test", () => {
  test("30 turns of the example world, exported, pass when re-run", async () => {
    const out = exportPlaytest(record, { world: EXAMPLE_WORLD, source: "game.cassette.jsonl" });
    assert.equal(out.steps.filter((s) => s.kind === "turn").length, 30);
    const parsed = parse(out.text) as { turns: { act?: string; accept?: string; expect?: unknown }[] };
    // The undone turn is not in it; the quest answer is a step of its own.
    assert.ok(!parsed.turns.some((t) => t.act === "look out of the window"));
    assert.ok(parsed.turns.some((t) => t.accept === "The Keeper's Debt"));
    assert.ok(parsed.turns.every((t) => t.expect !== undefined || t.act !== undefined));
    const result = await runExported(out.text, "full");
    assert.deepEqual(result.failures, []);
    assert.equal(result.ran, out.steps.length);
  });

  test("the expectations say only what changed, grouped per turn", () => {
    const out = exportPlaytest(record, { world: EXAMPLE_WORLD });
    const turns = (parse(out.text) as { turns: { act?: string; expect?: Record<string, unknown> }[] }).turns;
    const mara = turns.find((t) => t.act === "talk to Mara Venn")!;
    assert.deepEqual(mara.expect!.storage, { met_mara: true });
    assert.deepEqual(mara.expect!.firedOnly, ["meet_mara"]);
    assert.equal(mara.expect!.party, undefined, "the party did not move");
  });

  test("--from-turn/--to-turn check a slice; the turns before it are played, unchecked", async () => {
    const out = exportPlaytest(record, { world: EXAMPLE_WORLD, fromTurn: 10, toTurn: 15 });
    const turns = out.steps.filter((s) => s.kind === "turn");
    assert.deepEqual(
      turns.map((s) => s.turn),
      Array.from({ length: 15 }, (_, i) => i + 1),
    );
    assert.ok(turns.every((s) => s.checked === s.turn >= 10));
    const parsed = parse(out.text) as { turns: { expect?: unknown }[] };
    out.steps.forEach((s, i) => {
      if (!s.checked) assert.equal(parsed.turns[i]!.expect, undefined);
    });
    assert.deepEqual((await runExported(out.text, "slice")).failures, []);
  });

  test("--loose keeps only the final expectations", async () => {
    const out = exportPlaytest(record, { world: EXAMPLE_WORLD, loose: true });
    const parsed = parse(out.text) as { turns: { expect?: Record<string, unknown> }[] };
    const withExpect = parsed.turns.filter((t) => t.expect !== undefined);
    assert.equal(withExpect.length, 1);
    assert.equal(parsed.turns.at(-1)!.expect, withExpect[0]!.expect);
    const final = parsed.turns.at(-1)!.expect!;
    assert.equal((final.party as { location: string }).location, record.final.position.location);
    assert.deepEqual((await runExported(out.text, "loose")).failures, []);
  });

  test("a slice outside the game, or upside down, is refused with a coded message", () => {
    assert.throws(
      () => exportPlaytest(record, { world: EXAMPLE_WORLD, fromTurn: 40 }),
      (e: unknown) => e instanceof ExportError && /holds no turn to export in the slice/.test(e.message),
    );
    assert.throws(
      () => exportPlaytest(record, { world: EXAMPLE_WORLD, fromTurn: 9, toTurn: 3 }),
      (e: unknown) =>
        e instanceof ExportError && e.code === "playtest/export" && /--from-turn 9/.test(e.message),
    );
  });

  test("a cassette of another world is refused", async () => {
    const other = structuredClone(world);
    other.storySettings.worldBackground += " Changed.";
    const { cassette } = await recordGame(world, THIRTY_TURNS.slice(0, 2), scripts);
    await assert.rejects(recordFromCassette(other, cassette, scripts, "x.jsonl"), /another world/);
  });
});

test("firedOnly fails on a trigger that fired and is not listed, and on one listed that did not fire", () => {
  const seen = { fired: ["a", "b"], triggers: new Set(["a", "b", "c"]), turn: null, consumedBefore: {} };
  assert.deepEqual(checkFiredOnly(["b", "a"], seen as never, ["x"]), []);
  const extra = checkFiredOnly(["a"], seen as never, ["x"]);
  assert.equal(extra.length, 1);
  assert.match(extra[0]!.message, /expected only "a" to fire; "b" fired too/);
  const missing = checkFiredOnly(["a", "b", "c"], seen as never, ["x"]);
  assert.match(missing[0]!.message, /expected "c" to fire; it did not/);
  assert.match(checkFiredOnly([], seen as never, ["x"])[0]!.message, /expected only no trigger to fire/);
});

describe("export-test: a world edited so that the game goes another way fails at the first turn that differs", () => {
  const MUTATIONS = 10;

  test(`${MUTATIONS} seeded mutations`, async () => {
    const out = exportPlaytest(record, { world: "world.json", source: "game" });
    const text = readFileSync(EXAMPLE_WORLD, "utf8");
    const random = mulberry32(36);
    const fired = [...new Set(record.steps.flatMap((s) => (s.kind === "turn" ? s.result.fired : [])))].filter(
      (k) => Object.hasOwn(world.triggers, k),
    );
    const tried = new Set<string>();
    const done: string[] = [];
    for (let attempt = 0; done.length < MUTATIONS && attempt < 200; attempt++) {
      const kind = KINDS[Math.floor(random() * KINDS.length)]!;
      const trigger = fired[Math.floor(random() * fired.length)]!;
      const id = `${kind.name}:${trigger}`;
      if (tried.has(id)) continue;
      tried.add(id);
      const value = JSON.parse(text) as { triggers: Record<string, Record<string, unknown>> };
      if (!kind.apply(value.triggers[trigger]!, record, trigger)) continue;
      const dir = mkdtempSync(join(folder, "m-"));
      writeFileSync(join(dir, "world.json"), JSON.stringify(value, null, 2));
      let mutated: World;
      try {
        mutated = await worldAt(join(dir, "world.json"));
      } catch {
        continue; // The edit broke the world: not a mutation of the path.
      }
      const differs = await firstDifferentStep(mutated, record, out.steps.length);
      if (differs === null) continue; // The edit changed nothing the game reached.
      writeFileSync(join(dir, "game.test.yaml"), out.text);
      const result = (await runPlaytests([join(dir, "game.test.yaml")], { scripts, cwd: dir })).files[0]!;
      assert.deepEqual(result.problems, [], id);
      const failures = result.tests[0]!.failures;
      assert.ok(failures.length > 0, `${id}: the play-test still passes on the edited world`);
      const first = failures[0]!;
      assert.equal(
        first.step,
        differs + 1,
        `${id}: the first failure is at step ${first.step}, the game first differs at step ${differs + 1} (turn ${out.steps[differs]!.turn}): ${first.message}`,
      );
      assert.match(first.message, new RegExp(`^step ${differs + 1}: `));
      // The file's comment above that step names its turn.
      const lines = out.text.split("\n");
      const comment = lines.slice(0, first.line! - 1).findLast((l) => /^\s*# (turn|before turn) \d+/.test(l));
      assert.match(comment ?? "", new RegExp(`turn ${out.steps[differs]!.turn}\\b`), id);
      done.push(id);
    }
    assert.equal(
      done.length,
      MUTATIONS,
      `only ${done.length} mutations changed the game's path: ${done.join(", ")}`,
    );
  });
});

/** Mutations of one trigger that fired in the game; false when it does not apply to that trigger. */
const KINDS: { name: string; apply(t: Record<string, unknown>, record: GameRecord, key: string): boolean }[] =
  [
    {
      name: "never",
      apply: (t) => {
        (t.conditions as unknown[]).push({ type: "game-tick", operator: "greaterThan", value: 100000 });
        return true;
      },
    },
    {
      name: "later",
      apply: (t, record, key) => {
        const first = record.steps.find((s) => s.kind === "turn" && s.result.fired.includes(key));
        if (first?.kind !== "turn") return false;
        (t.conditions as unknown[]).push({
          type: "game-tick",
          operator: "greaterThan",
          value: first.result.tick,
        });
        return true;
      },
    },
    {
      name: "drop-effects",
      apply: (t) => {
        const effects = t.effects as { type: string }[];
        const kept = effects.filter((e) => e.type === "story" || e.type.startsWith("party-next-step"));
        if (kept.length === effects.length) return false;
        t.effects = kept;
        return true;
      },
    },
    {
      name: "other-value",
      apply: (t) => {
        const effect = (t.effects as { type: string; value?: unknown }[]).find((e) =>
          /^write-(boolean|number|string)$/.test(e.type),
        );
        if (!effect) return false;
        effect.value =
          typeof effect.value === "boolean"
            ? !effect.value
            : typeof effect.value === "number"
              ? effect.value + 5
              : "x";
        return true;
      },
    },
    {
      name: "elsewhere",
      apply: (t) => {
        const c = (t.conditions as { type: string; value?: unknown }[]).find(
          (c) => c.type === "party-location",
        );
        if (!c) return false;
        c.value = c.value === "Brinewick Docks" ? "The Gutted Eel" : "Brinewick Docks";
        return true;
      },
    },
  ];

/**
 * The oracle: the recorded inputs, with the recorded answers pinned, played on the edited world by the
 * engine alone; the index of the first step whose triggers or checked state differ from the record.
 */
async function firstDifferentStep(mutated: World, record: GameRecord, count: number): Promise<number | null> {
  const session = await createSession(mutated, {
    ai: createOfflineProvider(mutated),
    scripts,
    validate: false,
    seed: record.seed,
    storyStart: record.storyStart,
    players: record.players,
  });
  for (const [i, step] of record.steps.slice(0, count).entries()) {
    try {
      if (step.kind === "turn") {
        const recorded = exportPlaytest({ ...record, steps: [step] }, { world: "w" });
        const pinned = (parse(recorded.text) as { turns: Parameters<typeof turnInput>[0][] }).turns[0]!;
        const result = await session.turn(turnInput(pinned, step.players));
        if (JSON.stringify(result.fired) !== JSON.stringify(step.result.fired)) return i;
      } else if (step.answer === "accept") session.acceptQuest(step.quest);
      else if (step.answer === "reject") session.rejectQuest(step.quest);
      else session.abandonQuest(step.quest);
    } catch {
      return i;
    }
    if (JSON.stringify(trackedOf(session.state)) !== JSON.stringify(step.tracked)) return i;
  }
  return null;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
