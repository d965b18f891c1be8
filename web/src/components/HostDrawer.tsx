import { useEffect, useRef, useState } from "preact/hooks";
import {
  api,
  type GameView,
  type LogLine,
  type StorageView,
  type TraceView,
  type TranscriptStep,
} from "../api.ts";
import { playerMessage } from "../messages.ts";
import { BranchPanel } from "./BranchPanel.tsx";
import { ControlRules } from "./ControlRules.tsx";
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

/** The link that opens a player's seat on a new device (the token stays in the fragment: never sent in a request line). */
function seatLink(game: string, token: string): string {
  return `${location.origin}${location.pathname}#/seat/${game}/${encodeURIComponent(token)}`;
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
  /** Why the last turn failed (the host's only: players read one plain sentence). */
  cause?: string;
  /** Bumped by the branch events (names, deletions): the branch list reads them again. */
  branchEdits?: number;
  onClose: () => void;
  onChanged: () => void;
  /** Hands the host role to a player: this page's host token stops working. */
  onHandHost: (player: string, name: string) => Promise<void>;
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
  // Escape closes the drawer wherever the focus is (a button that went away leaves it on the page).
  const onClose = props.onClose;
  useEffect(() => {
    const close = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) onClose();
    };
    document.addEventListener("keydown", close);
    return () => document.removeEventListener("keydown", close);
  }, [onClose]);
  const statusLine = useRef<HTMLParagraphElement>(null);
  const [seatLinks, setSeatLinks] = useState<Record<string, string>>({});
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

  const act = async (what: string, run: () => Promise<unknown>, keepFocus = true) => {
    setMessage("");
    try {
      await run();
      setMessage(`${what}: done.`);
      props.onChanged();
    } catch (e) {
      setMessage(`${what}: ${playerMessage(e, "host").text}`);
    }
    // A control that went away (a kicked player's row) leaves the focus on the line that says what happened.
    if (!keepFocus) statusLine.current?.focus();
  };
  const players = game.players.filter((p) => p.status === "active");
  // The host's own character: the role is theirs already, so it is not offered to them.
  const own = "playerId" in game.you ? game.you.playerId : null;

  return (
    <aside class="drawer" id="host-drawer" aria-labelledby="drawer-title">
      <div class="drawer-head">
        <h2 id="drawer-title" tabIndex={-1} ref={heading}>
          Host and author tools
        </h2>
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
      {props.cause ? (
        <div class="cause" role="status">
          <h3>Why the turn failed</h3>
          <p>{props.cause}</p>
          <p class="muted small">
            Players see only that the narrator did not answer and when it tries again. Force the turn to try
            now.
          </p>
        </div>
      ) : null}
      <fieldset class="controls">
        <legend class="visually-hidden">Game controls</legend>
        {game.status === "running" || game.status === "paused" ? (
          // One button that changes its words: the focus stays on it after Pause or Resume.
          <button
            type="button"
            key="pause-resume"
            onClick={() =>
              game.status === "running"
                ? act("Pause", () => api.pause(game.id, token))
                : act("Resume", () => api.resume(game.id, token))
            }
          >
            {game.status === "running" ? "Pause" : "Resume"}
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
        <button
          type="button"
          disabled={game.status === "ended"}
          onClick={() => {
            if (confirm("End the game for everyone? The story stays readable; nobody can act any more."))
              void act("End the game", () => api.end(game.id, token), false);
          }}
        >
          End the game
        </button>
      </fieldset>
      <p role="status" class="status-line" tabIndex={-1} ref={statusLine}>
        {message}
      </p>
      <details class="seats">
        <summary>Players and seats</summary>
        {players.length === 0 ? <p class="muted">Nobody plays yet.</p> : null}
        <ul class="seat-list">
          {players.map((p) => (
            <li key={p.id}>
              <span class="who">{p.name}</span>{" "}
              <span class="muted small">{p.submitted ? "has acted" : "deciding"}</span>
              <div class="buttons">
                <button
                  type="button"
                  onClick={() =>
                    act(`A seat link for ${p.name}`, async () => {
                      const seat = await api.seat(game.id, token, p.id);
                      setSeatLinks({ ...seatLinks, [p.id]: seatLink(game.id, seat.token) });
                    })
                  }
                >
                  Seat link for {p.name}
                </button>
                {/* The host's own character: removing or freeing it would lock the host out of it, and the role is theirs. */}
                {p.id === own ? null : (
                  <>
                    <button
                      type="button"
                      onClick={() => {
                        if (confirm(`Remove ${p.name} from the game? Turns stop waiting for them.`))
                          void act(`Remove ${p.name}`, () => api.kick(game.id, token, p.id), false);
                      }}
                    >
                      Remove {p.name}
                    </button>
                    <button
                      type="button"
                      onClick={() => {
                        if (
                          confirm(
                            `Free ${p.name}'s seat? Their device stops working, and the next to join with the invite as ${p.name} plays on.`,
                          )
                        )
                          void act(`Free ${p.name}'s seat`, () => api.free(game.id, token, p.id), false);
                      }}
                    >
                      Free {p.name}'s seat
                    </button>
                    <button
                      type="button"
                      onClick={() => {
                        if (
                          confirm(
                            `Make ${p.name} the host? These tools move to their page, and you keep playing your character.`,
                          )
                        )
                          void act(`Make ${p.name} the host`, () => props.onHandHost(p.id, p.name), false);
                      }}
                    >
                      Make {p.name} the host
                    </button>
                  </>
                )}
              </div>
              {seatLinks[p.id] ? (
                <label class="field">
                  <span>
                    Send this link to {p.name} only: it opens their character on a new device, and their old
                    device stops working.
                  </span>
                  <input
                    readOnly
                    value={seatLinks[p.id]}
                    onFocus={(e) => (e.target as HTMLInputElement).select()}
                  />
                </label>
              ) : null}
            </li>
          ))}
        </ul>
      </details>
      <details class="rules">
        <summary>Who may use the story controls</summary>
        <ControlRules game={game} token={token} />
      </details>
      <details class="history">
        <summary>Branches</summary>
        <BranchPanel game={game} token={token} edits={props.branchEdits ?? 0} onChanged={props.onChanged} />
      </details>
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
