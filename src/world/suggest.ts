/**
 * "Did you mean" for unknown names. Edit distance catches typos and case
 * slips; a prefix catches truncations (`complexity` for `complexityType`); a
 * short list of known mix-ups catches what no distance would.
 */
const KNOWN_MIXUPS: Record<string, string> = {
  narrative: "storyStart",
  opening: "storyStart",
  greaterThanOrEqualTo: "greaterThanOrEqual",
  lessThanOrEqualTo: "lessThanOrEqual",
  quirks: "quirk",
  narrativeEffects: "traitNarrativeEffects",
};

export function suggest(name: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates];
  const mixup = KNOWN_MIXUPS[name];
  if (mixup !== undefined && list.includes(mixup)) return mixup;
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of list) {
    const c = candidate.toLowerCase();
    if (c === lower) return candidate;
    const limit = Math.max(1, Math.floor(Math.max(name.length, candidate.length) / 3));
    let score = distance(lower, c, limit);
    if (score > limit && lower.length >= 4 && (c.startsWith(lower) || lower.startsWith(c))) score = limit;
    if (score <= limit && score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

/** " Did you mean "x"?" or "". */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const hit = suggest(name, candidates);
  return hit === undefined ? "" : ` Did you mean "${hit}"?`;
}

/** Levenshtein distance, giving up (returning limit+1) once it exceeds `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}
