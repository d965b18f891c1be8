import { useEffect, useRef, useState } from "preact/hooks";
import {
  api,
  type GameView,
  type LogLine,
  type StorageView,
  type TraceView,
  type TranscriptStep,
} from "../api.ts";
import { JsonTree } from "./JsonTree.tsx";
import { TraceTree } from "./TraceTree.tsx";

type Tab = "trace" | "log" | "storage";

/** "line 3, column 7" in a script error's message, for its own column in the table. */
function position(message: string): string {
  const found = /line (\d+)(?:,? column (\d+))?/i.exec(message);
  return found ? `${found[1]}:${found[2] ?? "1"}` : "";
}

async function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}

/**
 * The host's and author's drawer: the controls (pause, force the turn,
 * exports), the last turn's trace as a tree, the log filtered by tick, type
 * and trigger, and the scripts' storage. Only shown with the host token.
 */
export function HostDrawer(props: {
  game: GameView;
  steps: TranscriptStep[];
  token: string;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { game, token } = props;
  const [tab, setTab] = useState<Tab>("trace");
  const traced = props.steps.filter((s) => s.kind === "turn" || s.kind === "opening");
  const latest = traced.at(-1)?.seq;
  const [seq, setSeq] = useState<number | undefined>(latest);
  const [trace, setTrace] = useState<TraceView | undefined>();
  const [firedOnly, setFiredOnly] = useState(false);
  const [asText, setAsText] = useState(false);
  const [log, setLog] = useState<LogLine[]>([]);
  const [filter, setFilter] = useState<{ tick: string; type: string; trigger: string }>({
    tick: "",
    type: "",
    trigger: "",
  });
  const [storage, setStorage] = useState<StorageView | undefined>();
  const [message, setMessage] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  const following = useRef(true);

  useEffect(() => heading.current?.focus(), []);
  // Follow the newest turn unless the host picked an older one.
  useEffect(() => {
    if (following.current) setSeq(latest);
  }, [latest]);

  useEffect(() => {
    if (tab !== "trace" || seq === undefined) return;
    api
      .trace(game.id, token, seq)
      .then(setTrace)
      .catch((e: Error) => setMessage(e.message));
  }, [tab, seq]);

  const readLog = () =>
    api
      .log(game.id, token, {
        ...(filter.tick !== "" ? { tick: Number(filter.tick) } : {}),
        ...(filter.type ? { type: filter.type } : {}),
        ...(filter.trigger ? { trigger: filter.trigger.trim() } : {}),
      })
      .then((answer) => setLog(answer.entries))
      .catch((e: Error) => setMessage(e.message));
  useEffect(() => {
    if (tab === "log") void readLog();
    if (tab === "storage")
      api
        .storage(game.id, token)
        .then(setStorage)
        .catch((e: Error) => setMessage(e.message));
  }, [tab, game.seq]);

  const act = async (what: string, run: () => Promise<unknown>) => {
    setMessage("");
    try {
      await run();
      setMessage(`${what}: done.`);
      props.onChanged();
    } catch (e) {
      setMessage(`${what}: ${(e as Error).message}`);
    }
  };

  return (
    <aside
      class="drawer"
      id="host-drawer"
      aria-labelledby="drawer-title"
      onKeyDown={(e) => {
        if (e.key === "Escape") props.onClose();
      }}
    >
      <div class="drawer-head">
        <h2 id="drawer-title" tabIndex={-1} ref={heading}>
          Host and author tools
        </h2>
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
      <fieldset class="controls">
        <legend class="visually-hidden">Game controls</legend>
        {game.status === "running" ? (
          <button type="button" onClick={() => act("Pause", () => api.pause(game.id, token))}>
            Pause
          </button>
        ) : null}
        {game.status === "paused" ? (
          <button type="button" onClick={() => act("Resume", () => api.resume(game.id, token))}>
            Resume
          </button>
        ) : null}
        <button
          type="button"
          disabled={game.status !== "running"}
          onClick={() => act("Force the turn", () => api.forceTurn(game.id, token))}
        >
          Force the turn
        </button>
        <button
          type="button"
          disabled={game.status === "lobby"}
          onClick={() =>
            act("Export the save", async () =>
              download(await api.save(game.id, token), `${game.id}.save.json`),
            )
          }
        >
          Export save
        </button>
        <button
          type="button"
          disabled={game.status === "lobby"}
          onClick={() =>
            act("Export the cassette", async () =>
              download(await api.cassette(game.id, token), `${game.id}.cassette.jsonl`),
            )
          }
        >
          Export cassette
        </button>
        <button
          type="button"
          disabled={game.status === "lobby"}
          onClick={() =>
            act("Save as play-test", async () =>
              download(await api.playtest(game.id, token), `${game.id}.test.yaml`),
            )
          }
        >
          Save as play-test
        </button>
      </fieldset>
      {message ? (
        <p role="status" class="status-line">
          {message}
        </p>
      ) : null}
      <div class="tabs" role="tablist" aria-label="Inspectors">
        {(["trace", "log", "storage"] as const).map((t) => (
          <button
            type="button"
            role="tab"
            key={t}
            id={`tab-${t}`}
            aria-selected={tab === t}
            aria-controls={`panel-${t}`}
            tabIndex={tab === t ? 0 : -1}
            onClick={() => setTab(t)}
            onKeyDown={(e) => {
              const order: Tab[] = ["trace", "log", "storage"];
              const at = order.indexOf(t);
              const next =
                e.key === "ArrowRight"
                  ? order[(at + 1) % 3]
                  : e.key === "ArrowLeft"
                    ? order[(at + 2) % 3]
                    : undefined;
              if (next) {
                setTab(next);
                document.getElementById(`tab-${next}`)?.focus();
              }
            }}
          >
            {t === "trace" ? "Trace" : t === "log" ? "Log" : "Storage"}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} class="tabpanel">
        {tab === "trace" ? (
          traced.length === 0 ? (
            <p class="muted">No turn has been played yet.</p>
          ) : (
            <>
              <div class="filters">
                <label class="field inline">
                  <span>Step</span>
                  <select
                    value={String(seq ?? "")}
                    onChange={(e) => {
                      const value = Number((e.target as HTMLSelectElement).value);
                      following.current = value === latest;
                      setSeq(value);
                    }}
                  >
                    {traced.map((s) => (
                      <option key={s.seq} value={String(s.seq)}>
                        {s.kind === "opening" ? "Opening" : `Turn ${s.tick}`}
                      </option>
                    ))}
                  </select>
                </label>
                <label class="choice">
                  <input type="checkbox" checked={firedOnly} onChange={() => setFiredOnly(!firedOnly)} />
                  Fired triggers only
                </label>
                <label class="choice">
                  <input type="checkbox" checked={asText} onChange={() => setAsText(!asText)} />
                  As text
                </label>
              </div>
              {trace && trace.seq === seq ? (
                asText ? (
                  <pre class="trace-text">{trace.text}</pre>
                ) : (
                  <TraceTree view={trace} firedOnly={firedOnly} />
                )
              ) : (
                <p role="status">Reading the trace…</p>
              )}
            </>
          )
        ) : null}
        {tab === "log" ? (
          <>
            <form
              class="filters"
              onSubmit={(e) => {
                e.preventDefault();
                void readLog();
              }}
            >
              <label class="field inline">
                <span>Tick</span>
                <input
                  type="number"
                  min={0}
                  value={filter.tick}
                  onInput={(e) => setFilter({ ...filter, tick: (e.target as HTMLInputElement).value })}
                />
              </label>
              <label class="field inline">
                <span>Type</span>
                <select
                  value={filter.type}
                  onChange={(e) => setFilter({ ...filter, type: (e.target as HTMLSelectElement).value })}
                >
                  <option value="">any</option>
                  <option value="trigger-script-error">script errors</option>
                  <option value="script-log">script logs</option>
                  <option value="notice">notices</option>
                </select>
              </label>
              <label class="field inline">
                <span>Trigger</span>
                <input
                  value={filter.trigger}
                  onInput={(e) => setFilter({ ...filter, trigger: (e.target as HTMLInputElement).value })}
                />
              </label>
              <button type="submit">Filter</button>
            </form>
            {log.length === 0 ? (
              <p class="muted">No log entry matches.</p>
            ) : (
              <div class="table-scroll">
                <table class="log">
                  <caption class="visually-hidden">Log entries</caption>
                  <thead>
                    <tr>
                      <th scope="col">Tick</th>
                      <th scope="col">Type</th>
                      <th scope="col">Trigger</th>
                      <th scope="col">Line:col</th>
                      <th scope="col">Message</th>
                    </tr>
                  </thead>
                  <tbody>
                    {log.map((entry, i) => (
                      <tr key={i} class={entry.type}>
                        <td>{entry.tick}</td>
                        <td>{entry.type}</td>
                        <td class="trigger">{entry.trigger ?? "—"}</td>
                        <td>{entry.type === "trigger-script-error" ? position(entry.message) : ""}</td>
                        <td class="message">{entry.message}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        ) : null}
        {tab === "storage" ? (
          storage ? (
            <div class="storage">
              <p class="muted">At turn {storage.tick}.</p>
              <h3>Storage</h3>
              <JsonTree value={storage.storage} name="storage" open />
              <h3>Narrative events</h3>
              <JsonTree value={storage.events} name="events" />
              <h3>Consumed triggers</h3>
              <JsonTree value={storage.consumed} name="consumed" />
              <h3>Trigger edits</h3>
              <JsonTree value={storage.triggerEdits} name="triggerEdits" />
            </div>
          ) : (
            <p role="status">Reading the storage…</p>
          )
        ) : null}
      </div>
    </aside>
  );
}
