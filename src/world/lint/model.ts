import { conditionPlan, isWellFormedEffect } from "../check-plans.ts";
import type { JsonPath } from "../diagnostic.ts";
import { makesObjectiveTrigger, objectiveQuestOf, objectiveTriggerKey } from "../objectives.ts";
import { areasByLocation, destinationNames, entityNames, keysOf, type PlaceType } from "../rules/names.ts";
import { CONDITION_TYPES, isConditionType } from "../schema/condition-table.ts";
import { inspectScript, type ScriptPosition } from "../script/inspect.ts";
import { accepts } from "../shape-plan.ts";
import { elementsOf, entriesOf, isPlainObject } from "../values.ts";

/**
 * A world as the reachability analysis sees it: every authored trigger, the
 * `{questId}_objective` triggers the engine makes (resolutions "Quests") and
 * every narrative event's completion, each with the well-formed conditions
 * that gate it and the effects it can apply (typed ones, and the ones its
 * script writes literally). Read from the world as written; never throws.
 */

/** A well-formed condition (malformed ones are left to `check` and treated as "may hold"). */
export interface Condition {
  index: number;
  path: JsonPath;
  type: string;
  operator: string;
  value: unknown;
  /** The storage key, quest, event or entity it names (refFieldOf); "" when none. */
  ref: string;
  /** What it is about, once worked out (conditions.ts, subjectOf); null when not analysed. */
  subject?: string | null;
}

/** An effect that can apply: typed and well-formed, or an object literal in a script. */
export interface EffectSite {
  type: string;
  fields: Readonly<Record<string, unknown>>;
  /** Fields a script computes at run time: any value may come out. */
  computed: readonly string[];
  /** The effect in the file, or the script that writes it. */
  path: JsonPath;
  /** For messages: `trigger "x"`, `the script of trigger "x" (line 3)`, `narrative event "y"`. */
  where: string;
  /** The index in its typed `effects` list; absent for script effects. */
  index?: number;
  /** The line in the script, for script effects. */
  line?: number;
}

export interface StorageSite {
  key: string;
  path: JsonPath;
  where: string;
}

export interface Actor {
  kind: "trigger" | "made-objective" | "event";
  /** The trigger key, or the narrative event key for an event's completion. */
  key: string;
  path: JsonPath;
  conditions: Condition[];
  /** A trigger with a `script` (which may replace or remove its typed effects). */
  hasScript: boolean;
  /** The quest that must be `accepted` for this trigger to be in the pool (spec 2.2 "Naming"). */
  objectiveOf?: string;
  effects: EffectSite[];
  /** Storage keys the script writes (with any value). */
  scriptWrites: StorageSite[];
  /** The script may write any key (computed keys, `storage` used as a value). */
  scriptWritesAll: boolean;
  /** The script may do anything: where reading it stops. */
  opaque: ScriptPosition | null;
}

/** Every name a `party-*` position can hold, by condition type; absent when the section is not an object. */
export type Places = Partial<Record<PlaceType, Set<string>>>;

export interface WorldModel {
  actors: Actor[];
  /** Authored triggers by key. */
  triggers: Map<string, Actor>;
  quests: ReadonlySet<string>;
  /** Quests a story start makes available at game start (resolutions "Quests"). */
  startingQuests: Set<string>;
  events: ReadonlySet<string>;
  places: Places;
  /** Location key -> its area keys. */
  areasOf: Map<string, Set<string>>;
  /** Names that can be known without an effect naming them (records, and places arrival marks). */
  entities: Set<string>;
  /** Every storage read: `read-*` conditions (well-formed or not) and literal script reads. */
  reads: StorageSite[];
  /** Some script reads keys that cannot be listed. */
  readsAll: boolean;
}

/**
 * The field naming what a condition is about (its `ref`): the first field its
 * type requires in the condition table (`key`, `questId`, `eventId`,
 * `entity`...), or the quest a `quests-completed` names; undefined when the
 * condition is about one value of the state (the tick, the party's position).
 */
export function refFieldOf(type: string): string | undefined {
  if (!isConditionType(type)) return undefined;
  return type === "quests-completed" ? "value" : CONDITION_TYPES[type].fields[0];
}

