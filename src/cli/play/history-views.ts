import type { Paint } from "../../author/paint.ts";
import type { Parting } from "../../host/branch-parting.ts";
import type { FiredChange } from "../../host/game.ts";
import { type BranchInfo, listedTitle } from "../../host/history.ts";
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

/**
 * /branches: one line per branch, the current one marked, then how to use them. Turns are
 * numbered from the start of the game on every branch: a branch that left another after turn 4
 * has its own turns from 5 on, and "to turn 9" is its last. `at` is the turn the game is at: said
 * on the current branch when the game is not at its last turn (after a rewind or an undo), since
 * /rewind and /diff count this branch's turns only up to there.
 */
export function branchesView(branches: readonly BranchInfo[], at: number, paint: Paint): string {
  const lines = branches.map((b) => {
    const mark = b.current ? paint("bold", "*") : " ";
    const title = safe(listedTitle(b.title));
    const where = b.splitAt === null ? "from the start" : `from ${b.splitFrom} after turn ${b.splitAt}`;
    const here = b.current && at !== b.turns ? `; you are at turn ${at}` : "";
    const line = `${mark} ${String(b.number).padStart(2)}  ${title}  ${paint("gray", `(${where}, to turn ${b.turns}${here})`)}`;
    // Branches that read alike say, on a line of their own, where each one parts from the others.
    return b.parting === null ? line : `${line}\n      ${paint("gray", partingWords(b.parting))}`;
  });
  return [
    ...lines,
    "",
    paint(
      "gray",
      "/branch N goes to a branch's last turn, /branch name N NAME names it, /branch delete N deletes it; /diff A B compares two points (a turn of this branch, #N, or N:TURN).",
    ),
  ].join("\n");
}

/**
 * Where a branch parts from those that list alike, within 74 columns: "parts at turn 7: typed
 * \"open the door\"", "parts at turn 5, draw 2: told \"The door creaks…\"" (the story's words).
 */
export function partingWords(p: Parting): string {
  const copy = p.copy === undefined ? "" : ` (${p.copy} of ${p.copies})`;
  const others =
    p.copies === undefined || p.copies <= 2 ? "another branch" : `${p.copies - 1} other branches`;
  if (p.by === "copy" || p.turn === null) return `the same story as ${others}${copy}`;
  if (p.by === "end") return `stops at turn ${p.turn} where the others go on${copy}`;
  if (p.by === "draw") return `parts at turn ${p.turn}: draw ${p.draw + 1}${copy}`;
  const draw = p.draw > 0 ? `, draw ${p.draw + 1}` : "";
  return `parts at turn ${p.turn}${draw}: ${p.by === "action" ? "typed" : "told"} "${safe(p.text)}"${copy}`;
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
