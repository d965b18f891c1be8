import { useState } from "preact/hooks";
import type { TranscriptStep } from "../api.ts";
import { controlLabel, type Permission } from "../controls.ts";

/** The first words of a narration, for one line of the timeline. */
export function firstWords(text: string, words = 9): string {
  const all = text.replace(/\s+/g, " ").trim().split(" ");
  if (all.length === 1 && all[0] === "") return "";
  return all.length > words ? `${all.slice(0, words).join(" ")}…` : all.join(" ");
}

/** Puts the keyboard focus on a turn of the story (its heading), scrolled into view. */
function showTurn(tick: number) {
  const heading = document.querySelector<HTMLElement>(`.story .step[data-tick="${tick}"] .turn-title`);
  if (!heading) return;
  heading.setAttribute("tabindex", "-1");
  heading.scrollIntoView({ block: "start" });
  heading.focus({ preventScroll: true });
}

/**
 * The current branch's turns, one line each (its number and first words), the newest last: a
 * button shows the turn in the story, and "Rewind here" (for whoever may rewind; "Ask the party to
 * rewind here" under a vote) plays on from it as a new branch, the old branch staying.
 */
export function Timeline(props: {
  steps: TranscriptStep[];
  rewind: Permission;
  busy: boolean;
  onRewind: (tick: number) => Promise<string>;
}) {
  const turns = props.steps.filter((s) => s.kind === "turn" || s.kind === "opening");
  const [working, setWorking] = useState(false);
  /** What the last rewind did, said while the story ends where it left it (or asked it to). */
  const [message, setMessage] = useState<{ text: string; ticks: (number | undefined)[] } | null>(null);
  const last = turns.at(-1)?.tick;
  const rewind = async (tick: number) => {
    setWorking(true);
    setMessage(null);
    try {
      setMessage({ text: await props.onRewind(tick), ticks: [tick, last] });
    } finally {
      setWorking(false);
    }
  };
  return (
    <section class="panel timeline" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      {turns.length === 0 ? <p class="muted">No turn yet.</p> : null}
      <ol class="timeline-list" aria-label="Turns of this branch">
        {turns.map((step) => {
          const name = step.kind === "opening" ? "Opening" : `Turn ${step.tick}`;
          return (
            <li key={step.seq} data-tick={step.tick} class={step.tick === last ? "current" : undefined}>
              <button
                type="button"
                class="link-button"
                id={`timeline-${step.tick}`}
                aria-describedby={`timeline-words-${step.tick}`}
                onClick={() => showTurn(step.tick)}
              >
                {name}
              </button>{" "}
              <span class="words" id={`timeline-words-${step.tick}`}>
                {firstWords(step.narration) || "(no narration)"}
              </span>
              {props.rewind !== "denied" && step.tick !== last ? (
                <button
                  type="button"
                  class="small-button"
                  aria-describedby={`timeline-${step.tick}`}
                  disabled={working || props.busy}
                  onClick={() => void rewind(step.tick)}
                >
                  {controlLabel(props.rewind, "Rewind here")}
                </button>
              ) : null}
            </li>
          );
        })}
      </ol>
      <p role="status" class="status-line">
        {message?.ticks.includes(last) ? message.text : ""}
      </p>
    </section>
  );
}
