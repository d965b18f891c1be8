import type { AnyNode } from "acorn";
import { simple } from "acorn-walk";
import type { Node } from "jsonc-parser";
import { offsetInJsonLiteral, parseScript } from "../world/script/inspect.ts";

/**
 * Every name a world defines and every place that names it, read from the
 * syntax tree of the text as it is in the editor (so positions are exact and
 * a half-typed file still has its names). The kinds and the fields that hold
 * each kind are written once here, from the format's field descriptions
 * ("The key of the location where…"): definitions, references, rename and
 * completion all read this one table.
 */

export type NameKind =
  | "realm"
  | "region"
  | "location"
  | "area"
  | "faction"
  | "npc"
  | "npcType"
  | "quest"
  | "objective"
  | "item"
  | "trait"
  | "traitCategory"
  | "ability"
  | "skill"
  | "trigger"
  | "event"
  | "gameMode"
  | "storyStart"
  | "resource"
  | "storage";

/** The sections whose keys define names, and the kind of name each defines. */
export const SECTION_KINDS: Readonly<Record<string, NameKind>> = {
  realms: "realm",
  regions: "region",
  locations: "location",
  factions: "faction",
  npcs: "npc",
  npcTypes: "npcType",
  quests: "quest",
  items: "item",
  traits: "trait",
  traitCategories: "traitCategory",
  abilities: "ability",
  skills: "skill",
  triggers: "trigger",
  narrativeEvents: "event",
  gameModes: "gameMode",
  storyStarts: "storyStart",
  resourceSettings: "resource",
};

/** How each kind is called in hovers and completion details. */
export const KIND_LABELS: Readonly<Record<NameKind, string>> = {
  realm: "realm",
  region: "region",
  location: "location",
  area: "area",
  faction: "faction",
  npc: "NPC",
  npcType: "NPC type",
  quest: "quest",
  objective: "objective",
  item: "item",
  trait: "trait",
  traitCategory: "trait category",
  ability: "ability",
  skill: "skill",
  trigger: "trigger",
  event: "narrative event",
  gameMode: "game mode",
  storyStart: "story start",
  resource: "resource",
  storage: "storage key",
};

/** What a `known-entity` may name (as the check rule `reference/unknown-entity` reads it). */
const ENTITY_KINDS: NameKind[] = ["realm", "region", "location", "faction", "npc"];

/**
 * How one occurrence names its thing: `key` (the key of its record), `name`
 * (the record's `name` or objective's `id` field, equal to the key), `ref` (a
 * field that holds the name), `script` (a string literal or `storage.key` in
 * a trigger's script).
 */
export type Role = "key" | "name" | "ref" | "script";

export interface Occurrence {
  /**
   * `kind:name`; `objective:quest/objective` and `area:location NUL area`: objectives are named inside
   * their quest and areas inside their location (two locations may each have a "Gate").
   */
  id: string;
  kind: NameKind;
  name: string;
  role: Role;
  /** Offset and length in the text of the whole token (quotes included), or of the identifier in a script. */
  offset: number;
  length: number;
  /** For `script`: how the name is written (`"`, `'` or `.` for `storage.key`), so rename can write it back. */
  quote?: string;
  /** The JSON path of the node holding it. */
  path: (string | number)[];
}

export interface NameIndex {
  occurrences: Occurrence[];
  byId: Map<string, Occurrence[]>;
  /** Defined names of each kind, in text order (storage keys: every key used). */
  names: Map<NameKind, string[]>;
}

export function idOf(kind: NameKind, name: string): string {
  return `${kind}:${name}`;
}

type Path = (string | number)[];

/** The value of a tree node that is a string, else undefined. */
function stringOf(node: Node | undefined): string | undefined {
  return node?.type === "string" && typeof node.value === "string" ? node.value : undefined;
}

/** An object node's member value by key. */
export function member(node: Node | undefined, key: string): Node | undefined {
  if (node?.type !== "object") return undefined;
  for (const property of node.children ?? []) {
    const [k, v] = property.children ?? [];
    if (k?.value === key) return v;
  }
  return undefined;
}

