import type { NarrationRequest } from "../engine/ports.ts";
import { contentWords, cosine, coverage, rankByScore } from "../engine/relevance.ts";
import type { World } from "../world/schema/index.ts";
import type { LoreEntry } from "./prompts/types.ts";

/**
 * Lore retrieval for the narration prompt: the few worldLore entries most
 * similar to what is happening now. With an embedding function the measure is
 * cosine similarity; without one, the engine's lexical relevance
 * (src/engine/relevance.ts), so both rank the same way triggers are ranked.
 * The world's own `embeddings`/`embeddingId` are not used: they were made by
 * the authoring tool's model, which need not be the provider's.
 */

/** The query is cut to this length: embedding inputs have limits, and its start matters most. */
export const LORE_QUERY_MAX = 2_000;
/** An entry's text is cut to this length before it is embedded. */
export const LORE_EMBED_MAX = 8_000;
/** NPC names beyond this many add little to the query. */
const QUERY_NPCS = 20;

/** The text lore is retrieved against: the actions, the place, the NPCs present, recent story. */
export function loreQuery(request: NarrationRequest): string {
  const scene = request.scene;
  const position = scene.position;
  const parts = [
    ...request.actions.map((a) => a.text),
    [position.area, position.location, position.region].filter((p) => p.trim() !== "").join(", "),
    scene.npcsPresent
      .slice(0, QUERY_NPCS)
      .map((n) => n.name)
      .join(", "),
    request.event?.title ?? "",
    // The previous turn says what the actions answer; the opening has the story start instead.
    scene.recentStory.at(-1) ?? "",
    request.opening ? (scene.openingText ?? "") : "",
  ];
  return parts
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .join("\n")
    .slice(0, LORE_QUERY_MAX);
}

type Embed = (texts: string[]) => Promise<number[][]>;

/** Entry vectors per world and embedding function: computed once, not per turn. */
const vectorCache = new WeakMap<World, WeakMap<Embed, Promise<number[][] | null>>>();
/** Entry content words (key and text) per world, for the lexical ranking: computed once, not per turn. */
const wordCache = new WeakMap<World, { entries: readonly LoreEntry[]; words: Set<string>[] }>();

/**
 * The best `limit` (default 3) worldLore entries for the query: cosine over
 * `embed` vectors when given, else lexical coverage (the share of the
 * query's content words found in the entry's key and text); deterministic,
 * ties in map order; entries scoring 0 are not returned. An `embed` that
 * answers with the wrong number of vectors, or vectors of the wrong shape,
 * falls back to the lexical ranking; one that throws rejects (nothing is
 * cached, so the next turn tries again).
 */
export async function selectLore(
  world: World,
  query: string,
  options: { limit?: number; embed?: Embed } = {},
): Promise<LoreEntry[]> {
  const limit = Math.max(0, Math.floor(options.limit ?? 3));
  const entries = loreEntries(world);
  if (limit === 0 || entries.length === 0 || query.trim() === "") return [];
  let scores: number[] | null = null;
  if (options.embed) scores = await cosineScores(world, entries, query, options.embed);
  if (scores === null) {
    const words = contentWords(query);
    scores = entryWords(world, entries).map((entry) => coverage(words, entry));
  }
  const ranked = rankByScore(entries.map((item, i) => ({ item, score: scores[i]! })));
  return ranked
    .filter((r) => r.score > 0)
    .slice(0, limit)
    .map((r) => ({ key: r.item.key, text: r.item.text }));
}

/** worldLore in map order; entries without a text string are skipped. */
function loreEntries(world: World): LoreEntry[] {
  const lore = world.worldLore;
  if (!lore || typeof lore !== "object") return [];
  const out: LoreEntry[] = [];
  for (const [key, entry] of Object.entries(lore)) {
    if (entry && typeof entry.text === "string" && entry.text.trim() !== "")
      out.push({ key, text: entry.text });
  }
  return out;
}

/** The entries' content words, reused while the world's lore is unchanged. */
function entryWords(world: World, entries: readonly LoreEntry[]): Set<string>[] {
  const cached = wordCache.get(world);
  const same =
    cached !== undefined &&
    cached.entries.length === entries.length &&
    cached.entries.every((e, i) => e.key === entries[i]!.key && e.text === entries[i]!.text);
  if (same) return cached.words;
  const words = entries.map((e) => contentWords(`${e.key} ${e.text}`));
  wordCache.set(world, { entries, words });
  return words;
}

async function cosineScores(
  world: World,
  entries: readonly LoreEntry[],
  query: string,
  embed: Embed,
): Promise<number[] | null> {
  const vectors = await entryVectors(world, entries, embed);
  if (vectors === null) return null;
  const [queryVector] = await embed([query.slice(0, LORE_QUERY_MAX)]);
  if (!isVector(queryVector, vectors[0]!.length)) return null;
  return vectors.map((v) => cosine(queryVector, v));
}

function entryVectors(world: World, entries: readonly LoreEntry[], embed: Embed): Promise<number[][] | null> {
  let byEmbed = vectorCache.get(world);
  if (!byEmbed) {
    byEmbed = new WeakMap();
    vectorCache.set(world, byEmbed);
  }
  let vectors = byEmbed.get(embed);
  if (!vectors) {
    const texts = entries.map((e) => `${e.key}: ${e.text}`.slice(0, LORE_EMBED_MAX));
    vectors = embed(texts).then((answer) => {
      const ok =
        Array.isArray(answer) &&
        answer.length === texts.length &&
        answer.every((v) => isVector(v, (answer[0] as unknown[] | undefined)?.length ?? 0));
      return ok ? answer : null;
    });
    const cache = byEmbed;
    // A failed call is not remembered: the next turn asks again.
    vectors.catch(() => cache.delete(embed));
    byEmbed.set(embed, vectors);
  }
  return vectors;
}

function isVector(value: unknown, length: number): value is number[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.length === length &&
    value.every((x) => typeof x === "number" && Number.isFinite(x))
  );
}
