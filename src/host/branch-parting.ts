/**
 * Where branches that list alike part (issue 33). Two branches can read the same in a listing: the
 * party rewinds to turn 5 and types the same action again, a retry keeps the draw it replaced, two
 * long actions share their first words. For each such group this works out, for each branch, the
 * turn at which its story becomes its own among them and a few words of that turn that tell it from
 * the others (its action, or its story when the actions were the same), with the draw of a retry.
 * The terminal's history (history.ts) and the server's tree (server/core.ts) both list with it, so
 * every front end says the same thing. Nothing here is English for a player: front ends render it.
 */

/** One step of a branch, from the step after its split to its tip, as a parting compares it. */
export interface PartingStep {
  /** The turn the step is at. */
  tick: number;
  /** What the step was asked to do: a turn's actions ("a / b"), a quest answer ("accept q"); null for none. */
  action: string | null;
  /** A retry's draw (0: the first draw of the turn). */
  draw: number;
  /** The step's narration; null for none. */
  story: string | null;
}

/** How a branch is told from the branches that list alike. */
export interface Parting {
  /** The turn at which its story differs from the closest of them (null: it never does, a copy). */
  turn: number | null;
  /**
   * What differs there: the action typed (`text` holds a few of its words), the story told
   * (`text` holds a few of its words), the draw alone (a retry that told the same story), the
   * branch ends where the others go on, or nothing at all (a copy).
   */
  by: "action" | "story" | "draw" | "end" | "copy";
  /** A few words of the branch's own step at `turn`, around where it differs ("" for draw, end, copy). */
  text: string;
  /** The draw of that step (0: the first): a retry's later draws are worth saying. */
  draw: number;
  /**
   * 1, 2, … among branches that would still read the same (copies of one story, or words alike
   * past what `text` holds); absent when the rest tells them apart.
   */
  copy?: number;
  /** How many read the same with it (with `copy`). */
  copies?: number;
}

/** At most this many characters of a parting's text, ellipses included (a terminal line stays within 80 columns). */
export const PARTING_CHARS = 28;

/**
 * The parting of each branch: null for a branch no other lists alike. `key` is what a listing
 * shows of a branch (its title, where it splits, its turns): branches with equal keys are told
 * apart, and any two of them get different partings. `steps` are the branch's own steps, from the
 * one after its split.
 */
export function partBranches(
  branches: readonly { key: string; steps: readonly PartingStep[] }[],
): (Parting | null)[] {
  const out: (Parting | null)[] = branches.map(() => null);
  const groups = new Map<string, number[]>();
  for (const [i, b] of branches.entries()) push(groups, b.key, i);
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const steps = branches.map((b) => b.steps);
    label(steps, group, out);
    // What still reads the same (copies, or words alike past the text shown) is numbered.
    const alike = new Map<string, number[]>();
    for (const i of group) {
      const { copy: _, copies: __, ...rest } = out[i]!;
      const key = JSON.stringify(rest);
      push(alike, key, i);
    }
    for (const same of alike.values())
      if (same.length > 1)
        for (const [n, i] of same.entries()) out[i] = { ...out[i]!, copy: n + 1, copies: same.length };
  }
  return out;
}

/** Labels every branch of `group`; branches that still read the same are labelled again among themselves. */
function label(
  steps: readonly (readonly PartingStep[])[],
  group: readonly number[],
  out: (Parting | null)[],
) {
  const labels = new Map(group.map((i, position) => [i, partingOf(steps, position, group)]));
  const same = new Map<string, number[]>();
  for (const [i, parting] of labels) {
    out[i] = parting;
    const key = JSON.stringify(parting);
    push(same, key, i);
  }
  for (const alike of same.values())
    if (alike.length > 1 && alike.length < group.length) label(steps, alike, out);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The first index at which two lines of steps differ; -1 when they are the same. */
function firstDifference(a: readonly PartingStep[], b: readonly PartingStep[]): number {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y || x.tick !== y.tick || x.action !== y.action || x.draw !== y.draw || x.story !== y.story)
      return i;
  }
  return -1;
}