/** An object node's members as [key node, value node]. */
export function members(node: Node | undefined): [Node, Node | undefined][] {
  if (node?.type !== "object") return [];
  const out: [Node, Node | undefined][] = [];
  for (const property of node.children ?? []) {
    const [k, v] = property.children ?? [];
    if (k) out.push([k, v]);
  }
  return out;
}

/** The kind a condition's field names, by the condition's type (undefined: the field holds no name). */
export function conditionFieldKind(
  type: string,
  field: string,
  operator: unknown,
): NameKind | "entity" | undefined {
  if (field === "value" && operator === "regex") return undefined;
  switch (type) {
    case "party-realm":
      return field === "value" ? "realm" : undefined;
    case "party-region":
      return field === "value" ? "region" : undefined;
    case "party-location":
      return field === "value" ? "location" : undefined;
    case "party-area":
      return field === "value" ? "area" : undefined;
    case "known-entity":
      return field === "entity" ? "entity" : undefined;
    case "quests-completed":
      return field === "value" ? "quest" : undefined;
    case "quest-status":
      return field === "questId" ? "quest" : undefined;
    case "narrative-event-status":
      return field === "eventId" ? "event" : undefined;
    case "player-traits":
      return field === "value" ? "trait" : undefined;
    case "player-resource":
      return field === "resource" ? "resource" : undefined;
    default:
      return type.startsWith("read-") && field === "key" ? "storage" : undefined;
  }
}

/** The kind an effect's field names, by the effect's type. */
export function effectFieldKind(type: string, field: string): NameKind | "entity" | undefined {
  if (field === "questId") return "quest";
  if (field === "objectiveId") return "objective";
  switch (type) {
    case "quest-init":
      return field === "value" ? "quest" : undefined;
    case "narrative-event-start":
      return field === "eventId" ? "event" : undefined;
    case "party-realm":
      return field === "value" ? "realm" : undefined;
    case "party-region":
      return field === "value" ? "region" : undefined;
    case "party-location":
      return field === "value" ? "location" : undefined;
    case "party-area":
      return field === "value" ? "area" : undefined;
    case "known-entity":
      return field === "entity" ? "entity" : undefined;
    case "player-traits":
      return field === "value" ? "trait" : undefined;
    case "player-resource":
      return field === "resource" ? "resource" : undefined;
    default:
      return type.startsWith("write-") && field === "key" ? "storage" : undefined;
  }
}

/**
 * The kind of name a string at `path` holds, outside conditions and effects:
 * `[section, record, field]` or `[section, record, field, index]`, with `#`
 * for any index and `*` for any key. Read from the field descriptions of the format.
 */
const FIELD_KINDS: [string, NameKind][] = [
  ["regions/*/realm", "realm"],
  ["regions/*/factions/#", "faction"],
  ["locations/*/region", "region"],
  ["locations/*/factions/#", "faction"],
  ["locations/*/areas/*/paths/#", "area"],
  ["npcs/*/type", "npcType"],
  ["npcs/*/currentLocation", "location"],
  ["npcs/*/currentArea", "area"],
  ["npcs/*/faction", "faction"],
  ["npcs/*/abilities/#", "ability"],
  ["quests/*/questGiverNPC", "npc"],
  ["quests/*/questLocation", "location"],
  ["quests/*/activeObjectiveId", "objective"],
  ["storyStarts/*/locations/#", "location"],
  ["storyStarts/*/locationAreas/#", "area"],
  ["storyStarts/*/startingQuests/#", "quest"],
  ["storyStarts/*/startingItems/#/item", "item"],
  ["storyStarts/*/startingPartyNPCs/#", "npc"],
  ["storyStarts/*/firstQuest", "quest"],
  ["traits/*/abilities/#", "ability"],
  ["traits/*/skills/#/skill", "skill"],
  ["traits/*/startingItems/#/item", "item"],
  ["traits/*/resources/#/resource", "resource"],
  ["traits/*/category", "traitCategory"],
  ["traits/*/unlockedBy/#", "trait"],
  ["traits/*/excludedBy/#", "trait"],
  ["traitCategories/*/traits/#", "trait"],
  ["skills/*/startingItems/#/item", "item"],
  ["itemSettings/startingItems/#/item", "item"],
  ["premadeCharacters/#/traits/#", "trait"],
  ["premadeCharacters/#/replacesNpc", "npc"],
];

