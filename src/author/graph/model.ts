import { indexWorld, objectiveQuestOf, phaseOf } from "../../engine/index.ts";
import type { ConditionType } from "../../world/schema/conditions.ts";
import type { EffectType } from "../../world/schema/effects.ts";
import { otherType } from "../../world/schema/exhaustive.ts";
import type { Trigger, World } from "../../world/schema/index.ts";
import { inspectScript } from "../../world/script/inspect.ts";

/**
 * A world's logic as a graph: which triggers move which quests and narrative
 * events, which storage keys they write and read, and which quest or event
 * statuses they wait for. Quest chains show as quest -> trigger -> quest.
 * The renderers (mermaid.ts, dot.ts, svg.ts) draw this one model, so the three
 * formats always agree.
 */
export interface WorldGraph {
  /** Triggers (world map order, then engine-made), quests, events, storage keys (first use). */
  nodes: GraphNode[];
  /** In the order found; no two are identical. */
  edges: GraphEdge[];
}

export type NodeKind = "trigger" | "quest" | "event" | "storage";

export interface GraphNode {
  /** `kind:key`: unique, as keys of different sections may be equal. */
  id: string;
  kind: NodeKind;
  key: string;
  /** Named by a condition or effect but not defined in the world (storage keys are never missing). */
  missing: boolean;
  /** Present on trigger nodes. */
  trigger?: TriggerInfo;
}

export interface TriggerInfo {
  /** Spec 3 "Phases": planning when it has an `action` or `action-text` condition. */
  phase: "planning" | "state";
  recurring: boolean;
  scripted: boolean;
  /** The `{questId}_objective` trigger the engine adds to a detailed quest (resolutions "Quests"). */
  engineMade: boolean;
  /** Has a `story` or `action` condition, judged by the AI. */
  aiJudged: boolean;
  /** Spec 2.2 `scope: "player"`. */
  playerScope: boolean;
}

export type EdgeKind =
  | "quest-init"
  | "quest-progress"
  | "quest-complete"
  | "objective-reveal"
  | "objective-complete"
  | "next-step"
  | "event-start"
  | "write"
  | "read"
  | "quest-status"
  | "quests-completed"
  | "event-status";

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  /** Short text for the arrow: "init", "reveal find_mara", "complete quest", "is accepted". */
  label: string;
  /** Found in the trigger's script (spec 4) rather than in its typed conditions or effects. */
  viaScript: boolean;
}

/** The node id of a key of a kind. */
export function nodeId(kind: NodeKind, key: string): string {
  return `${kind}:${key}`;
}

type Loose = Record<string, unknown>;

/**
 * Builds the graph. Takes a world as the validator's rules see it: records of
 * the right shape, but conditions and effects only known to be objects with a
 * `type`, so every field is read with a type check.
 */
