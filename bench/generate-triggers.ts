import { sentence } from "./prose.ts";
import type { Random } from "./random.ts";
import { ATTRIBUTES, RESOURCES, type WorldIndex, type WorldSize } from "./world-index.ts";

/**
 * Triggers exactly at the count caps of spec 8: `mechanicalTriggers` without
 * and `semanticTriggers` with an AI-judged (`story`/`action`) condition, each
 * quest started by its own quest-init trigger. Mostly 1-3 conditions and 1-2
 * effects (the spec's authoring guidance), up to the caps of 5, with a few
 * scripts. Every reference names something that exists.
 */

type Json = Record<string, unknown>;

/** Storage keys by type: read-* conditions only read keys that some write-* effect writes with the same type. */
const STORAGE = {
  number: ["visits", "alarm_level", "favours_owed", "coins_spent", "rumours_heard", "days_at_sea"],
  boolean: ["gate_open", "met_the_abbot", "bridge_burned", "storm_seen", "oath_sworn"],
  string: ["last_port", "chosen_patron", "password"],
  array: ["clues_found", "allies", "visited_shrines"],
} as const;

const STORY_QUERIES = [
  "The party has earned the trust of the local people.",
  "Someone in the party openly insulted a member of the watch.",
  "The party discovered a hidden passage or secret door.",
  "A fight broke out and the party took part in it.",
  "The party helped a stranger without asking for payment.",
  "The party is clearly lost or going in circles.",
];
const ACTION_QUERIES = [
  "The player tries to bribe or threaten an official.",
  "The player asks about the old legends of the region.",
  "The player attempts to steal something.",
  "The player offers to help with repairs or heavy work.",
  "The player prays or makes an offering at a shrine.",
];
const VERBS = ["watch", "omen", "arrive", "rumour", "greet", "warn", "reward", "alarm", "tally", "reveal"];

export function generateTriggers(size: WorldSize, random: Random, index: WorldIndex): Record<string, Json> {
  const triggers: Record<string, Json> = {};
  const add = (trigger: Json) => {
    triggers[trigger.name as string] = trigger;
  };
  let semantic = 0;
  let mechanical = 0;
  index.quests.forEach((quest, i) => {
    const isSemantic = i % 3 === 0 && semantic < size.semanticTriggers;
    add(questInit(random, index, quest, isSemantic));
    if (isSemantic) semantic++;
    else mechanical++;
  });
  const writes = storageWrites();
  let n = 0;
  while (mechanical < size.mechanicalTriggers) {
    add(generic(random, index, `${random.pick(VERBS)}_${++n}`, false, writes.shift()));
    mechanical++;
  }
  while (semantic < size.semanticTriggers) {
    add(generic(random, index, `${random.pick(VERBS)}_${++n}`, true, writes.shift()));
    semantic++;
  }
  return triggers;
}

/** One write effect per storage key, handed to the first triggers so that every key read is also written. */
function storageWrites(): Json[] {
  return [
    ...STORAGE.number.map((key) => ({ type: "write-number", key, operator: "add", value: 1 })),
    ...STORAGE.boolean.map((key) => ({ type: "write-boolean", key, operator: "set", value: true })),
    ...STORAGE.string.map((key) => ({ type: "write-string", key, operator: "set", value: "north" })),
    ...STORAGE.array.map((key) => ({ type: "write-array", key, operator: "add", value: "seen" })),
  ];
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
}

function questInit(random: Random, index: WorldIndex, quest: string, isSemantic: boolean): Json {
  const location = random.pick([...index.locations.keys()]);
  const conditions: Json[] = [{ type: "game-tick", operator: "greaterThan", value: 0 }];
  conditions.push(
    isSemantic
      ? { type: "action", query: `The player asks around about ${quest.toLowerCase()}.` }
      : { type: "party-location", operator: "equals", value: location },
  );
  return {
    name: `start_${slug(quest)}`,
    conditions,
    effects: [
      { type: "quest-init", operator: "set", value: quest },
      { type: "story", instruction: `Someone mentions ${quest.toLowerCase()} and who lost it.` },
    ],
  };
}

/** How many conditions/effects: mostly one to three, rarely up to the cap of five. */
function count(random: Random, weights: readonly number[]): number {
  let roll = random.next() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < weights.length; i++) {
    roll -= weights[i]!;
    if (roll < 0) return i + 1;
  }
  return weights.length;
}

function generic(random: Random, index: WorldIndex, name: string, isSemantic: boolean, write?: Json): Json {
  const conditions: Json[] = [];
  if (isSemantic)
    conditions.push(
      random.chance(0.5)
        ? { type: "story", query: random.pick(STORY_QUERIES) }
        : { type: "action", query: random.pick(ACTION_QUERIES) },
    );
  const wanted = count(random, [30, 35, 20, 10, 5]);
  const kinds = random.sample(MECHANICAL_CONDITIONS, wanted);
  for (const make of kinds) {
    if (conditions.length >= wanted) break;
    conditions.push(...make(random, index).slice(0, wanted - conditions.length));
  }
  const effects: Json[] = write ? [write] : [];
  const effectCount = count(random, [45, 30, 15, 6, 4]);
  while (effects.length < effectCount) effects.push(random.pick(EFFECTS)(random, index));
  gateStoryEffects(conditions, effects);
  const trigger: Json = { name, conditions, effects };
  if (random.chance(0.25)) trigger.recurring = true;
  if (random.chance(0.05)) trigger.scope = "player";
  if (random.chance(0.04)) trigger.script = random.pick(SCRIPTS)(random);
  return trigger;
}

