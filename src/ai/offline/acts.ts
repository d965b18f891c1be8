import { isKnownVerb } from "./attempt.ts";
import { movementVerbAt } from "./intent.ts";
import { tokenize } from "./text.ts";

/**
 * One line that holds several acts ("light the lamp and then go down the stairs"): the party
 * moves by one of them (the intent, spec 3: one per turn), and the narration must not tell the
 * move alone as if the rest were never typed. The line is cut where a new act starts (";", ". ",
 * "then", "and then", ", and", or "and" before a verb the narrator knows), and the acts around the
 * movement are returned: `before` is told first, as it happened (or was tried); `after` is said to
 * come next, at the new place, since the world reacted to the line before the party moved.
 */
export interface ActsAroundMove {
  before: string[];
  after: string[];
}

const BREAKS = /\s*(?:;|[.!](?=\s|$)|,?\s+and\s+then\b|,?\s*\bthen\b|,\s*and\b)\s*/i;

export function actsAroundMove(action: string, movedTo?: string): ActsAroundMove | null {
  const acts = action
    .split(BREAKS)
    .flatMap(splitAtAndVerb)
    .map((a) => a.trim())
    .filter((a) => /[\p{L}\p{N}]/u.test(a));
  if (acts.length < 2) return null;
  const moving = acts.map(isMovement);
  const first = moving.indexOf(true);
  let last = moving.lastIndexOf(true);
  if (first === -1) return null;
  // Two moves in one line ("go to the lighthouse and climb the stairs"): the party made one (spec
  // 3). When the place it went to is the one the first move names, the later moves are still to
  // come, like any act after the move.
  if (last > first && movedTo !== undefined && namesPlace(acts[first]!, movedTo)) last = first;
  // Acts between two movements ("go to the market, buy fish, then go home") are on the way: not told
  // apart; and only acts count ("Okay. Walk to the pier" has no act before the walk).
  const before = acts.slice(0, first).filter(opensWithVerb);
  const after = acts.slice(last + 1).filter(opensWithVerb);
  return before.length + after.length === 0 ? null : { before, after };
}

/** "go to the lighthouse" names "Old Lighthouse": a word of the place's name (not "the") is in the act. */
function namesPlace(act: string, place: string): boolean {
  const words = new Set(act.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  return (place.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).some((w) => w.length >= 4 && words.has(w));
}

/** "look around and walk to the pier": "and" starts a new act when a verb follows it. */
function splitAtAndVerb(text: string): string[] {
  const out: string[] = [];
  let rest = text;
  for (;;) {
    const m = /\s+and\s+(?:(?:i|we)\s+)?([a-z]+)\b/i.exec(rest);
    if (!m || !isKnownVerb(m[1]!.toLowerCase())) break;
    out.push(rest.slice(0, m.index));
    rest = rest.slice(m.index).replace(/^\s+and\s+/i, "");
  }
  out.push(rest);
  return out;
}

function isMovement(act: string): boolean {
  const tokens = tokenize(act);
  return tokens.some((_, i) => movementVerbAt(tokens, i) !== null);
}

/** "light the lamp", "I take the key", "please ring the bell": an act opens with a verb the narrator knows. */
function opensWithVerb(act: string): boolean {
  const words =
    act
      .toLowerCase()
      .replace(/[’']/g, "")
      .match(/[a-z]+/g) ?? [];
  const at = /^(?:i|we|please)$/.test(words[0] ?? "") ? 1 : 0;
  return isKnownVerb(words[at] ?? "");
}