export function buildGraph(world: World): WorldGraph {
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  const quests = world.quests;
  const events = world.narrativeEvents ?? {};

  const node = (kind: NodeKind, key: string): string => {
    const id = nodeId(kind, key);
    if (!nodes.has(id)) {
      const defined =
        kind === "storage" ||
        (kind === "quest" && Object.hasOwn(quests, key)) ||
        (kind === "event" && Object.hasOwn(events, key)) ||
        kind === "trigger";
      nodes.set(id, { id, kind, key, missing: !defined });
    }
    return id;
  };
  const edge = (from: string, to: string, kind: EdgeKind, label: string, viaScript = false) => {
    const key = JSON.stringify([from, to, kind, label, viaScript]);
    if (!edges.has(key)) edges.set(key, { from, to, kind, label, viaScript });
  };

  // Triggers come first so that their order (the map order the engine fires them in) leads.
  const made = indexWorld(world).madeTriggers;
  const triggers: [string, Trigger, boolean][] = [
    ...Object.entries(world.triggers).map(([k, t]): [string, Trigger, boolean] => [k, t, false]),
    ...Object.entries(made).map(([k, t]): [string, Trigger, boolean] => [k, t, true]),
  ];
  for (const [key, trigger, engineMade] of triggers) {
    const id = node("trigger", key);
    nodes.get(id)!.trigger = triggerInfo(trigger, engineMade);
  }
  for (const key of Object.keys(quests)) node("quest", key);
  for (const key of Object.keys(events)) node("event", key);

  for (const [key, trigger] of triggers) {
    const id = nodeId("trigger", key);
    // The engine keeps `{questId}_objective(_N)` triggers out of play until the quest is accepted (spec 2.2 "Naming").
    const gate = objectiveQuestOf(world, key);
    if (gate !== undefined) edge(node("quest", gate), id, "quest-status", "is accepted");
    for (const condition of list(trigger.conditions)) conditionEdge(condition, id, node, edge);
    for (const effect of list(trigger.effects)) effectEdge(effect, id, node, edge, false);
    if (typeof trigger.script === "string") scriptEdges(trigger.script, id, node, edge);
  }
  for (const [key, event] of Object.entries(events)) {
    const id = nodeId("event", key);
    for (const effect of list(event.onCompleteEffects)) effectEdge(effect, id, node, edge, false);
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

type NodeFn = (kind: NodeKind, key: string) => string;
type EdgeFn = (from: string, to: string, kind: EdgeKind, label: string, viaScript?: boolean) => void;

function triggerInfo(trigger: Trigger, engineMade: boolean): TriggerInfo {
  const conditions = list(trigger.conditions);
  return {
    phase: phaseOf({ ...trigger, conditions: conditions as Trigger["conditions"] }),
    recurring: trigger.recurring === true,
    scripted: typeof trigger.script === "string" && trigger.script.trim() !== "",
    engineMade,
    aiJudged: conditions.some((c) => c.type === "story" || c.type === "action"),
    playerScope: trigger.scope === "player",
  };
}

/** Conditions that wait on something another part of the world changes. */
function conditionEdge(condition: Loose, trigger: string, node: NodeFn, edge: EdgeFn): void {
  const not = condition.operator === "notEquals" || condition.operator === "notContains" ? "not " : "";
  // Any string at run time; typed as the schema's types so that a new one is a compile error below.
  const type = condition.type as ConditionType;
  switch (type) {
    case "read-string":
    case "read-number":
    case "read-boolean":
    case "read-array":
      if (typeof condition.key === "string") edge(node("storage", condition.key), trigger, "read", "read");
      return;
    case "quest-status":
      if (typeof condition.questId === "string")
        edge(
          node("quest", condition.questId),
          trigger,
          "quest-status",
          `is ${not}${String(condition.value)}`,
        );
      return;
    case "quests-completed":
      if (typeof condition.value === "string")
        edge(node("quest", condition.value), trigger, "quests-completed", `${not}completed`);
      return;
    case "narrative-event-status":
      if (typeof condition.eventId === "string")
        edge(
          node("event", condition.eventId),
          trigger,
          "event-status",
          `is ${not}${String(condition.value)}`,
        );
      return;
    // Nothing another part of the world changes: the tick, the party, the story and the actions.
    case "game-tick":
    case "player-level":
    case "player-resource":
    case "player-traits":
    case "party-realm":
    case "party-region":
    case "party-location":
    case "party-area":
    case "known-entity":
    case "story-text":
    case "action-text":
    case "story":
    case "action":
      return;
    default:
      otherType(type);
  }
}

/** Effects that move a quest or an event, or write storage; from a trigger or an event's onCompleteEffects. */
function effectEdge(effect: Loose, from: string, node: NodeFn, edge: EdgeFn, viaScript: boolean): void {
  const quest = typeof effect.questId === "string" ? effect.questId : undefined;
  const objective = typeof effect.objectiveId === "string" ? effect.objectiveId : "?";
  // Any string at run time; typed as the schema's types so that a new one is a compile error below.
  const type = effect.type as EffectType;
  switch (type) {
    case "quest-init":
      if (typeof effect.value === "string")
        edge(from, node("quest", effect.value), "quest-init", "init", viaScript);
      return;
    case "quest-progress":
      if (quest !== undefined) edge(from, node("quest", quest), "quest-progress", "progress", viaScript);
      return;
    case "quest-complete":
      if (quest !== undefined)
        edge(from, node("quest", quest), "quest-complete", "complete quest", viaScript);
      return;
    case "quest-objective-reveal":
      if (quest !== undefined)
        edge(from, node("quest", quest), "objective-reveal", `reveal ${objective}`, viaScript);
      return;
    case "quest-objective-complete":
      if (quest !== undefined)
        edge(from, node("quest", quest), "objective-complete", `complete ${objective}`, viaScript);
      return;
    case "quest-next-step-set":
    case "quest-next-step-clear":
      if (quest !== undefined)
        edge(
          from,
          node("quest", quest),
          "next-step",
          type === "quest-next-step-set" ? "next step" : "clear next step",
          viaScript,
        );
      return;
    case "narrative-event-start":
      if (typeof effect.eventId === "string")
        edge(from, node("event", effect.eventId), "event-start", "start", viaScript);
      return;
    case "write-string":
    case "write-number":
    case "write-boolean":
    case "write-array":
      if (typeof effect.key === "string")
        edge(from, node("storage", effect.key), "write", "write", viaScript);
      return;
    // Not drawn: the story, next steps of the party, the party's place and characters, known entities.
    case "story":
    case "party-next-step-set":
    case "party-next-step-clear":
    case "party-realm":
    case "party-region":
    case "party-location":
    case "party-area":
    case "player-resource":
    case "player-traits":
    case "known-entity":
      return;
    default:
      otherType(type);
  }
}

/**
 * What reading the script tells (src/world/script/inspect.ts): literal storage keys
 * read and written, and literal quest-init objects. A script that does not
 * parse adds nothing; `taleforge check` reports it.
 */
function scriptEdges(script: string, trigger: string, node: NodeFn, edge: EdgeFn): void {
  const inspected = inspectScript(script);
  if (!inspected.ok) return;
  const { questInits, storage } = inspected.analysis;
  for (const key of storage.reads) edge(node("storage", key), trigger, "read", "read", true);
  for (const key of storage.writes) edge(trigger, node("storage", key), "write", "write", true);
  for (const { quest } of questInits) edge(trigger, node("quest", quest), "quest-init", "init", true);
}

function list(value: unknown): Loose[] {
  return Array.isArray(value)
    ? value.filter((v): v is Loose => v !== null && typeof v === "object" && !Array.isArray(v))
    : [];
}

/** Short words for a trigger's marks, in a fixed order: "planning", "recurring", "script", "AI", "engine-made". */
export function triggerTags(info: TriggerInfo): string[] {
  const tags: string[] = [info.phase];
  if (info.recurring) tags.push("recurring");
  if (info.scripted) tags.push("script");
  if (info.aiJudged) tags.push("AI-judged");
  if (info.playerScope) tags.push("player scope");
  if (info.engineMade) tags.push("engine-made");
  return tags;
}

const KIND_NAMES: Record<NodeKind, string> = {
  trigger: "trigger",
  quest: "quest",
  event: "narrative event",
  storage: "storage key",
};

/** The second line of a node's label in every format: a trigger's marks, else what the node is. */
export function nodeNote(node: GraphNode): string {
  if (node.trigger) return triggerTags(node.trigger).join(" · ");
  return node.missing ? `${KIND_NAMES[node.kind]}, not defined` : KIND_NAMES[node.kind];
}
