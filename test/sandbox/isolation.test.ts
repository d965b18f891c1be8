import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import type { ScriptRunner } from "../../src/engine/ports.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import { onlyTriggers, say, start } from "../engine/helpers.ts";

/**
 * Issue 15 item 8: one sandbox serving many sessions at once. Five harmless
 * sessions play beside five hostile ones (one attack script each, from
 * attacks/); every harmless save must equal, byte for byte, the save of the
 * same session played alone.
 */

const ATTACKS = new URL("./attacks/", import.meta.url);
const attacks = readdirSync(ATTACKS)
  .filter((file) => file.endsWith(".js"))
  .sort()
  .map((file) => ({ name: file, script: readFileSync(new URL(file, ATTACKS), "utf8") }));

// Some work of its own (a loop, check(), Math.random, a log line) and storage carried between turns.
const HARMLESS = [
  "storage.turns = (storage.turns ?? 0) + 1;",
  "storage.rolls = [...(storage.rolls ?? []), Math.random()];",
  'storage.where = check({ type: "party-location" });',
  "let sum = 0;",
  "for (let i = 0; i < 200000; i++) sum += i % 7;",
  "storage.sum = sum;",
  'log("turn", storage.turns, new Date().toString());',
].join("\n");

const TURNS = 2;

function world(attack: string | null) {
  const triggers: Record<string, Record<string, unknown>> = {
    work: { conditions: [], recurring: true, script: HARMLESS },
  };
  // The attack fires first in map order, so a crash it causes lands in the middle of the phase.
  if (attack !== null)
    return onlyTriggers({ attack: { conditions: [], recurring: true, script: attack }, ...triggers });
  return onlyTriggers(triggers);
}

async function play(scripts: ScriptRunner, seed: number, attack: string | null): Promise<string> {
  const { session } = await start(world(attack), { scripts, seed });
  for (let turn = 0; turn < TURNS; turn++) await session.turn(say(`turn ${turn}`));
  return session.save();
}

describe("ten concurrent sessions on one sandbox, five of them hostile", () => {
  it("the attack corpus has five scripts, one attack per file", () => {
    assert.deepEqual(
      attacks.map((a) => a.name),
      [
        "deep-storage.js",
        "infinite-loop.js",
        "looping-message-getter.js",
        "memory-bomb.js",
        "process-killer.js",
      ],
    );
  });

  for (const processes of [1, 2]) {
    it(`harmless sessions get exactly their solo saves (${processes} process${processes > 1 ? "es" : ""})`, async () => {
      const seeds = [11, 12, 13, 14, 15];
      const solo: string[] = [];
      for (const seed of seeds) {
        const alone = createSandbox();
        try {
          solo.push(await play(alone, seed, null));
        } finally {
          await alone.close();
        }
      }
      const shared = createSandbox({ processes });
      try {
        const games = [
          ...seeds.map((seed) => play(shared, seed, null)),
          ...attacks.map((attack, i) => play(shared, 100 + i, attack.script)),
        ];
        const saves = await Promise.all(games);
        for (let i = 0; i < seeds.length; i++) assert.equal(saves[i], solo[i], `seed ${seeds[i]}`);
        // The attacks really ran and failed as their own scripts' failures.
        for (let i = 0; i < attacks.length; i++) {
          const log = JSON.parse(saves[seeds.length + i] as string).state.log as {
            type: string;
            trigger: string;
          }[];
          const errors = log.filter((entry) => entry.type === "trigger-script-error");
          assert.ok(errors.length > 0, attacks[i]?.name);
          assert.ok(
            errors.every((entry) => entry.trigger === "attack" || entry.trigger === "work"),
            attacks[i]?.name,
          );
        }
      } finally {
        await shared.close();
      }
    });
  }
});