/**
 * At most this many look-alikes on either side (in list order) a branch is compared with: a game
 * where the same action was typed after the same turn hundreds of times still lists in time linear
 * in its steps. Past them, what still reads the same is numbered (partBranches).
 */
export const PARTING_REACH = 32;

/** Branch `group[position]`: where it differs from the look-alike that stays with it the longest. */
function partingOf(
  steps: readonly (readonly PartingStep[])[],
  position: number,
  group: readonly number[],
): Parting {
  const i = group[position]!;
  const own = steps[i]!;
  let at = -1;
  let closest: PartingStep[] = [];
  let ended = false;
  for (const other of group.slice(Math.max(0, position - PARTING_REACH), position + PARTING_REACH + 1)) {
    if (other === i) continue;
    const d = firstDifference(own, steps[other]!);
    if (d < 0 || d < at) continue;
    if (d > at) {
      at = d;
      closest = [];
      ended = false;
    }
    const step = steps[other]![d];
    if (step) closest.push(step);
    else ended = true;
  }
  if (at < 0) return { turn: null, by: "copy", text: "", draw: 0 };
  const mine = own[at];
  if (!mine) return { turn: closest[0]!.tick, by: "end", text: "", draw: 0 };
  const actions = closest.filter((s) => s.action !== mine.action).map((s) => s.action ?? "");
  if (actions.length > 0 || (ended && mine.action !== null))
    return { turn: mine.tick, by: "action", text: snippet(mine.action ?? "", actions), draw: mine.draw };
  const stories = closest.filter((s) => s.story !== mine.story).map((s) => s.story ?? "");
  if (stories.length > 0 || (ended && mine.story !== null))
    return { turn: mine.tick, by: "story", text: snippet(mine.story ?? "", stories), draw: mine.draw };
  return { turn: mine.tick, by: "draw", text: "", draw: mine.draw };
}

/**
 * A few words of `text` that include where it stops agreeing with the closest of `others`: its
 * start when they part early, else from a word or two before they part.
 */
export function snippet(text: string, others: readonly string[], max = PARTING_CHARS): string {
  const clean = squeeze(text);
  if (clean.length <= max) return clean;
  let shared = 0;
  for (const other of others.map(squeeze)) {
    let n = 0;
    while (n < clean.length && n < other.length && clean[n] === other[n]) n++;
    shared = Math.max(shared, n);
  }
  // Room for a word or two before the first character that differs.
  const room = max - 2;
  let start = 0;
  if (shared > room - 8) {
    const back = Math.max(0, shared - 10);
    const space = clean.lastIndexOf(" ", back);
    start = space >= 0 && space + 1 > shared - 16 ? space + 1 : back;
  }
  if (start > 0 && clean.length - start < max - 1) {
    // The window reaches the end: it starts as early as the width allows, at a word.
    const earliest = clean.length - (max - 1);
    const space = clean.indexOf(" ", earliest - 1);
    start = space >= 0 && space + 1 <= start ? space + 1 : earliest;
  }
  // Past half an emoji rather than back over it: the snippet stays within its width.
  if (codePointStart(clean, start) !== start) start += 1;
  const lead = start > 0 ? "…" : "";
  let end = start + max - lead.length;
  if (end >= clean.length) return `${lead}${clean.slice(start)}`;
  end -= 1;
  // Back to the end of a word, but never before the first character that differs.
  const space = clean.lastIndexOf(" ", end);
  if (space > shared && space > start) end = space;
  return `${lead}${clean.slice(start, codePointStart(clean, end)).trimEnd()}…`;
}

/** `index`, or one back when it falls between the two halves of a surrogate pair (an emoji's): a cut there leaves half a character. */
export function codePointStart(text: string, index: number): number {
  if (index <= 0 || index >= text.length) return index;
  const low = text.charCodeAt(index);
  const high = text.charCodeAt(index - 1);
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? index - 1 : index;
}

/** Outside text on one line: runs of white space as one space, no control characters. */
function squeeze(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