const FIELD_PATTERNS = FIELD_KINDS.map(([pattern, kind]) => ({ steps: pattern.split("/"), kind }));

function fieldKind(path: Path): NameKind | undefined {
  for (const { steps, kind } of FIELD_PATTERNS) {
    if (steps.length !== path.length) continue;
    let ok = true;
    for (let i = 0; i < steps.length && ok; i++) {
      const step = steps[i]!;
      const segment = path[i]!;
      ok =
        step === "#"
          ? typeof segment === "number"
          : step === "*"
            ? typeof segment === "string"
            : step === segment;
    }
    if (ok) return kind;
  }
  return undefined;
}

/** Where conditions and effects live: `triggers/*\/conditions|effects/#` and `narrativeEvents/*\/onCompleteEffects/#`. */
function ruleListOf(path: Path): "condition" | "effect" | undefined {
  if (path.length !== 4 || typeof path[3] !== "number") return undefined;
  if (path[0] === "triggers" && path[2] === "conditions") return "condition";
  if (path[0] === "triggers" && path[2] === "effects") return "effect";
  if (path[0] === "narrativeEvents" && path[2] === "onCompleteEffects") return "effect";
  return undefined;
}

/**
 * The kind of name the string at `path` holds (`entity` for a `known-entity`,
 * which may be one of several kinds), given the tree, or undefined when it
 * holds no name. Used for completion at a half-typed value too.
 */
export function referenceKindAt(root: Node, path: Path): NameKind | "entity" | undefined {
  const plain = fieldKind(path);
  if (plain) return plain;
  // A condition or effect field: `[..., index, field]`, or `[..., index, "value", n]` for a list value.
  const field = path[4];
  const list = ruleListOf(path.slice(0, 4));
  if (!list || typeof field !== "string") return undefined;
  if (path.length !== 5 && !(path.length === 6 && typeof path[5] === "number" && field === "value"))
    return undefined;
  const record = nodeAt(root, path.slice(0, 4));
  const type = stringOf(member(record, "type"));
  if (!type) return undefined;
  return list === "condition"
    ? conditionFieldKind(type, field, member(record, "operator")?.value)
    : effectFieldKind(type, field);
}

/** The node at a path of the tree (keys and indexes), or undefined. */
export function nodeAt(root: Node | undefined, path: Path): Node | undefined {
  let node = root;
  for (const segment of path) {
    if (!node) return undefined;
    node =
      typeof segment === "number"
        ? node.children?.[segment] && node.type === "array"
          ? node.children[segment]
          : undefined
        : member(node, segment);
  }
  return node;
}

