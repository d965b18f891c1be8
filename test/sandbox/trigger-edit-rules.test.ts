import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, describe, it } from "node:test";
import { createSandbox } from "../../src/sandbox/index.ts";
import { applyPatch } from "../../src/world/patch.ts";
import { TRIGGER_MAP_RULES } from "../../src/world/trigger-map.ts";
import { say, start } from "../engine/helpers.ts";

/**
 * Issue 16 item 6: a script's trigger edits pass every rule `check` applies
 * to a trigger in a world file (TRIGGER_MAP_RULES and the shape of a
 * trigger). Each rule is tried through a real script edit, in the real
 * sandbox: the edit is discarded, nothing of it takes effect next turn, and
 * the log says which trigger broke which rule. Most cases are the rule's own
 * bad example (docs/rules.md) written by a script instead of the file.
 */
const sandbox = createSandbox();
after(() => sandbox.close());

const BASE = JSON.parse(readFileSync(new URL("../fixtures/base.world.json", import.meta.url), "utf8"));
const tick1 = { type: "game-tick", operator: "equals", value: 1 };

/** JavaScript source for a JSON value, with long runs of one character written as `.repeat()` so that the editor stays small. */
function toJs(value: unknown): string {
  if (typeof value === "string") {
    if (value.length < 200) return JSON.stringify(value);
    return (value.match(/(.)\1*/gs) ?? [])
      .map((run) =>
        run.length > 20 ? `${JSON.stringify(run[0])}.repeat(${run.length})` : JSON.stringify(run),
      )
      .join(" + ");
  }
  if (Array.isArray(value)) return `[${value.map(toJs).join(", ")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${toJs(v)}`)
      .join(", ")}}`;
  return JSON.stringify(value);
}

interface Case {
  code: string;
  /** The script of the editing trigger. */
  script: string;
  /** The trigger key the log must name. */
  key: string;
}

/** The rule's bad example, as a script that writes each changed trigger. */
function fromExample(code: string, bad: Record<string, unknown>): Case | undefined {
  const patched = applyPatch(structuredClone(BASE), bad) as { triggers: Record<string, unknown> };
  const keys = Object.keys((bad.triggers ?? {}) as object);
  if (keys.length === 0 || keys.length > 3) return undefined;
  const script = keys.map((k) => `triggers[${JSON.stringify(k)}] = ${toJs(patched.triggers[k])};`).join("\n");
  return { code, script, key: keys[0]! };
}

const plain = (extra: string) => `{ name: "t", conditions: [], effects: []${extra} }`;
const MANUAL: Case[] = [
  {
    code: "keys/name-mismatch",
    key: "mismatch",
    script: `triggers.mismatch = ${plain("").replace('"t"', '"not_mismatch"')};`,
  },
  { code: "shape/invalid-value", key: "t", script: `triggers.t = ${plain(', scope: "everyone"')};` },
  { code: "shape/wrong-type", key: "t", script: `triggers.t = ${plain(', recurring: "yes"')};` },
  { code: "shape/missing-field", key: "t", script: 'triggers.t = { name: "t", effects: [] };' },
  {
    code: "limit/trigger-count",
    key: "the trigger map",
    script: [
      "for (let i = 0; i < 201; i++)",
      '  triggers["ask_" + i] = { name: "ask_" + i, conditions: [{ type: "action", query: "ask " + i }], effects: [] };',
    ].join("\n"),
  },
];

const CASES: Case[] = [
  ...TRIGGER_MAP_RULES.filter((r) => r.severity === "error" && !MANUAL.some((m) => m.code === r.code))
    .map((r) => fromExample(r.code, (r.examples?.bad ?? {}) as Record<string, unknown>))
    .filter((c): c is Case => c !== undefined),
  ...MANUAL,
];

describe("script trigger edits pass every rule check applies to a trigger", () => {
  it("every error rule of TRIGGER_MAP_RULES has a case here", () => {
    const covered = new Set(CASES.map((c) => c.code));
    for (const rule of TRIGGER_MAP_RULES)
      if (rule.severity === "error")
        assert.ok(covered.has(rule.code), `${rule.code} has no script-edit case`);
  });

  it("a valid edit is kept, and the added trigger fires next turn", async () => {
    const { session } = await start(
      {
        triggers: {
          editor: {
            name: "editor",
            conditions: [tick1],
            effects: [],
            script:
              'triggers.added = { name: "added", conditions: [], effects: [{ type: "write-number", key: "n", operator: "set", value: 1 }] };',
          },
        },
      },
      { scripts: sandbox },
    );
    const first = await session.turn(say("wait"));
    assert.equal(first.trace.phases[1]!.edits.status, "kept", JSON.stringify(first.trace.phases[1]!.edits));
    const second = await session.turn(say("wait"));
    assert.ok(second.fired.includes("added"));
  });

  for (const c of CASES) {
    it(`${c.code}: the edit is discarded and logged as trigger-script-error naming ${c.key} and the rule`, async () => {
      const { session } = await start(
        { triggers: { editor: { name: "editor", conditions: [tick1], effects: [], script: c.script } } },
        { scripts: sandbox },
      );
      const before = structuredClone(session.state.triggerEdits);
      const result = await session.turn(say("wait"));
      const edits = result.trace.phases.find((p) => p.edits.status !== "none")?.edits;
      assert.equal(edits?.status, "discarded", `${c.code}: ${JSON.stringify(edits)}`);
      const log = result.logs.find((l) => l.type === "trigger-script-error");
      assert.ok(log, `${c.code}: a trigger-script-error entry`);
      const who = c.key === "the trigger map" ? "the trigger map" : `trigger ${JSON.stringify(c.key)}`;
      assert.ok(log.message.includes(`${who} breaks rule ${c.code}`), log.message);
      assert.deepEqual(session.state.triggerEdits, before, "nothing of the edit is kept");
    });
  }
});
