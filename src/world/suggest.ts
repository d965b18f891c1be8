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

/**
 * Levenshtein distance, giving up (returning limit+1) once it exceeds `limit`.
 * Two rows filled by plain loops: a check reports an unknown field with a
 * "did you mean" per warning, mostly before the JIT has compiled this, where
 * a row built by Array.from with a callback cost more than the distance.
 */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const width = b.length + 1;
  let previous: number[] = new Array<number>(width);
  let current: number[] = new Array<number>(width);
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j < width; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      let value = previous[j]! + 1;
      const insert = current[j - 1]! + 1;
      if (insert < value) value = insert;
      const replace = previous[j - 1]! + cost;
      if (replace < value) value = replace;
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    const row = previous;
    previous = current;
    current = row;
  }
  return previous[b.length]!;
}
