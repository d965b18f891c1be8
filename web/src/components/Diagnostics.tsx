import type { CheckReport } from "../api.ts";

/** A world's check report as `taleforge check` lists it: line, column, code and message, as text. */
export function Diagnostics(props: { report: CheckReport; title: string }) {
  const { report } = props;
  if (report.diagnostics.length === 0) return null;
  return (
    <section
      class={`diagnostics${report.errorCount > 0 ? " has-errors" : ""}`}
      aria-labelledby="diagnostics-title"
    >
      <h3 id="diagnostics-title">{props.title}</h3>
      <p>
        {report.errorCount} error{report.errorCount === 1 ? "" : "s"}, {report.warningCount} warning
        {report.warningCount === 1 ? "" : "s"} in {report.file}
      </p>
      <ol class="diagnostic-list">
        {report.diagnostics.map((d, i) => (
          <li key={i} class={d.severity}>
            <span class="where">
              {d.line !== null ? `line ${d.line}, column ${d.column ?? 1}` : "(no position)"}
            </span>{" "}
            <span class="severity">{d.severity}</span> <code class="code">{d.code}</code>
            <span class="message">{d.message}</span>
            {d.path.length > 0 ? <span class="muted small block">at {d.path.join(".")}</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
