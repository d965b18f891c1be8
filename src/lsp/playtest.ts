import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import {
  type CompletionItem,
  CompletionItemKind,
  type CompletionList,
  type Diagnostic,
  DiagnosticSeverity,
  type Position,
} from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { isMap, isNode, isScalar, isSeq, parseDocument } from "yaml";
import {
  checkNames,
  checkTriggerNames,
  type LoadedPlaytest,
  parsePlaytest,
  playerNames,
  readWorldEntry,
  type WorldEntry,
  worldEntryOf,
} from "../author/playtest/index.ts";
import { runnableWorld } from "../world/validate.ts";
import { fileNameOf, type WorldDocument } from "./document.ts";
import { rangeAt } from "./ranges.ts";

/** The world file a play-test names, when it is open in the editor (its unsaved text wins over the disk's). */
export type OpenWorld = (path: string) => WorldDocument | undefined;

/** Worlds read from disk for play-tests, by path; re-read when the file changes. Few: an author tests a few worlds. */
const MAX_CACHED = 8;
const cache = new Map<string, { mtimeMs: number; size: number; entry: WorldEntry }>();

/**
 * A play-test file's problems, as `taleforge test` reports them before it
 * runs anything: the format's, then every name it uses checked against the
 * world it names (the open world's text when the author is editing it).
 */
export async function playtestDiagnostics(
  document: TextDocument,
  openWorld: OpenWorld,
): Promise<Diagnostic[]> {
  const loaded = parsePlaytest(document.getText(), fileNameOf(document.uri));
  const toDiagnostic = (p: LoadedPlaytest["problems"][number]): Diagnostic => ({
    range: rangeAt(document, p.line, p.column),
    severity: DiagnosticSeverity.Error,
    code: p.code,
    source: "taleforge",
    message: p.message,
    data: { path: p.path },
  });
  if (loaded.problems.length > 0 || !loaded.spec) return loaded.problems.map(toDiagnostic);
  const entry = await playtestWorld(document.uri, loaded.spec.world, openWorld);
  // A world that cannot be read or run is `taleforge test`'s failure at `world:`, not a name problem.
  if (!entry?.ok) return [];
  const problems = [
    ...checkNames(loaded.tests, entry.index, loaded.locate),
    ...checkTriggerNames(loaded.tests, entry.index, loaded.locate),
  ].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  return problems.map(toDiagnostic);
}

/** The world a play-test names (`world:` is relative to the play-test file); none for an unsaved play-test. */
async function playtestWorld(
  uri: string,
  world: string,
  openWorld: OpenWorld,
): Promise<WorldEntry | undefined> {
  if (!uri.startsWith("file://")) return undefined;
  const path = resolve(dirname(fileNameOf(uri)), world);
  const open = openWorld(path);
  if (open) return worldEntryOf(runnableWorld(open.loaded, open.validation), open.validation, world);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return undefined;
  const cached = cache.get(path);
  if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.entry;
  const entry = await readWorldEntry(path, world);
  cache.delete(path);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(path, { mtimeMs: info.mtimeMs, size: info.size, entry });
  return entry;
}

type Segment = string | number;

/** The path of keys and indexes to the YAML node under the offset, and whether the offset is on a key. */
export function yamlPathAt(text: string, offset: number): { path: Segment[]; atKey: boolean } | undefined {
  const doc = parseDocument(text, { keepSourceTokens: false, uniqueKeys: false });
  const within = (node: unknown) =>
    isNode(node) &&
    node.range !== undefined &&
    node.range !== null &&
    node.range[0] <= offset &&
    offset <= node.range[1];
  const walk = (node: unknown, path: Segment[]): { path: Segment[]; atKey: boolean } | undefined => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (key === undefined) continue;
        if (within(pair.key)) return { path: [...path, key], atKey: true };
        if (within(pair.value))
          return walk(pair.value, [...path, key]) ?? { path: [...path, key], atKey: false };
      }
      return undefined;
    }
    if (isSeq(node)) {
      for (const [i, item] of node.items.entries())
        if (within(item)) return walk(item, [...path, i]) ?? { path: [...path, i], atKey: false };
      return { path, atKey: false };
    }
    return undefined;
  };
  return walk(doc.contents, []);
}

