import type { JsonPath } from "../../diagnostic.ts";
import { defineRule } from "../../rule.ts";
import { inspectScript } from "../../script/inspect.ts";
import { entriesOf, isPlainObject } from "../../values.ts";
import { STRAY_GOAT } from "../examples.ts";
import { foldName, keysOf } from "../names.ts";
import { rawEffects } from "../triggers.ts";

/** One way a quest can be made available: a typed effect or an effect object in a script. */
interface Init {
  quest: string;
  path: JsonPath;
  /** `trigger "x"` or `narrative event "y"`, for messages. */
  where: string;
  /** A script's quest-init object without `operator: "set"`, which the engine drops. */
  dropped?: boolean;
}

export default defineRule({
  code: "quest/no-init-trigger",
  severity: "error",
  description: "A quest has no trigger whose effects fire its `quest-init`.",
  why: "Every quest starts hidden and only a `quest-init` effect makes it available (docs/engine.md); docs/format.md, quests requires at least one trigger that fires it. Counted: typed `quest-init` effects of any trigger or of a narrative event's `onCompleteEffects` (events are started by triggers), and `quest-init` objects with `operator: \"set\"` and a literal `value` in a trigger script (a name built at run time cannot be seen; an object without the operator is dropped by the engine and named in the message). The value must be the quest's key, exactly; a quest-init naming a quest's key with other case or spaces, or its shown `name`, is pointed out in the message. Quests named in a story start's `startingQuests` are not exempt: every quest needs that trigger, and `startingQuests` bypasses the trigger system (story-start/starting-quests warns about the list itself). A warning, not an error: real worlds played on the hosted platform hold such quests (written for the AI to bring in, or kept for later), and the world plays without them.",
  messages: {
    missing:
      'Quest {quest} has no trigger that fires its quest-init, so it stays hidden for the whole game (docs/format.md, quests). Add a trigger whose effects include {"type": "quest-init", "operator": "set", "value": {quest}} (the value is the quest\'s key, exactly), with conditions for when the quest should appear, e.g. game-tick greaterThan 0.',
    dropped:
      'Quest {quest} has no trigger that fires its quest-init: the quest-init object in {where} has no "operator": "set", so the engine drops it as malformed. Write it as {"type": "quest-init", "operator": "set", "value": {quest}}.',
    nearMiss:
      "Quest {quest} has no trigger that fires its quest-init: the quest-init in {where} names {value}, which is not this quest's key. Write the value exactly as {quest} (same case and spaces).",
    startingOnly:
      'Quest {quest} is only made available by story start {start}\'s startingQuests, which bypass the trigger system; every quest needs a trigger that fires its quest-init (docs/format.md, quests). Add a trigger whose effects include {"type": "quest-init", "operator": "set", "value": {quest}} and remove the quest from startingQuests.',
  },
  examples: {
    bad: {
      quests: {
        "Stray Goat": STRAY_GOAT,
      },
    },
    good: {
      quests: {
        "Stray Goat": STRAY_GOAT,
      },
      triggers: {
        start_goat: {
          name: "start_goat",
          conditions: [{ type: "game-tick", operator: "greaterThan", value: 2 }],
          effects: [{ type: "quest-init", operator: "set", value: "Stray Goat" }],
        },
      },
    },
  },
  check({ raw, report }) {
    const quests = keysOf(raw, "quests");
    if (!quests || quests.size === 0) return;
    const inits = questInits(raw);
    const fired = new Set<string>();
    // The first dropped init, and the first init naming an unknown quest, that each quest could have meant.
    const dropped = new Map<string, Init>();
    const near = new Map<string, Init>();
    const meaning = questsByLooseName(raw.quests);
    for (const init of inits) {
      if (quests.has(init.quest)) {
        if (!init.dropped) fired.add(init.quest);
        else if (!dropped.has(init.quest)) dropped.set(init.quest, init);
        continue;
      }
      const meant = meaning.get(foldName(init.quest));
      if (meant !== undefined && !near.has(meant)) near.set(meant, init);
    }
    const starting = startingQuests(raw);
    for (const quest of quests) {
      if (fired.has(quest)) continue;
      const path = ["quests", quest];
      const droppedInit = dropped.get(quest);
      const nearInit = near.get(quest);
      if (droppedInit) {
        report({
          path,
          atKey: true,
          messageId: "dropped",
          data: { quest: JSON.stringify(quest), where: droppedInit.where },
          related: [{ path: droppedInit.path, message: "the quest-init is in this script" }],
        });
      } else if (nearInit) {
        report({
          path,
          atKey: true,
          messageId: "nearMiss",
          data: {
            quest: JSON.stringify(quest),
            where: nearInit.where,
            value: JSON.stringify(nearInit.quest),
          },
          related: [{ path: nearInit.path, message: "the quest-init is here" }],
        });
      } else if (starting.has(quest)) {
        report({
          path,
          atKey: true,
          messageId: "startingOnly",
          data: { quest: JSON.stringify(quest), start: JSON.stringify(starting.get(quest)) },
        });
      } else {
        report({ path, atKey: true, messageId: "missing", data: { quest: JSON.stringify(quest) } });
      }
    }
  },
});