export function buildModel(raw: Readonly<Record<string, unknown>>): WorldModel {
  const quests = keysOf(raw, "quests") ?? new Set<string>();
  const areas = areasByLocation(raw);
  const given = givenNames(raw);
  const model: WorldModel = {
    actors: [],
    triggers: new Map(),
    quests,
    startingQuests: startingQuests(raw),
    events: keysOf(raw, "narrativeEvents") ?? new Set(),
    places: places(destinationNames(raw, areas), given),
    areasOf: new Map([...areas].map(([location, byName]) => [location, new Set(byName.keys())] as const)),
    entities: entities(raw, given),
    reads: [],
    readsAll: false,
  };
  for (const [key, trigger] of entriesOf(raw.triggers)) {
    const actor = triggerActor(key, trigger, model);
    const quest = objectiveQuestOf(key, quests);
    if (quest !== undefined) actor.objectiveOf = quest;
    model.actors.push(actor);
    model.triggers.set(key, actor);
  }
  for (const [key, quest] of entriesOf(raw.quests)) {
    if (!makesObjectiveTrigger(quest)) continue;
    const name = objectiveTriggerKey(key);
    if (model.triggers.has(name)) continue;
    model.actors.push({
      ...emptyActor("made-objective", name, ["quests", key, "completionCondition"]),
      objectiveOf: key,
      effects: [
        {
          type: "quest-progress",
          fields: { type: "quest-progress", questId: key },
          computed: [],
          path: ["quests", key, "completionCondition"],
          where: `the engine-made trigger ${JSON.stringify(name)}`,
        },
      ],
    });
  }
  for (const [key, event] of entriesOf(raw.narrativeEvents)) {
    if (!isPlainObject(event)) continue;
    const actor = emptyActor("event", key, ["narrativeEvents", key]);
    actor.effects = typedEffects(
      event.onCompleteEffects,
      ["narrativeEvents", key, "onCompleteEffects"],
      `narrative event ${JSON.stringify(key)}`,
    );
    model.actors.push(actor);
  }
  return model;
}

function emptyActor(kind: Actor["kind"], key: string, path: JsonPath): Actor {
  return {
    kind,
    key,
    path,
    conditions: [],
    hasScript: false,
    effects: [],
    scriptWrites: [],
    scriptWritesAll: false,
    opaque: null,
  };
}

function triggerActor(key: string, trigger: unknown, model: WorldModel): Actor {
  const path = ["triggers", key];
  const actor = emptyActor("trigger", key, path);
  if (!isPlainObject(trigger)) return actor;
  const where = `trigger ${JSON.stringify(key)}`;
  // Plain loops and array literals: this runs once per condition of the world, mostly before the JIT compiles it.
  const conditions = elementsOf(trigger.conditions);
  for (let index = 0; index < conditions.length; index++) {
    const condition = conditions[index];
    if (!isPlainObject(condition)) continue;
    const at = ["triggers", key, "conditions", index];
    if (typeof condition.type === "string" && condition.type.startsWith("read-")) {
      if (typeof condition.key === "string")
        model.reads.push({ key: condition.key, path: ["triggers", key, "conditions", index, "key"], where });
    }
    const compiled = compileCondition(condition, index, at);
    if (compiled) actor.conditions.push(compiled);
  }
  actor.effects = typedEffects(trigger.effects, ["triggers", key, "effects"], where);
  if (typeof trigger.script === "string") {
    actor.hasScript = true;
    addScript(actor, trigger.script, model);
  }
  return actor;
}

function compileCondition(
  condition: Record<string, unknown>,
  index: number,
  path: JsonPath,
): Condition | null {
  const type = condition.type;
  if (!isConditionType(type) || !accepts(conditionPlan(type), condition)) return null;
  const field = refFieldOf(type);
  const ref = field === undefined ? "" : condition[field];
  return {
    index,
    path,
    type,
    operator: typeof condition.operator === "string" ? condition.operator : "",
    value: condition.value,
    ref: typeof ref === "string" ? ref : "",
  };
}

