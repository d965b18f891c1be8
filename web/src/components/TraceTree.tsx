import type { TraceView } from "../api.ts";

type Trace = TraceView["trace"];
type TriggerTrace = Trace["phases"][number]["triggers"][number];

const show = (value: unknown) => (value === undefined ? "—" : JSON.stringify(value));

function Mark(props: { ok: boolean | null }) {
  const text = props.ok === null ? "not decided" : props.ok ? "passed" : "failed";
  return <span class={`mark ${text.replace(" ", "-")}`}>{text}</span>;
}

function TriggerNode(props: { t: TriggerTrace }) {
  const { t } = props;
  const outcome = t.fired ? "fired" : t.suppressed ? "suppressed" : "did not fire";
  return (
    <li>
      <details class={`trigger ${t.fired ? "fired" : ""}`} open={t.fired} data-trigger={t.trigger}>
        <summary>
          <code>{t.trigger}</code> <span class={`outcome ${t.fired ? "fired" : ""}`}>{outcome}</span>
          {t.targets.length > 0 ? <span class="muted small"> for {t.targets.join(", ")}</span> : null}
        </summary>
        <ul class="tree">
          <li>
            Conditions (
            {t.mechanicalPassed ? "all mechanical conditions passed" : "a mechanical condition failed"})
            {/* Numbered as people count and as the text trace says ("failed at condition 3"). */}
            <ol class="conditions">
              {t.conditions.map((c) => (
                <li key={c.index} class="condition">
                  <code>{c.type}</code>
                  {c.operator ? ` ${c.operator}` : ""}: actual <code>{show(c.actual)}</code>, expected{" "}
                  <code>{show(c.expected)}</code> <Mark ok={c.passed} />
                  {c.judged ? (
                    <span class="muted small"> (judged by the AI{c.pinned ? ", pinned" : ""})</span>
                  ) : null}
                  {c.players && c.players.length > 0 ? (
                    <span class="muted small"> players: {c.players.join(", ")}</span>
                  ) : null}
                  {c.error ? <span class="error block">{c.error}</span> : null}
                </li>
              ))}
              {t.conditions.length === 0 ? <li class="muted">no conditions</li> : null}
            </ol>
          </li>
          {t.candidate ? (
            <li>
              AI candidate{t.rank !== undefined ? ` #${t.rank}` : ""}
              {t.relevance !== undefined ? ` (relevance ${t.relevance.toFixed(2)})` : ""}: verdict{" "}
              <strong>{t.verdict ?? "none"}</strong>
            </li>
          ) : null}
          {t.script ? (
            <li class="script">
              Script: <strong>{t.script.status}</strong>
              {t.script.setSkip ? " (set skip)" : ""}
              {t.script.line != null ? ` at line ${t.script.line}, column ${t.script.column ?? 1}` : ""}
              {t.script.reason ? <span class="block">{t.script.reason}</span> : null}
              {t.script.elapsedMs !== undefined ? (
                <span class="muted small"> {t.script.elapsedMs.toFixed(1)} ms</span>
              ) : null}
            </li>
          ) : null}
          {t.effects.length > 0 ? (
            <li>
              Effects
              <ol class="effects">
                {t.effects.map((e) => (
                  <li key={e.index} class={`effect ${e.status}`}>
                    <code>{e.type}</code> ({e.source}): <strong>{e.status}</strong>
                    {e.reason ? `, ${e.reason}` : ""}
                    {e.note ? <span class="muted small"> {e.note}</span> : null}
                  </li>
                ))}
              </ol>
            </li>
          ) : null}
          {t.consumed ? <li class="muted">consumed (does not fire again)</li> : null}
        </ul>
      </details>
    </li>
  );
}

/** A step's trace as a tree: per phase, each trigger considered, why it fired or did not. */
export function TraceTree(props: { view: TraceView; firedOnly: boolean }) {
  const trace = props.view.trace;
  return (
    <div class="trace">
      <p>
        Turn {trace.tick}: intent <strong>{trace.intent.answer?.intent ?? "none"}</strong> (
        {trace.intent.source}
        ); AI calls {trace.aiCalls.total}; fired:{" "}
        {props.view.fired.length > 0 ? props.view.fired.join(", ") : "none"}
      </p>
      {trace.movement ? (
        <p>
          Movement: {trace.movement.intent} to {trace.movement.target}:{" "}
          {trace.movement.moved ? "moved" : `did not move (${trace.movement.reason ?? "no reason"})`}
        </p>
      ) : null}
      <ul class="tree phases">
        {trace.phases.map((phase) => {
          const triggers = props.firedOnly ? phase.triggers.filter((t) => t.fired) : phase.triggers;
          return (
            <li key={phase.phase}>
              <details open>
                <summary>
                  Phase <strong>{phase.phase}</strong>: {phase.triggers.filter((t) => t.fired).length} fired
                  of {phase.triggers.length} considered
                  {phase.judge.called ? `, judge asked about ${phase.judge.sent.length}` : ""}
                  {phase.edits.status !== "none" ? `, trigger edits ${phase.edits.status}` : ""}
                </summary>
                <ul class="tree">
                  {triggers.map((t) => (
                    <TriggerNode t={t} key={t.trigger} />
                  ))}
                  {phase.excluded.map((x) => (
                    <li key={x.trigger} class="muted">
                      <code>{x.trigger}</code> left out: {x.reason}
                    </li>
                  ))}
                  {phase.edits.changed.length > 0 ? (
                    <li>
                      Trigger edits ({phase.edits.status}): {phase.edits.changed.join(", ")}
                      {phase.edits.problems.map((p) => (
                        <span class="error block" key={p}>
                          {p}
                        </span>
                      ))}
                    </li>
                  ) : null}
                </ul>
              </details>
            </li>
          );
        })}
      </ul>
      {trace.event ? (
        <p>
          Narrative event {trace.event.event}: {trace.event.result} (verdict {trace.event.verdict}, active{" "}
          {trace.event.activeTurns} turns)
        </p>
      ) : null}
      {trace.quests.length > 0 ? (
        <ul>
          {trace.quests.map((q) => (
            <li key={q.quest}>
              Quest {q.quest}: {q.from} → {q.to} ({q.reason})
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
