import type { Paint } from "../../author/paint.ts";
import type { FiredChange } from "../../host/game.ts";
import type { BranchInfo } from "../../host/history.ts";
import { cleanText } from "../../host/outside-text.ts";
import { renderWorldDiff, type WorldDiff } from "../../host/world-diff.ts";
import { escapeControls } from "../../world/terminal-text.ts";
import { turnWords } from "./views.ts";

/**
 * The terminal's words for the story controls (issue 33): the branch list,
 * a world diff, what a retry changed. Every name in them is outside text
 * (a player's action, a branch name, a world's keys): printed escaped.
 */
const safe = (text: string) => escapeControls(cleanText(text));

/** At most this many characters of a branch title in the list (a line stays within 80 columns). */
const TITLE_CHARS = 36;

/** /branches: one line per branch, the current one marked, then how to use them. */
export function branchesView(branches: readonly BranchInfo[], paint: Paint): string {
  const lines = branches.map((b) => {
    const mark = b.current ? paint("bold", "*") : " ";
    const title = safe(b.title.length > TITLE_CHARS ? `${b.title.slice(0, TITLE_CHARS - 1)}…` : b.title);
    const where = b.splitAt === null ? "from the start" : `from ${b.splitFrom} at turn ${b.splitAt}`;
    return `${mark} ${String(b.number).padStart(2)}  ${title}  ${paint("gray", `(${where}, ${turnCount(b.turns)})`)}`;
  });
  return [
    ...lines,
    "",
    paint(
      "gray",
      "/branch N switches to a branch, /branch name N NAME names it, /branch delete N deletes it; /diff A B compares two points (a turn, #N, or N:TURN).",
    ),
  ].join("\n");
}

function turnCount(turns: number): string {
  return turns === 1 ? "1 turn" : `${turns} turns`;
}

/** /diff: the points compared and each difference on its own line. */
export function diffView(diff: WorldDiff, a: string, b: string, paint: Paint): string {
  const head = paint(
    "bold",
    `From ${safe(a)} (${turnWords(diff.from)}) to ${safe(b)} (${turnWords(diff.to)}):`,
  );
  return [head, ...renderWorldDiff(diff, safe).map((line) => `  ${line}`)].join("\n");
}

/** After a retry: which draw this is, and what fired differently from the draw it replaced. */
export function retryLines(draw: number, fired: FiredChange, paint: Paint): string[] {
  const lines = [
    paint("gray", `Draw ${draw + 1} of this turn; the earlier one is kept as a branch (/branches).`),
  ];
  if (fired.gained.length === 0 && fired.lost.length === 0)
    lines.push(paint("gray", "The same triggers fired as before."));
  else {
    if (fired.gained.length > 0)
      lines.push(paint("yellow", `Fired this time only: ${fired.gained.map(safe).join(", ")}.`));
    if (fired.lost.length > 0)
      lines.push(paint("yellow", `No longer fired: ${fired.lost.map(safe).join(", ")}.`));
  }
  return lines;
}