/**
 * A story effect that fires at tick 0 misses the opening (spec 3); authors gate it on the
 * tick, so the generated triggers do too.
 */
function gateStoryEffects(conditions: Json[], effects: Json[]): void {
  if (!effects.some((e) => e.type === "story") || conditions.some((c) => c.type === "game-tick")) return;
  const gate = { type: "game-tick", operator: "greaterThan", value: 0 };
  if (conditions.length < 5) conditions.push(gate);
  else conditions[4] = gate;
}

type Maker = (random: Random, index: WorldIndex) => Json[];

const MECHANICAL_CONDITIONS: Maker[] = [
  (r) => [{ type: "game-tick", operator: "greaterThan", value: r.int(1, 40) }],
  (r) => [{ type: "player-level", operator: "greaterThanOrEqual", value: r.int(2, 15) }],
  (r) => [
    { type: "player-resource", resource: r.pick(RESOURCES), operator: "lessThan", value: r.int(3, 15) },
  ],
  (r, w) => [
    { type: "player-traits", operator: r.pick(["contains", "notContains"]), value: r.pick(w.traits) },
  ],
  (r, w) => {
    const location = r.pick([...w.locations.keys()]);
    const areas = w.locations.get(location)!.areas;
    return [
      { type: "party-location", operator: "equals", value: location },
      { type: "party-area", operator: "equals", value: r.pick(areas) },
    ];
  },
  (r, w) => [{ type: "party-region", operator: r.pick(["equals", "notEquals"]), value: r.pick(w.regions) }],
  (r, w) => [{ type: "known-entity", entity: r.pick(w.npcs), operator: "equals", value: r.chance(0.5) }],
  (r, w) => [{ type: "quests-completed", operator: "contains", value: r.pick(w.quests) }],
  (r, w) => [{ type: "quest-status", questId: r.pick(w.quests), operator: "equals", value: "accepted" }],
  (r, w) => [
    { type: "narrative-event-status", eventId: r.pick(w.events), operator: "equals", value: "completed" },
  ],
  (r) => [{ type: "story-text", operator: "contains", value: r.pick(["storm", "bell", "smoke", "singing"]) }],
  () => [{ type: "action-text", operator: "regex", value: "\\b(open|force|pry)\\b" }],
  (r) => [{ type: "read-number", key: r.pick(STORAGE.number), operator: "greaterThan", value: r.int(0, 5) }],
  (r) => [{ type: "read-boolean", key: r.pick(STORAGE.boolean), operator: "equals", value: true }],
  (r) => [{ type: "read-string", key: r.pick(STORAGE.string), operator: "equals", value: "north" }],
  (r) => [{ type: "read-array", key: r.pick(STORAGE.array), operator: "contains", value: "seen" }],
];

type EffectMaker = (random: Random, index: WorldIndex) => Json;

const EFFECTS: EffectMaker[] = [
  (r) => ({ type: "story", instruction: `${sentence(r)} Mention it briefly.` }),
  (r) => ({ type: "story", instruction: `${sentence(r)} ${sentence(r)}` }),
  (r) => ({ type: "write-number", key: r.pick(STORAGE.number), operator: "add", value: 1 }),
  (r) => ({ type: "write-boolean", key: r.pick(STORAGE.boolean), operator: "set", value: true }),
  (r) => ({ type: "write-array", key: r.pick(STORAGE.array), operator: "add", value: "seen" }),
  (r) => ({
    type: "player-resource",
    resource: r.pick(RESOURCES),
    operator: r.pick(["add", "subtract"]),
    value: r.int(1, 5),
  }),
  (r, w) => ({ type: "known-entity", entity: r.pick(w.npcs), operator: "set", value: true }),
  (r, w) => ({ type: "party-location", operator: "set", value: r.pick([...w.locations.keys()]) }),
  (r, w) => ({ type: "player-traits", operator: "add", value: r.pick(w.traits) }),
  (r, w) => ({ type: "quest-progress", questId: r.pick(w.quests) }),
  (r, w) => {
    const [quest, ids] = r.pick([...w.objectives]);
    return {
      type: r.pick(["quest-objective-reveal", "quest-objective-complete"]),
      questId: quest,
      objectiveId: r.pick(ids),
    };
  },
  (r, w) => ({
    type: "quest-next-step-set",
    questId: r.pick(w.quests),
    text: sentence(r),
    source: "objective",
  }),
  (r, w) => ({ type: "narrative-event-start", eventId: r.pick(w.events) }),
];

const SCRIPTS: ((random: Random) => string)[] = [
  (r) => {
    const key = r.pick(STORAGE.number);
    return `const count = (storage.${key} ?? 0) + 1;\nstorage.${key} = count;\nif (count % 3 !== 0) skip = true;`;
  },
  () =>
    [
      'const levels = check({ type: "player-level" });',
      "const best = Math.max(0, ...Object.values(levels));",
      'if (best >= 5) effects.push({ type: "story", instruction: "The veterans nod with respect." });',
    ].join("\n"),
  (r) => {
    const key = r.pick(STORAGE.boolean);
    return `if (/storm|thunder/i.test(check({ type: "story-text" }))) {\n  storage.${key} = true;\n} else {\n  skip = true;\n}`;
  },
  (r) => {
    const attribute = r.pick(ATTRIBUTES);
    return `log("checking ${attribute}");\nif (info.engineVersion < 33) skip = true;`;
  },
];
