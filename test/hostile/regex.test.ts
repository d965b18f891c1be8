import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { lint } from "../../src/cli/lint.ts";
import { applyPatch } from "../../src/world/patch.ts";
import { BASE_WORLD, captureIo, scratchDir } from "../cli/helpers.ts";
import { DataAi, DataRunner, onlyTriggers, say, start } from "../engine/helpers.ts";

/** The catastrophic-backtracking classic: exponential in a backtracking engine, linear in RE2. */
const EVIL = "^(a+)+$";
const VICTIM = `${"a".repeat(40)}!`;

describe("regexes from worlds and scripts are matched in linear time (issue 15 item 3)", () => {
  test("play: a story-text regex meeting 40 a's and '!' answers at once", async () => {
    const ai = new DataAi({ story: VICTIM });
    const { session } = await start(
      onlyTriggers({
        evil: { conditions: [{ type: "story-text", operator: "regex", value: EVIL }], recurring: true },
      }),
      { ai },
    );
    const result = await session.turn(say("wait"));
    assert.equal(result.tick, 1);
    const traced = result.trace.phases.flatMap((p) => p.triggers).find((t) => t.trigger === "evil");
    assert.equal(traced?.conditions[0]?.passed, false);
  });

  test("play: a trigger a script adds with the same regex is matched by RE2 too", async () => {
    const runner = new DataRunner({
      adder: () => ({
        triggers: {
          adder: { name: "adder", conditions: [], effects: [] },
          added: {
            name: "added",
            recurring: true,
            conditions: [{ type: "read-string", key: "s", operator: "regex", value: EVIL }],
            effects: [],
          },
        },
        storage: { s: VICTIM },
      }),
    });
    const { session } = await start(onlyTriggers({ adder: { conditions: [], script: "x" } }), {
      scripts: runner,
    });
    await session.turn(say("wait"));
    const second = await session.turn(say("wait"));
    assert.equal(second.tick, 2);
  });

  test("lint: a regex condition meeting a stored value finishes", async () => {
    const base = JSON.parse(readFileSync(BASE_WORLD, "utf8"));
    const world = applyPatch(base, {
      triggers: {
        writer: {
          name: "writer",
          conditions: [],
          effects: [{ type: "write-string", key: "s", operator: "set", value: VICTIM }],
        },
        reader: {
          name: "reader",
          conditions: [{ type: "read-string", key: "s", operator: "regex", value: EVIL }],
          effects: [{ type: "write-number", key: "n", operator: "set", value: 1 }],
        },
      },
    });
    const file = scratchDir().write("evil.world.json", JSON.stringify(world));
    const { io, stdout } = captureIo();
    const code = await lint(file, { format: "json" }, io);
    assert.ok(code === 0 || code === 1, `exit ${code}`);
    assert.ok(JSON.parse(stdout()).diagnostics);
  });

  test("a lookahead is refused by check and logged once at run time, never matched", async () => {
    const { session } = await start(
      onlyTriggers({
        look: { conditions: [{ type: "story-text", operator: "regex", value: "a(?=b)" }], recurring: true },
      }),
      // Past check (which refuses it as condition/regex-pattern), as a script could add it.
      { ai: new DataAi({ story: "ab" }), validate: false },
    );
    const result = await session.turn(say("wait"));
    const notice = session.state.log.find((e) => e.message.includes("a(?=b)"));
    assert.match(notice?.message ?? "", /does not compile \(.*\).*condition\/regex-pattern/);
    assert.equal(
      result.trace.phases.flatMap((p) => p.triggers).find((t) => t.trigger === "look")?.fired,
      false,
    );
  });
});
