import type { EventVerdict } from "../../engine/ports.ts";
import { coverage } from "../../engine/relevance.ts";
import type { NarrationInput } from "./request.ts";
import { sentences, stemmedWords } from "./text.ts";

/**
 * Narrative events (resolutions "Narrative events"): the offline narrator
 * tells one beat per active turn, in order, and answers the verdict in the
 * same call.
 *
 * - completed: this turn tells the final beat (activeTurns + 1 >= the number
 *   of beats), or the story so far covers the final beat: at least
 *   EVENT_COVERAGE of its content words (stemmed) occur in the recent story,
 *   this turn's actions and this turn's instructions;
 * - stopped: the party left the place while the event was active: this
 *   turn's outcomes hold a journey, a teleport or a trigger placing the party
 *   elsewhere (the event was active before the turn, so any such move leaves
 *   the place where it was running);
 * - neither: otherwise. Completed wins a tie.
 */

export const EVENT_COVERAGE = 0.75;

const META =
  /\b(?:the|this) event\b[^.]*\b(?:complete|completes|completed|ends|over|done|finished|resolved)\b/i;

/**
 * The beats of an event, in order: numbered items ("1. ... 2. ..."), else
 * lines ("- ..."), else sentences. Sentences that only tell the narrator when
 * the event is over ("The event is complete when ...") are left out of the
 * beat they close (they are kept when nothing else is left).
 */
export function parseBeats(beats: string): string[] {
  const text = beats.trim();
  if (text === "") return [];
  let items: string[] = [];
  const markers = [...text.matchAll(/(?:^|\s)(\d{1,2})[.)]\s+/g)];
  if (markers.length >= 2 && markers[0]![1] === "1") {
    for (let k = 0; k < markers.length; k++) {
      const from = markers[k]!.index + markers[k]![0].length;
      const to = k + 1 < markers.length ? markers[k + 1]!.index : text.length;
      items.push(text.slice(from, to).trim());
    }
  } else {
    const lines = text
      .split(/\n+/)
      .map((l) => l.replace(/^\s*(?:[-*•]|\d{1,2}[.)])\s*/, "").trim())
      .filter((l) => l !== "");
    items = lines.length >= 2 ? lines : sentences(text);
  }
  return items
    .map((item) => {
      const kept = sentences(item).filter((s) => !META.test(s));
      return kept.length > 0 ? kept.join(" ") : item;
    })
    .filter((item) => item !== "")
    .slice(0, 100);
}

/** The beat told this turn: the (activeTurns + 1)-th, or the last once they have all been told. */
export function beatOfTurn(beats: readonly string[], activeTurns: number): string {
  if (beats.length === 0) return "";
  return beats[Math.min(activeTurns, beats.length - 1)]!;
}

/**
 * The verdict on the active event; `beats` are parseBeats() of its beats. `unsettled`: the final
 * beat is told this turn but its "either ... or ..." could not be resolved (nothing the party was
 * told states a branch): telling it does not complete the event then, since its outcome is not
 * known ("The event is complete when the ship's fate is settled"); the story covering the final
 * beat still does, and the engine ends an event that runs too long (2 x targetTurns).
 */
export function eventVerdict(
  input: NarrationInput,
  beats: readonly string[],
  told: string,
  unsettled = false,
): EventVerdict {
  const event = input.event;
  if (!event) return "neither";
  if (beats.length > 0 && event.activeTurns + 1 >= beats.length && !unsettled) return "completed";
  const final = stemmedWords(beats.at(-1) ?? "");
  if (final.size > 0) {
    const story = stemmedWords(
      [...input.scene.recentStory, ...input.actions.map((a) => a.text), told].join("\n"),
    );
    if (coverage(final, story) >= EVENT_COVERAGE) return "completed";
  }
  // The party left for another location (a journey, a teleport, a trigger placing it): the event stays behind.
  if (input.outcomes.some((o) => (o.type === "moved" && o.how !== "area") || o.type === "placed"))
    return "stopped";
  return "neither";
}
