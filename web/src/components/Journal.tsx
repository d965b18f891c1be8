import type { PartyState } from "../api.ts";

const STATUS: Record<string, string> = {
  available: "offered",
  accepted: "in progress",
  completed: "completed",
  abandoned: "abandoned",
  rejected: "declined",
  expired: "expired",
};

/** The quest journal: each known quest's status, objectives and next step. */
export function Journal(props: { state: PartyState }) {
  const quests = props.state.quests;
  return (
    <section class="panel journal" aria-labelledby="journal-title">
      <h2 id="journal-title">Quest journal</h2>
      {props.state.nextStep ? (
        <p class="next-step">
          <strong>Next:</strong> {props.state.nextStep}
        </p>
      ) : null}
      {quests.length === 0 ? <p class="muted">No quest yet.</p> : null}
      {quests.map((q) => (
        <article class={`quest ${q.status}`} key={q.quest} aria-label={q.quest} data-status={q.status}>
          <h3>
            {q.quest} <span class={`status ${q.status}`}>{STATUS[q.status] ?? q.status}</span>
          </h3>
          {q.statement ? <p>{q.statement}</p> : null}
          {q.objectives.length > 0 ? (
            <ul class="objectives">
              {q.objectives.map((o) => (
                <li key={o.id} class={o.status}>
                  <span class="visually-hidden">{o.status === "completed" ? "done: " : "to do: "}</span>
                  <span aria-hidden="true">{o.status === "completed" ? "✓ " : "○ "}</span>
                  {o.text}
                </li>
              ))}
            </ul>
          ) : null}
          {/* The journal's own "Next:" already says it when it is this quest's step: never twice. */}
          {q.nextStep && q.status === "accepted" && !sameStep(q.nextStep, props.state.nextStep) ? (
            <p class="muted small">
              <strong>Next step:</strong> {q.nextStep}
            </p>
          ) : null}
        </article>
      ))}
    </section>
  );
}

/** Whether two next steps say the same thing (the journal's and a quest's, which may differ in case or a final stop). */
function sameStep(a: string, b: string | null | undefined): boolean {
  const plain = (text: string) =>
    text
      .trim()
      .replace(/[.!]+$/, "")
      .toLowerCase();
  return b != null && plain(a) === plain(b);
}
