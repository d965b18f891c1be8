import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, type GameView, type NarrativeNote, type TranscriptStep } from "../api.ts";
import { HostDrawer } from "../components/HostDrawer.tsx";
import { Journal } from "../components/Journal.tsx";
import { PartyPanel } from "../components/PartyPanel.tsx";
import { RealmMap } from "../components/RealmMap.tsx";
import { Story } from "../components/Story.tsx";
import { inviteLink, loadSeat } from "../session.ts";
import { openStream } from "../sse.ts";

/** What the server refuses in an action (src/world/terminal-text.ts): C0 controls but tab and newline, DEL, C1, bidi controls. */
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A short, stable idempotency key for one action text of one turn: the same action sent twice is one. */
function keyOf(tick: number, text: string): string {
  let hash = 0;
  for (const char of text) hash = (Math.imul(hash, 31) + (char.codePointAt(0) ?? 0)) | 0;
  return `t${tick}-${(hash >>> 0).toString(36)}-${text.length}`;
}

/**
 * A game being played. Everything shown is read from the API (the game, its
 * transcript, the narrative notes); the event stream only says when to read
 * again, and streams the narration being written. So a reload or a dropped
 * connection loses nothing, and a step is never shown twice.
 */
export function PlayPage(props: { id: string }) {
  const { id } = props;
  const seat = loadSeat(id);
  const token = seat?.playerToken ?? seat?.hostToken;
  const [game, setGame] = useState<GameView | undefined>();
  const [steps, setSteps] = useState<TranscriptStep[]>([]);
  const [notes, setNotes] = useState<NarrativeNote[]>([]);
  const [live, setLive] = useState<{ tick: number; text: string } | null>(null);
  const [connected, setConnected] = useState(false);
  const [error, setError] = useState("");
  const [failure, setFailure] = useState("");
  const [drawer, setDrawer] = useState(false);
  const [action, setAction] = useState("");
  const [sending, setSending] = useState(false);
  const [copied, setCopied] = useState(false);
  const tickRef = useRef(-1);
  const shownSteps = useRef(-1);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const refresh = useCallback(async () => {
    if (!token) return;
    try {
      const [view, transcript, narrative] = await Promise.all([
        api.game(id, token),
        api.transcript(id, token),
        api.notes(id, token),
      ]);
      tickRef.current = view.tick;
      setGame(view);
      setSteps(transcript.transcript);
      setNotes(narrative.notes);
      // The narration being written is shown until its step is stored.
      const written = new Set(
        transcript.transcript.filter((s) => s.kind === "turn" || s.kind === "opening").map((s) => s.tick),
      );
      setLive((current) => (current && written.has(current.tick) ? null : current));
      setError("");
    } catch (e) {
      setError((e as Error).message);
    }
  }, [id, token]);

  const later = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void refresh(), 120);
  }, [refresh]);

  // A new step scrolls into view (the first read of the game shows the latest one).
  useEffect(() => {
    if (steps.length === 0 || steps.length === shownSteps.current) return;
    const first = shownSteps.current < 0;
    shownSteps.current = steps.length;
    const last = document.querySelector(".story .steps > li:last-child");
    if (!last || (first && steps.length < 3)) return;
    const reduce = matchMedia("(prefers-reduced-motion: reduce)").matches;
    last.scrollIntoView({ block: "start", behavior: first || reduce ? "auto" : "smooth" });
  }, [steps.length]);

  useEffect(() => {
    if (!token) return;
    void refresh();
    const stream = openStream(id, token, "0", {
      onConnection: (up) => {
        setConnected(up);
        if (up) later();
      },
      onEvent: (event) => {
        if (event.event === "narration") {
          const { tick, text } = event.data as { tick: number; text: string };
          if (tick <= tickRef.current && tick !== 0) return;
          setLive((current) =>
            current && current.tick === tick ? { tick, text: current.text + text } : { tick, text },
          );
          return;
        }
        if (event.event === "turn-failed") setFailure((event.data as { message: string }).message);
        if (event.event === "turn") setFailure("");
        later();
      },
    });
    return () => {
      stream.close();
      clearTimeout(timer.current);
    };
  }, [id, token]);

  if (!token)
    return (
      <main id="main" class="page narrow">
        <h1>This game is not open in this browser</h1>
        <p>
          Ask the host for the invite link to join it, or <a href="#/">start a game of your own</a>.
        </p>
      </main>
    );
  if (!game)
    return (
      <main id="main" class="page narrow">
        <p role="status">{error || "Opening the game…"}</p>
      </main>
    );

  const you = "playerId" in game.you ? game.you : undefined;
  const me = you ? game.players.find((p) => p.id === you.playerId) : undefined;
  const hostToken = seat?.hostToken;
  const title = seat?.name || "Taleforge game";
  const turn = game.tick + 1;
  const state = game.state;
  const lastTurn = [...steps].reverse().find((s) => s.kind === "turn" || s.kind === "opening");
  // Every quest still on offer, not only the last turn's: an offer stays open for a few turns while
  // the party plays on (as /accept in the terminal), the newest prompts first.
  const prompted = (lastTurn?.result.prompts ?? []).map((p) => p.quest);
  const offers = (state?.quests ?? [])
    .filter((q) => q.status === "available")
    .sort((a, b) => Number(prompted.includes(b.quest)) - Number(prompted.includes(a.quest)))
    .map((q) => ({
      quest: q.quest,
      statement: lastTurn?.result.prompts?.find((p) => p.quest === q.quest)?.statement ?? q.statement,
    }));
  const active = game.players.filter((p) => p.status === "active");

  const submit = async (event: Event) => {
    event.preventDefault();
    // Invisible control and direction characters (pasted along with text) are dropped, not refused:
    // the server accepts visible text only, and the player cannot see what to remove.
    const text = action.replace(INVISIBLE, "").trim();
    if (!text || !seat?.playerToken) return;
    // "/map", "/quests": the terminal's commands are no actions ("You try “/map”."); the page shows them.
    if (text.startsWith("/")) {
      setError(slashHint(text));
      return;
    }
    setSending(true);
    setError("");
    try {
      await api.submit(id, seat.playerToken, { text, idempotencyKey: keyOf(turn, text) });
      setAction("");
      await refresh();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSending(false);
    }
  };

  const answer = async (quest: string, choice: "accept" | "reject") => {
    if (!seat?.playerToken) return;
    try {
      await api.answer(id, seat.playerToken, quest, choice);
      await refresh();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const start = async () => {
    if (!hostToken) return;
    try {
      await api.start(id, hostToken);
      await refresh();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const invite = game.invite ?? seat?.invite;
  const link = invite ? inviteLink(invite, seat?.name) : undefined;

  return (
    <div class={`play${drawer ? " with-drawer" : ""}`}>
      <header class="game-head">
        <h1>{title}</h1>
        <p class="muted small">
          <span class={`dot ${connected ? "on" : "off"}`} aria-hidden="true" />
          <span role="status">{connected ? "live" : "reconnecting…"}</span> · {game.status}
          {game.status !== "lobby" ? ` · turn ${turn}` : ""}
          {you ? ` · you play ${you.name}` : ""}
        </p>
        {hostToken ? (
          <button
            type="button"
            class="host-button"
            aria-expanded={drawer}
            aria-controls="host-drawer"
            onClick={() => setDrawer(!drawer)}
          >
            Host tools
          </button>
        ) : null}
      </header>
      {state ? (
        <nav class="jump" aria-label="Parts of the game">
          {[
            ["turn-title", "Your turn"],
            ["journal-title", "Journal"],
            ["map-title", "Map"],
            ["party-title", "Party"],
          ].map(([target, label]) => (
            <button
              type="button"
              key={target}
              onClick={() => {
                const heading = document.getElementById(target!);
                heading?.scrollIntoView({ block: "start" });
                heading?.setAttribute("tabindex", "-1");
                heading?.focus({ preventScroll: true });
              }}
            >
              {label}
            </button>
          ))}
        </nav>
      ) : null}
      <main id="main" class="game">
        <div class="story-column">
          {game.status === "lobby" ? (
            <section class="lobby panel" aria-labelledby="lobby-title">
              <h2 id="lobby-title">Waiting to start</h2>
              {link ? (
                <div class="invite">
                  <label class="field">
                    <span>Invite link: share it with the other players</span>
                    <input readOnly value={link} onFocus={(e) => (e.target as HTMLInputElement).select()} />
                  </label>
                  <button
                    type="button"
                    onClick={() => {
                      void navigator.clipboard?.writeText(link).then(() => setCopied(true));
                    }}
                  >
                    {copied ? "Copied" : "Copy the link"}
                  </button>
                </div>
              ) : null}
              <p>Players: {active.map((p) => p.name).join(", ") || "nobody yet"}</p>
              {hostToken ? (
                <button type="button" class="primary" onClick={start} disabled={active.length === 0}>
                  Start the game
                </button>
              ) : (
                <p>The host starts the game when everyone is here.</p>
              )}
            </section>
          ) : null}
          <Story steps={steps} notes={notes} live={live} />
          {failure ? (
            <p class="error" role="alert">
              The turn failed and will run again: {failure}
            </p>
          ) : null}
          {game.status !== "lobby" ? (
            <section class="turn-panel panel" aria-labelledby="turn-title">
              <h2 id="turn-title">Turn {turn}</h2>
              <ul class="acted" aria-label="Who has acted this turn">
                {active.map((p) => (
                  <li key={p.id} class={p.submitted ? "done" : ""}>
                    {p.name}: {p.submitted ? "has acted" : "still deciding"}
                  </li>
                ))}
              </ul>
              {offers.map((offer) => (
                <fieldset class="offer" key={offer.quest}>
                  <legend>Quest offered: {offer.quest}</legend>
                  <p>
                    <span class="block">{offer.statement}</span>
                  </p>
                  {seat?.playerToken ? (
                    <div class="buttons">
                      <button type="button" class="primary" onClick={() => answer(offer.quest, "accept")}>
                        Accept “{offer.quest}”
                      </button>
                      <button type="button" onClick={() => answer(offer.quest, "reject")}>
                        Decline
                      </button>
                    </div>
                  ) : null}
                </fieldset>
              ))}
              {seat?.playerToken ? (
                <form class="action" onSubmit={submit}>
                  <label class="field">
                    <span>
                      {me?.submitted
                        ? "You have acted this turn; waiting for the others."
                        : "What do you do?"}
                    </span>
                    <input
                      name="action"
                      value={action}
                      maxLength={2000}
                      autoComplete="off"
                      disabled={game.status !== "running" || me?.submitted || sending}
                      onInput={(e) => setAction((e.target as HTMLInputElement).value)}
                    />
                  </label>
                  <button
                    type="submit"
                    class="primary"
                    disabled={game.status !== "running" || me?.submitted || sending || action.trim() === ""}
                  >
                    Act
                  </button>
                </form>
              ) : null}
              {game.status === "paused" ? <p>The host has paused the game.</p> : null}
              {game.status === "ended" ? <p>The game has ended.</p> : null}
            </section>
          ) : null}
          {error ? (
            <p class="error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        {state ? (
          <div class="side-column">
            <Journal state={state} />
            <RealmMap
              game={id}
              token={token}
              state={state}
              version={`${state.tick}:${state.position.region}:${state.position.location}:${state.position.area}`}
            />
            <PartyPanel party={state.party} you={you?.name} />
          </div>
        ) : null}
      </main>
      {drawer && hostToken ? (
        <HostDrawer
          game={game}
          steps={steps}
          token={hostToken}
          onClose={() => {
            setDrawer(false);
            document.querySelector<HTMLButtonElement>(".host-button")?.focus();
          }}
          onChanged={() => void refresh()}
        />
      ) : null}
    </div>
  );
}

/** What a terminal command typed in the action box is, in the browser: where the page shows it. */
export function slashHint(text: string): string {
  const name = text.slice(1).split(/\s+/)[0]?.toLowerCase() ?? "";
  const where: Record<string, string> = {
    map: "The map of the realm is on this page, beside the story (below it on a phone).",
    quests: "Your quests are in the quest journal, beside the story (below it on a phone).",
    journal: "Your quests are in the quest journal, beside the story (below it on a phone).",
    hint: "The quest journal's next step says where the story wants you next.",
    party: "The party is on this page, beside the story (below it on a phone).",
    inventory: "What everyone carries is under the party, beside the story (below it on a phone).",
    accept: "A quest on offer has Accept and Decline buttons above the action box.",
    reject: "A quest on offer has Accept and Decline buttons above the action box.",
  };
  return `“${text.split(/\s+/)[0]}” is a command of the terminal game, not an action. ${where[name] ?? "Type what your character does, in plain words: walk to the harbour, talk to Mara."}`;
}
