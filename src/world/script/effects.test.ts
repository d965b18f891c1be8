import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ScriptEffects } from "./effects.ts";
import { inspectScript } from "./inspect.ts";

function effectsOf(source: string): ScriptEffects {
  const result = inspectScript(source);
  assert.ok(result.ok, `expected ${JSON.stringify(source)} to parse`);
  return result.analysis.effects;
}

describe("what a script does with effects and triggers", () => {
  test("lists effect literals pushed, assigned or spliced into effects, with their literal and computed fields", () => {
    const found = effectsOf(
      [
        'effects.push({ type: "quest-init", operator: "set", value: "Lost Sheep" });',
        'effects.unshift({ "type": `write-number`, key: "n", operator: "add", value: -2 }, { type: "story", instruction: text });',
        'effects[1] = { type: "write-array", key: "seen", operator: "set", value: ["fox", 1, true] };',
        'effects.splice(0, 1, { type: "narrative-event-start", eventId: "Storm" });',
        'effects = [{ type: "party-location", operator: "set", value: "Old Mill" }, , { value: "no type" }];',
      ].join("\n"),
    );
    assert.equal(found.opaque, null);
    assert.deepEqual(
      found.literals.map(({ type, fields, computed, at }) => ({ type, fields, computed, line: at.line })),
      [
        {
          type: "quest-init",
          fields: { type: "quest-init", operator: "set", value: "Lost Sheep" },
          computed: [],
          line: 1,
        },
        {
          type: "write-number",
          fields: { type: "write-number", key: "n", operator: "add", value: -2 },
          computed: [],
          line: 2,
        },
        { type: "story", fields: { type: "story" }, computed: ["instruction"], line: 2 },
        {
          type: "write-array",
          fields: { type: "write-array", key: "seen", operator: "set", value: ["fox", 1, true] },
          computed: [],
          line: 3,
        },
        {
          type: "narrative-event-start",
          fields: { type: "narrative-event-start", eventId: "Storm" },
          computed: [],
          line: 4,
        },
        {
          type: "party-location",
          fields: { type: "party-location", operator: "set", value: "Old Mill" },
          computed: [],
          line: 5,
        },
      ],
    );
  });

  test("follows triggers added with an object literal: their effects and the keys their conditions read", () => {
    const found = effectsOf(
      [
        "if (triggers.fog) delete triggers.fog;",
        "for (const key in triggers) if (triggers[key].recurring === true) log(key);",
        'triggers.haven = { name: "haven", conditions: [{ type: "read-number", key: "visits", operator: "greaterThan", value: 1 }], effects: [{ type: "quest-complete", questId: "Q" }], recurring: true };',
      ].join("\n"),
    );
    assert.equal(found.opaque, null);
    assert.deepEqual(
      found.literals.map((l) => l.type),
      ["quest-complete"],
    );
    assert.deepEqual(found.checkReads, ["visits"]);
  });

  test("removing and testing effects is followed", () => {
    for (const source of [
      "effects.length = 0;",
      "if (effects.length > 2) effects.pop();",
      "effects.shift(); effects.reverse();",
      "effects.splice(1);",
      "if (!effects[0]) skip = true;",
      "delete effects[0];",
      "if (typeof effects === 'object') log(effects.length);",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is a script, not a template
      "log(triggers.fog, `${triggers.fog}`);",
      "triggers.fog?.recurring ? log('r') : log('n');",
    ]) {
      assert.equal(effectsOf(source).opaque, null, source);
    }
  });

  test("anything it cannot follow makes the script opaque", () => {
    for (const source of [
      "const e = { type: 'quest-init', operator: 'set', value: 'Q' }; effects.push(e);",
      "effects.push(...more);",
      "effects.push({ ...base, value: 'Q' });",
      "effects.push({ [kind]: 'quest-init' });",
      "effects.push({ type: kind });",
      "effects[0].value = 'Q';",
      "effects = effects.filter((e) => e.type !== 'story');",
      "for (const e of effects) e.value = 'Q';",
      "const list = effects; list.push({ type: 'story', instruction: 'x' });",
      "function f(effects) { effects.push(1); }",
      "let effects = [];",
      "triggers.fog.conditions = [];",
      "triggers.fog.effects.push({ type: 'story', instruction: 'x' });",
      "delete triggers.fog.conditions[0];",
      "const t = triggers.fog; t.recurring = true;",
      "triggers = {};",
      "Object.assign(triggers, { x: {} });",
      "triggers.x = makeTrigger();",
      "triggers.x = { name: 'x', conditions: [], effects: list };",
      "triggers.x = { name: 'x', conditions: [], effects: [], script: 'storage.y = 1;' };",
      "globalThis.effects.push({ type: 'story', instruction: 'x' });",
      "this.effects.length = 0;",
      "eval('effects.push(1)');",
      "with (obj) { x = 1; }",
    ]) {
      assert.notEqual(effectsOf(source).opaque, null, source);
    }
  });

  test("lists storage keys read through check(), and says when a key is computed", () => {
    const found = effectsOf(
      [
        'const n = check({ type: "read-number", key: "visits" });',
        'check({ type: "read-boolean", key: `met`, operator: "equals", value: true });',
        'check({ type: "game-tick" });',
      ].join("\n"),
    );
    assert.deepEqual(found.checkReads, ["visits", "met"]);
    assert.equal(found.checkReadsDynamic, false);
    for (const source of [
      'check({ type: "read-number", key: name });',
      "check(condition);",
      'check({ type: kind, key: "x" });',
      "check({ ...condition });",
      "const c = check; c({ type: 'read-number', key: 'x' });",
    ]) {
      assert.equal(effectsOf(source).checkReadsDynamic, true, source);
    }
  });
});