/** Which names go at a place of a play-test, from its path: a pattern over the path with indexes as `#`. */
function namesAt(
  path: Segment[],
  atKey: boolean,
  entry: Extract<WorldEntry, { ok: true }>,
  loaded: LoadedPlaytest,
) {
  const { world, index } = entry;
  const at = path.map((s) => (typeof s === "number" ? "#" : s)).join("/");
  const test = (re: RegExp, key: boolean) => key === atKey && re.test(at);
  const entries: [string, string[]][] = [];
  if (test(/(^|\/)turns\/#\/(accept|reject|abandon)$/, false) || test(/\/expect\/prompts(\/#)?$/, false))
    entries.push(["quest", Object.keys(world.quests)]);
  if (
    test(/\/expect\/(fired|notFired|firedOnly)(\/#)?$/, false) ||
    test(/(^|\/)turns\/#\/judge\/[^/]+$/, true)
  )
    entries.push(["trigger", Object.keys(index.baseTriggers)]);
  if (test(/\/expect\/quests\/[^/]+$/, true)) entries.push(["quest", Object.keys(world.quests)]);
  const objectives = /\/expect\/quests\/([^/]+)\/objectives\/[^/]+$/.exec(at);
  if (objectives && atKey)
    entries.push(["objective", Object.keys(world.quests[objectives[1]!]?.objectives ?? {})]);
  if (test(/\/expect\/events\/[^/]+$/, true))
    entries.push(["narrative event", Object.keys(world.narrativeEvents ?? {})]);
  if (test(/\/expect\/known\/[^/]+$/, true)) entries.push(["entity", Object.keys(index.defaultKnown)]);
  const party = /\/expect\/party\/(realm|region|location|area)$/.exec(at);
  if (party && !atKey) {
    const kind = party[1] as "realm" | "region" | "location" | "area";
    const names =
      kind === "area"
        ? [...new Set(Object.values(world.locations).flatMap((l) => Object.keys(l.areas ?? {})))]
        : Object.keys(world[`${kind}s` as "realms" | "regions" | "locations"]);
    entries.push([kind, names]);
  }
  if (test(/\/players\/[^/]+\/items\/[^/]+$/, true)) entries.push(["item", Object.keys(world.items)]);
  if (test(/\/(traits|hasTraits|lacksTraits)(\/#)?$/, false))
    entries.push(["trait", Object.keys(world.traits)]);
  if (test(/(^|\/)storyStart$/, false)) entries.push(["story start", Object.keys(world.storyStarts)]);
  if (test(/(^|\/)gameMode$/, false)) entries.push(["game mode", Object.keys(world.gameModes ?? {})]);
  if (test(/(^|\/)players\/#\/premade$/, false))
    entries.push(["premade character", world.premadeCharacters.map((c) => c.name)]);
  if (test(/(^|\/)turns\/#\/target$/, false)) entries.push(["NPC", Object.keys(world.npcs)]);
  if (test(/(^|\/)turns\/#\/(player|acts\/#\/player)$/, false))
    entries.push(["player", [...new Set(loaded.tests.flatMap((t) => playerNames(t.players)))]]);
  return entries;
}

/** Completion of the world's names where a play-test names them. */
export async function playtestCompletion(
  document: TextDocument,
  position: Position,
  openWorld: OpenWorld,
): Promise<CompletionList> {
  const none: CompletionList = { isIncomplete: false, items: [] };
  const text = document.getText();
  const loaded = parsePlaytest(text, fileNameOf(document.uri));
  const world = /^world:\s*(.+?)\s*$/m.exec(text)?.[1]?.replace(/^["']|["']$/g, "");
  if (!world) return none;
  const entry = await playtestWorld(document.uri, world, openWorld);
  if (!entry?.ok) return none;
  const where = yamlPathAt(text, document.offsetAt(position));
  if (!where) return none;
  const items: CompletionItem[] = namesAt(where.path, where.atKey, entry, loaded).flatMap(([kind, names]) =>
    names.map((name) => ({ label: name, kind: CompletionItemKind.Value, detail: kind })),
  );
  return { isIncomplete: false, items };
}
