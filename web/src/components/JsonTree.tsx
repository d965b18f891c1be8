/** A JSON value as a tree of disclosure widgets (keyboard-operable <details>), every value as text. */
export function JsonTree(props: { value: unknown; name?: string; open?: boolean }) {
  const { value, name } = props;
  const label = name !== undefined ? <span class="key">{name}: </span> : null;
  if (value !== null && typeof value === "object") {
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
    if (entries.length === 0)
      return (
        <div class="leaf">
          {label}
          <span class="muted">{Array.isArray(value) ? "[]" : "{}"}</span>
        </div>
      );
    return (
      <details class="json" open={props.open}>
        <summary>
          {label}
          <span class="muted">{summary}</span>
        </summary>
        <div class="children">
          {entries.map(([k, v]) => (
            <JsonTree key={k} name={k} value={v} />
          ))}
        </div>
      </details>
    );
  }
  return (
    <div class="leaf">
      {label}
      <span class={`value ${typeof value}`}>{JSON.stringify(value)}</span>
    </div>
  );
}