/** Builds the index of a world's names from its syntax tree. */
export function indexNames(root: Node | undefined, text: string): NameIndex {
  const occurrences: Occurrence[] = [];
  const defined = new Map<NameKind, Set<string>>();
  const define = (kind: NameKind, name: string) => {
    const set = defined.get(kind);
    if (set) set.add(name);
    else defined.set(kind, new Set([name]));
  };
  const add = (kind: NameKind, name: string, role: Role, node: Node, path: Path, id = idOf(kind, name)) =>
    occurrences.push({ id, kind, name, role, offset: node.offset, length: node.length, path });
  if (root?.type !== "object") return finish(occurrences, defined);
  /** Area name -> the locations that have an area of that name, in text order. */
  const areaHomes = new Map<string, string[]>();

  // Definitions: the keys of each section, their `name` fields, areas and objectives.
  for (const [sectionKey, section] of members(root)) {
    const kind = SECTION_KINDS[sectionKey.value as string];
    if (!kind) continue;
    for (const [key, record] of members(section)) {
      const name = key.value as string;
      const path = [sectionKey.value as string, name];
      define(kind, name);
      add(kind, name, "key", key, path);
      const nameNode = member(record, "name");
      if (stringOf(nameNode) === name && kind !== "resource")
        add(kind, name, "name", nameNode!, [...path, "name"]);
      if (kind === "location")
        for (const [areaKey] of members(member(record, "areas"))) {
          const area = areaKey.value as string;
          define("area", area);
          const homes = areaHomes.get(area);
          if (homes) homes.push(name);
          else areaHomes.set(area, [name]);
          add("area", area, "key", areaKey, [...path, "areas", area], areaId(name, area));
        }
      if (kind === "quest")
        for (const [objectiveKey, objective] of members(member(record, "objectives"))) {
          const objectiveName = objectiveKey.value as string;
          const id = idOf("objective", `${name}/${objectiveName}`);
          const objectivePath = [...path, "objectives", objectiveName];
          define("objective", objectiveName);
          add("objective", objectiveName, "key", objectiveKey, objectivePath, id);
          const idNode = member(objective, "id");
          if (stringOf(idNode) === objectiveName)
            add("objective", objectiveName, "name", idNode!, [...objectivePath, "id"], id);
        }
    }
  }

  // References: every string whose field holds a name.
  const entityKind = (name: string): NameKind | undefined =>
    ENTITY_KINDS.find((kind) => defined.get(kind)?.has(name));
  const visit = (node: Node, path: Path) => {
    if (node.type === "object") {
      for (const [key, value] of members(node)) if (value) visit(value, [...path, key.value as string]);
      return;
    }
    if (node.type === "array") {
      const children = node.children ?? [];
      for (let index = 0; index < children.length; index++) visit(children[index]!, [...path, index]);
      return;
    }
    const name = stringOf(node);
    if (name === undefined) return;
    if (path[0] === "triggers" && path[2] === "script" && path.length === 3) {
      scriptOccurrences(node, path, text, defined, areaHomes, occurrences);
      return;
    }
    let kind = referenceKindAt(root, path);
    if (kind === "entity") kind = entityKind(name);
    if (!kind) return;
    if (kind === "storage") define("storage", name);
    if (kind === "objective") {
      const quest = objectiveQuest(root, path);
      add(kind, name, "ref", node, path, idOf("objective", `${quest}/${name}`));
      return;
    }
    if (kind === "area") {
      for (const location of areaLocations(root, path, name, areaHomes))
        add(kind, name, "ref", node, path, areaId(location, name));
      return;
    }
    add(kind, name, "ref", node, path);
  };
  visit(root, []);
  return finish(occurrences, defined);
}

/** An area's id: `area:` its location, NUL (no name holds one), its name. */
export function areaId(location: string, area: string): string {
  return idOf("area", `${location}\u0000${area}`);
}

/**
 * The locations an area reference means, by its scope: the location whose `paths` hold it, the
 * NPC's `currentLocation`, the story start's `locations` that have it, or the `party-location` of
 * the same conditions or effects. With no scope (a `party-area` alone, a script literal), every
 * location that has an area of that name: the condition holds in any of them. A scope that lacks
 * the area still scopes it (a reference to nothing there, never to another location's area).
 */
function areaLocations(root: Node, path: Path, area: string, homes: Map<string, string[]>): string[] {
  const all = homes.get(area) ?? [""];
  const scope = areaScope(root, path);
  if (scope === undefined) return all;
  const inScope = all.filter((location) => scope.includes(location));
  return inScope.length > 0 ? inScope : [scope[0] ?? ""];
}

/** The locations that scope an area reference at `path`, or undefined when nothing does. */
export function areaScope(root: Node, path: Path): string[] | undefined {
  if (path[0] === "locations" && path[2] === "areas") return [String(path[1])];
  if (path[0] === "npcs") {
    const location = stringOf(member(nodeAt(root, path.slice(0, 2)), "currentLocation"));
    // "" is "not placed yet" in real exports: no scope.
    return location === undefined || location === "" ? undefined : [location];
  }
  if (path[0] === "storyStarts") {
    const locations = (member(nodeAt(root, path.slice(0, 2)), "locations")?.children ?? [])
      .map(stringOf)
      .filter((l): l is string => l !== undefined);
    return locations.length > 0 ? locations : undefined;
  }
  // A condition or effect: the `party-location` beside it in the same list.
  if (ruleListOf(path.slice(0, 4))) {
    for (const record of nodeAt(root, path.slice(0, 3))?.children ?? []) {
      if (stringOf(member(record, "type")) !== "party-location") continue;
      const location = stringOf(member(record, "value"));
      const operator = stringOf(member(record, "operator"));
      if (location !== undefined && (operator === undefined || operator === "equals" || operator === "set"))
        return [location];
    }
  }
  return undefined;
}

