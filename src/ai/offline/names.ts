import { nameTokens, type Token } from "./text.ts";

/**
 * Finding known names (places, NPCs) in a player's words. Matching works on
 * folded tokens (text.ts): case-insensitive, diacritics and apostrophes
 * ignored ("widows cairn", "Widow's Cairn" and "Widows' Cairn" are the same),
 * a trailing plural "s" ignored, and a leading "the" of the name optional.
 * A name only matches whole words ("eel" never matches inside "eelgrass")
 * within one clause. Overlapping matches are resolved longest first
 * ("Brinewick Docks" beats the region "Brinewick"); at equal length a full
 * name beats an alias, then the earlier match, then the entry listed first.
 *
 * Aliases (optional, per index):
 * - "head": the last word (three letters or more) of a multi-word name
 *   stands for it when it is preceded by "the", "this" or "that" and belongs
 *   to no other name:
 *   "the lighthouse" -> "Old Lighthouse", "the eel" -> "The Gutted Eel".
 * - "any": any word of three letters or more of a multi-word name that no
 *   other name shares, titles and common adjectives excepted: "Mara" ->
 *   "Mara Venn", "Slade" -> "Corvin Slade".
 */

export interface NameEntry {
  name: string;
  kind: string;
}

export interface NameMatch {
  name: string;
  kind: string;
  /** Token span [start, end). */
  start: number;
  end: number;
  alias: boolean;
}

interface Indexed extends NameEntry {
  tokens: string[];
  order: number;
}

const DETERMINERS = new Set(["the", "this", "that", "yonder"]);

/** Words that never stand alone for a multi-word name. */
const ALIAS_STOP = new Set(
  "the and old new young little big great high low red black white grey gray green blue lady lord sir master mistress sister brother father mother captain king queen prince princess saint ser dame mister miss mrs uncle aunt elder doctor west east north south upper lower inner outer main back front".split(
    " ",
  ),
);

/** Entries beyond this many are ignored (a hostile request cannot make matching slow). */
export const MAX_NAMES = 5000;

export class NameIndex {
  private readonly byFirst = new Map<string, Indexed[]>();
  private readonly aliases = new Map<string, Indexed>();

  constructor(
    entries: readonly NameEntry[],
    private readonly aliasMode: "head" | "any" | "none" = "none",
  ) {
    const seen = new Set<string>();
    const indexed: Indexed[] = [];
    for (const entry of entries.slice(0, MAX_NAMES)) {
      if (typeof entry?.name !== "string" || entry.name.trim() === "") continue;
      const key = `${entry.kind}\u0000${entry.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const tokens = nameTokens(entry.name).slice(0, 12);
      if (tokens.length === 0) continue;
      indexed.push({ name: entry.name, kind: entry.kind, tokens, order: indexed.length });
    }
    for (const entry of indexed) {
      const list = this.byFirst.get(entry.tokens[0]!);
      if (list) list.push(entry);
      else this.byFirst.set(entry.tokens[0]!, [entry]);
    }
    if (aliasMode !== "none") this.buildAliases(indexed);
  }

  private buildAliases(indexed: Indexed[]): void {
    // How many distinct names use each word, and which words are whole one-word names.
    const uses = new Map<string, Set<string>>();
    const whole = new Set<string>();
    for (const entry of indexed) {
      if (entry.tokens.length === 1) whole.add(entry.tokens[0]!);
      for (const token of entry.tokens) {
        const set = uses.get(token) ?? new Set<string>();
        set.add(entry.name.toLowerCase());
        uses.set(token, set);
      }
    }
    for (const entry of indexed) {
      if (entry.tokens.length < 2) continue;
      const candidates = this.aliasMode === "head" ? [entry.tokens.at(-1)!] : entry.tokens;
      for (const token of candidates) {
        if (token.length < 3 || ALIAS_STOP.has(token) || whole.has(token)) continue;
        if ((uses.get(token)?.size ?? 0) !== 1 || this.aliases.has(token)) continue;
        this.aliases.set(token, entry);
      }
    }
  }

  /** Non-overlapping matches in token order. */
  match(tokens: readonly Token[]): NameMatch[] {
    const found: (NameMatch & { order: number })[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      for (const entry of this.byFirst.get(token.fold) ?? []) {
        const end = i + entry.tokens.length;
        if (end > tokens.length) continue;
        let ok = true;
        for (let k = 1; k < entry.tokens.length && ok; k++) {
          const t = tokens[i + k]!;
          ok = t.fold === entry.tokens[k] && t.clause === token.clause;
        }
        if (ok)
          found.push({ name: entry.name, kind: entry.kind, start: i, end, alias: false, order: entry.order });
      }
      const alias = this.aliases.get(token.fold);
      if (alias) {
        const before = tokens[i - 1];
        const placed =
          this.aliasMode !== "head" ||
          (before !== undefined && before.clause === token.clause && DETERMINERS.has(before.raw));
        if (placed)
          found.push({
            name: alias.name,
            kind: alias.kind,
            start: i,
            end: i + 1,
            alias: true,
            order: alias.order,
          });
      }
    }
    found.sort(
      (a, b) =>
        b.end - b.start - (a.end - a.start) ||
        Number(a.alias) - Number(b.alias) ||
        a.start - b.start ||
        a.order - b.order,
    );
    const taken = new Array<boolean>(tokens.length).fill(false);
    const chosen: NameMatch[] = [];
    for (const m of found) {
      let free = true;
      for (let k = m.start; k < m.end && free; k++) free = !taken[k];
      if (!free) continue;
      for (let k = m.start; k < m.end; k++) taken[k] = true;
      chosen.push({ name: m.name, kind: m.kind, start: m.start, end: m.end, alias: m.alias });
    }
    return chosen.sort((a, b) => a.start - b.start);
  }
}