/** The `computed` of a typed effect, shared: nothing in it is computed at run time. */
const NOTHING_COMPUTED: readonly string[] = Object.freeze([]);

/** The well-formed effects of a typed list (the engine drops the others, spec 2.2). */
function typedEffects(list: unknown, path: JsonPath, where: string): EffectSite[] {
  const out: EffectSite[] = [];
  const effects = elementsOf(list);
  for (let index = 0; index < effects.length; index++) {
    const effect = effects[index];
    if (!isPlainObject(effect) || !isWellFormedEffect(effect)) continue;
    out.push({
      type: effect.type as string,
      fields: effect,
      computed: NOTHING_COMPUTED,
      path: path.concat(index),
      where,
      index,
    });
  }
  return out;
}

function addScript(actor: Actor, source: string, model: WorldModel): void {
  const inspected = inspectScript(source);
  // A script that does not parse never runs (its typed effects still apply).
  if (!inspected.ok) return;
  const { storage, effects } = inspected.analysis;
  const path = [...actor.path, "script"];
  const where = `the script of trigger ${JSON.stringify(actor.key)}`;
  actor.opaque = effects.opaque;
  actor.scriptWritesAll = storage.dynamic || storage.reassigned || effects.opaque !== null;
  for (const key of storage.writes) actor.scriptWrites.push({ key, path, where });
  for (const key of [...storage.reads, ...effects.checkReads]) model.reads.push({ key, path, where });
  // checkReadsDynamic includes an opaque script.
  if (storage.dynamic || effects.checkReadsDynamic) model.readsAll = true;
  for (const literal of effects.literals) {
    // A literal the engine would drop as malformed applies nothing; one with computed fields may be anything of its type.
    if (literal.computed.length === 0 && !isWellFormedEffect(literal.fields)) continue;
    actor.effects.push({
      type: literal.type,
      fields: literal.fields,
      computed: literal.computed,
      path,
      where: `${where} (line ${literal.at.line})`,
      line: literal.at.line,
    });
  }
}

function startingQuests(raw: Readonly<Record<string, unknown>>): Set<string> {
  const out = new Set<string>();
  for (const [, start] of entriesOf(raw.storyStarts)) {
    if (!isPlainObject(start)) continue;
    for (const quest of elementsOf(start.startingQuests)) if (typeof quest === "string") out.add(quest);
  }
  return out;
}

/** The region names locations give and the realm names regions give, in map order (they may name no record). */
function givenNames(raw: Readonly<Record<string, unknown>>): { regions: string[]; realms: string[] } {
  const regions: string[] = [];
  for (const [, location] of entriesOf(raw.locations))
    if (isPlainObject(location) && typeof location.region === "string") regions.push(location.region);
  const realms: string[] = [];
  for (const [, region] of entriesOf(raw.regions))
    if (isPlainObject(region) && typeof region.realm === "string") realms.push(region.realm);
  return { regions, realms };
}

/** Every name the party's position can hold: the destinations, "", and the names a location's region or a region's realm give. */
function places(
  destinations: ReadonlyMap<PlaceType, ReadonlySet<string>>,
  given: { regions: string[]; realms: string[] },
): Places {
  const out: Places = {};
  const locations = destinations.get("party-location");
  const areas = destinations.get("party-area");
  const regions = destinations.get("party-region");
  const realms = destinations.get("party-realm");
  if (locations) out["party-location"] = new Set([...locations, ""]);
  if (areas) out["party-area"] = new Set(["", ...areas]);
  if (regions) out["party-region"] = new Set([...regions, "", ...given.regions]);
  if (realms) out["party-realm"] = new Set([...realms, "", ...given.realms]);
  return out;
}

function entities(
  raw: Readonly<Record<string, unknown>>,
  given: { regions: string[]; realms: string[] },
): Set<string> {
  const names = entityNames(raw);
  for (const region of given.regions) names.add(region);
  for (const realm of given.realms) names.add(realm);
  for (const [, start] of entriesOf(raw.storyStarts)) {
    if (!isPlainObject(start)) continue;
    for (const npc of elementsOf(start.startingPartyNPCs)) if (typeof npc === "string") names.add(npc);
  }
  return names;
}