/** The quest an objective reference belongs to: the sibling `questId`, or the quest record it is in. */
function objectiveQuest(root: Node, path: Path): string {
  if (path[0] === "quests") return String(path[1]);
  return stringOf(member(nodeAt(root, path.slice(0, -1)), "questId")) ?? "";
}

function finish(occurrences: Occurrence[], defined: Map<NameKind, Set<string>>): NameIndex {
  const byId = new Map<string, Occurrence[]>();
  for (const o of occurrences) {
    const list = byId.get(o.id);
    if (list) list.push(o);
    else byId.set(o.id, [o]);
  }
  const names = new Map<NameKind, string[]>();
  for (const [kind, set] of defined) names.set(kind, [...set]);
  return { occurrences, byId, names };
}

/** The kinds a script literal may name, most specific first: a literal is a reference to every thing of that name. */
const SCRIPT_KINDS: NameKind[] = [
  "quest",
  "event",
  "location",
  "region",
  "realm",
  "area",
  "npc",
  "faction",
  "trait",
  "item",
  "trigger",
];

/**
 * The names a script writes as literals: strings equal to a defined name
 * (`{type: "quest-init", value: "The Keeper's Debt"}`, `triggers["dawn"]`)
 * and storage keys (`storage.visits`, `storage["visits"]`). Offsets are mapped
 * from the decoded script back into the JSON string as written.
 */
function scriptOccurrences(
  node: Node,
  path: Path,
  text: string,
  defined: Map<NameKind, Set<string>>,
  areaHomes: Map<string, string[]>,
  out: Occurrence[],
): void {
  const source = node.value as string;
  const parsed = parseScript(source);
  if (!parsed.ok) return;
  // The JSON string as written: escapes (`\n`, `\"`) are longer in the file than in the script.
  const raw = text.slice(node.offset, node.offset + node.length);
  const fileOffset = (index: number) => node.offset + offsetInJsonLiteral(raw, index);
  const push = (
    kind: NameKind,
    name: string,
    start: number,
    end: number,
    quote: string,
    id = idOf(kind, name),
  ) => {
    const offset = fileOffset(start);
    out.push({
      id,
      kind,
      name,
      role: "script",
      offset,
      length: fileOffset(end) - offset,
      quote,
      path,
    });
  };
  simple(parsed.program, {
    Literal(literal: AnyNode) {
      const value = (literal as { value?: unknown }).value;
      if (typeof value !== "string") return;
      const quote = source[literal.start] ?? '"';
      for (const kind of SCRIPT_KINDS) {
        if (!defined.get(kind)?.has(value)) continue;
        // A script's area is no more scoped than a `party-area` alone: each location's of that name.
        if (kind === "area")
          for (const location of areaHomes.get(value) ?? [])
            push(kind, value, literal.start, literal.end, quote, areaId(location, value));
        else push(kind, value, literal.start, literal.end, quote);
      }
    },
    MemberExpression(expression: AnyNode) {
      const m = expression as AnyNode & { object: AnyNode; property: AnyNode; computed: boolean };
      if (m.object.type !== "Identifier" || (m.object as { name: string }).name !== "storage") return;
      if (!m.computed && m.property.type === "Identifier") {
        const name = (m.property as { name: string }).name;
        defined.get("storage")?.add(name) ?? defined.set("storage", new Set([name]));
        push("storage", name, m.property.start, m.property.end, ".");
      } else if (
        m.property.type === "Literal" &&
        typeof (m.property as { value?: unknown }).value === "string"
      ) {
        const name = (m.property as { value: string }).value;
        defined.get("storage")?.add(name) ?? defined.set("storage", new Set([name]));
        push("storage", name, m.property.start, m.property.end, source[m.property.start] ?? '"');
      }
    },
  });
}

/** The occurrence under an offset, if any. */
export function occurrenceAt(index: NameIndex, offset: number): Occurrence | undefined {
  let best: Occurrence | undefined;
  for (const o of index.occurrences)
    if (offset >= o.offset && offset <= o.offset + o.length && (!best || o.length < best.length)) best = o;
  return best;
}