function questInits(raw: Readonly<Record<string, unknown>>): Init[] {
  const inits: Init[] = [];
  for (let row = 0, rows = rawEffects(raw); row < rows.length; row++) {
    const { owner, path, effect } = rows[row]!;
    if (effect.type !== "quest-init" || typeof effect.value !== "string") continue;
    const where = owner.startsWith("narrativeEvents/")
      ? `narrative event ${JSON.stringify(owner.slice("narrativeEvents/".length))}`
      : `trigger ${JSON.stringify(owner)}`;
    inits.push({ quest: effect.value, path: [...path, "value"], where });
  }
  for (let row1 = 0, rows1 = entriesOf(raw.triggers); row1 < rows1.length; row1++) {
    const key = rows1[row1]![0];
    const trigger = rows1[row1]![1];
    if (!isPlainObject(trigger) || typeof trigger.script !== "string") continue;
    const script = inspectScript(trigger.script);
    // A script that does not parse never runs (script/syntax-error), so its effects do not count.
    if (!script.ok) continue;
    const { questInits, malformedQuestInits } = script.analysis;
    for (const [list, dropped] of [
      [questInits, false],
      [malformedQuestInits, true],
    ] as const) {
      for (const init of list) {
        const where = `the script of trigger ${JSON.stringify(key)} (line ${init.at.line})`;
        inits.push({ quest: init.quest, path: ["triggers", key, "script"], where, dropped });
      }
    }
  }
  return inits;
}

/** quest key -> the first story start that lists it in startingQuests. */
function startingQuests(raw: Readonly<Record<string, unknown>>): Map<string, string> {
  const out = new Map<string, string>();
  for (let row2 = 0, rows2 = entriesOf(raw.storyStarts); row2 < rows2.length; row2++) {
    const start = rows2[row2]![0];
    const record = rows2[row2]![1];
    if (!isPlainObject(record) || !Array.isArray(record.startingQuests)) continue;
    for (const quest of record.startingQuests) {
      if (typeof quest === "string" && !out.has(quest)) out.set(quest, start);
    }
  }
  return out;
}

/**
 * Quest keys by their key and shown name, trimmed and lowercased: what a
 * wrong quest-init most likely meant. Typos further off are reported at the
 * effect by reference/unknown-quest; matching them here would cost a string
 * distance per quest and per wrong name.
 */
function questsByLooseName(quests: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const entries = entriesOf(quests);
  // Keys first, so that a key wins over another quest's shown name.
  for (const [key] of entries) if (!out.has(foldName(key))) out.set(foldName(key), key);
  for (const [key, record] of entries) {
    if (!isPlainObject(record) || typeof record.name !== "string") continue;
    if (!out.has(foldName(record.name))) out.set(foldName(record.name), key);
  }
  return out;
}
