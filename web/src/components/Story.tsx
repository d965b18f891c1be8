import type { NarrativeNote, TranscriptStep } from "../api.ts";

/**
 * Narration as paragraphs of plain text (never HTML: JSX escapes every string). In a party the turn's
 * segments say which character each paragraph tells of: the reader's own are marked.
 */
function Narration(props: {
  text: string;
  segments?: { actor: string | null; text: string }[] | null | undefined;
  you?: string | undefined;
}) {
  const { you } = props;
  // An altered narration (issue 33) keeps the segments of the text it replaced: they no longer tell it.
  const squeeze = (text: string) => text.replace(/\s+/g, "");
  const segments =
    props.segments && squeeze(props.segments.map((s) => s.text).join("")) === squeeze(props.text)
      ? props.segments
      : undefined;
  const paragraphs = segments
    ? segments.filter((s) => s.text.trim() !== "")
    : props.text
        .split(/\n{2,}/)
        .filter((p) => p.trim() !== "")
        .map((text) => ({ actor: null, text }));
  return (
    <div class="narration">
      {paragraphs.map((p, i) =>
        you !== undefined && p.actor === you ? (
          // The paragraph names the reader's character already: the mark is visual only.
          <p key={i} class="yours">
            {p.text}
          </p>
        ) : (
          <p key={i}>{p.text}</p>
        ),
      )}
    </div>
  );
}

const NOTE_TEXT: Record<NarrativeNote["status"], string> = {
  active: "begins",
  completed: "comes to an end",
  stopped: "is over",
};

/**
 * The story so far, the opening first: each turn's actions and narration,
 * quest answers and narrative events as notes, then the narration being
 * written now. Steps are keyed by their sequence number, so a step read
 * twice (after a reconnect or a reload) is shown once.
 */
export function Story(props: {
  steps: TranscriptStep[];
  notes: NarrativeNote[];
  live: { tick: number; text: string } | null;
  /** The reader's character: their own actions are marked. */
  you?: string | undefined;
}) {
  const notesAt = (tick: number) => props.notes.filter((n) => n.tick === tick);
  return (
    <section class="story" aria-labelledby="story-title">
      <h2 id="story-title">The story so far</h2>
      {props.steps.length === 0 && !props.live ? (
        <p class="muted">The story begins when the host starts the game.</p>
      ) : null}
      <ol class="steps">
        {props.steps.map((step) => (
          <li key={step.seq} class={`step ${step.kind}`} data-seq={step.seq} data-tick={step.tick}>
            {step.kind === "turn" ? (
              <>
                <h3 class="turn-title">Turn {step.tick}</h3>
                <ul class="actions" aria-label={`Actions of turn ${step.tick}`}>
                  {(step.inputs.actions ?? []).map((a, i) => (
                    <li key={i} class={a.player === props.you ? "yours" : undefined}>
                      <span class="who">{a.player}</span>
                      {a.player === props.you ? <span class="visually-hidden"> (you)</span> : null}: {a.text}
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
            {step.kind === "opening" ? <h3 class="turn-title">Opening</h3> : null}
            {step.kind === "answer" ? (
              <p class="note">
                {String((step.inputs as { player?: string }).player ?? "The party")}{" "}
                {step.inputs.answer === "accept"
                  ? "accepted"
                  : step.inputs.answer === "reject"
                    ? "declined"
                    : "abandoned"}{" "}
                the quest “{step.inputs.quest}”.
              </p>
            ) : null}
            {step.kind === "import" ? (
              <p class="note">The game was loaded from a save at turn {step.tick}.</p>
            ) : null}
            {step.narration ? (
              <Narration text={step.narration} segments={step.result?.segments} you={props.you} />
            ) : null}
            {step.kind !== "answer"
              ? notesAt(step.tick).map((n) => (
                  <p class="note event-note" key={`${n.event}-${n.status}`}>
                    The narrative event “{n.event}” {NOTE_TEXT[n.status]}.
                  </p>
                ))
              : null}
          </li>
        ))}
      </ol>
      {props.live ? (
        <div class="live" aria-live="polite" aria-busy="true">
          <h3 class="turn-title">
            {props.live.tick === 0 ? "Opening" : `Turn ${props.live.tick}`} (being written)
          </h3>
          <Narration text={props.live.text} />
        </div>
      ) : null}
    </section>
  );
}
