import { useEffect, useRef, useState } from "preact/hooks";
import { api, type GameView } from "../api.ts";
import { PartyBranches } from "../components/BranchPanel.tsx";
import { FailureNotice } from "../components/FailureNotice.tsx";
import { HostDrawer } from "../components/HostDrawer.tsx";
import { Journal } from "../components/Journal.tsx";
import { PartyPanel } from "../components/PartyPanel.tsx";
import { ReadingControls } from "../components/ReadingControls.tsx";
import { RealmMap } from "../components/RealmMap.tsx";
import { Story } from "../components/Story.tsx";
import { askedVote, StoryControls } from "../components/StoryControls.tsx";
import { Timeline } from "../components/Timeline.tsx";
import { VoteBanner, voteOutcome, voteQuestion } from "../components/VoteBanner.tsx";
import { mayUseAny, permissionsOf } from "../controls.ts";
import { followHostRole } from "../host-role.ts";
import { type PlayerMessage, playerMessage } from "../messages.ts";
import { applyReading, chime, loadReading } from "../reading.ts";
import { inviteLink, loadSeat, saveSeat } from "../session.ts";
import { useGame } from "../use-game.ts";

/** What the server refuses in an action (src/world/terminal-text.ts): C0 controls but tab and newline, DEL, C1, bidi controls. */
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A short, stable idempotency key for one action text of one turn: the same action sent twice is one. */
function keyOf(tick: number, text: string): string {
  let hash = 0;
  for (const char of text) hash = (Math.imul(hash, 31) + (char.codePointAt(0) ?? 0)) | 0;
  return `t${tick}-${(hash >>> 0).toString(36)}-${text.length}`;
}

/**
 * A game being played. The game, its transcript and the narrative notes are
 * read once; then the events of its stream are applied to them (useGame), and
 * they are read again only when the page missed an event. So a reload or a
 * dropped connection loses nothing, and a step is never shown twice.
 */
export function PlayPage(props: { id: string }) {
  const { id } = props;
  const seat = loadSeat(id);
  const token = seat?.playerToken ?? seat?.hostToken;
  /** The host role moved (handed on, or taken): said once at the top of the page. */
  const [hostNote, setHostNote] = useState("");
  /** Bumped when the seat changes (a host token taken or dropped): the page reads it again. */
  const [, setSeatVersion] = useState(0);
  const hostRole = useRef<Promise<void>>(Promise.resolve());
  /** The reader's character's name, for the events that name players (an undone turn's actions). */
  const playerName = useRef<string | undefined>(undefined);
  const {
    game,
    steps,
    notes,
    live,
    connected,
    trouble,
    readError,
    failure,
    cause,
    branchEdits,
    voteClosed,
    resync,
    submitted,
  } = useGame(id, token, seat?.hostToken, (message) => {
    // An undone turn gives each player their action back, to send again or change (an empty box only).
    if (message.event === "head-moved") {
      const moved = message.data as { control: string; actions: { player: string; text: string }[] };
      const own = moved.actions.find((a) => a.player === playerName.current);
      if (moved.control === "undo" && own) setAction((text) => (text.trim() === "" ? own.text : text));
    }
    // One at a time, in order: a claim follows the check of the host token before it.
    hostRole.current = hostRole.current.then(() =>
      followHostRole(id, message, (note) => {
        setHostNote(note);
        setSeatVersion((v) => v + 1);
      }),
    );
  });
  /** An error of the player's last action: it stays until dismissed, or until what it is about is fixed. */
  const [error, setError] = useState<PlayerMessage | null>(null);
  /** The host pressed Start: the opening is being written. */
  const [starting, setStarting] = useState(false);
  const [reading, setReading] = useState(loadReading);
  const [drawer, setDrawer] = useState(false);
  const [action, setAction] = useState("");
  const [sending, setSending] = useState(false);
  const [copied, setCopied] = useState(false);
  const shownSteps = useRef(-1);
  const statusLine = useRef<HTMLParagraphElement>(null);
  const actionBox = useRef<HTMLInputElement>(null);
  const wasYourTurn = useRef(false);

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

  // The opening arrived (or the game was started elsewhere): Start is done.
  useEffect(() => {
    if (game && game.status !== "lobby") setStarting(false);
  }, [game?.status]);

  useEffect(() => applyReading(reading), [reading]);

  // A closed vote's outcome is said for a short while (a new vote, or the next one's close, replaces it).
  const [outcomeShown, setOutcomeShown] = useState<string | null>(null);
  useEffect(() => {
    if (!voteClosed) return;
    setOutcomeShown(voteClosed.id);
    const timer = setTimeout(() => setOutcomeShown(null), 12_000);
    return () => clearTimeout(timer);
  }, [voteClosed?.id]);

  // "Your turn": in the tab's title, and (when the player allowed them) a sound and a notification
  // when it becomes their turn while this tab is hidden.
  const seatName = seat?.name || "Taleforge game";
  const mine =
    game && "playerId" in game.you
      ? game.players.find((p) => p.id === (game.you as { playerId: string }).playerId)
      : undefined;
  const yourTurn =
    game?.status === "running" && mine !== undefined && !mine.submitted && failure === null && live === null;
  useEffect(() => {
    document.title = `${yourTurn ? "Your turn · " : ""}${seatName} · Taleforge`;
    if (yourTurn && !wasYourTurn.current && document.hidden) {
      if (reading.sound) chime();
      if (reading.notify && "Notification" in window && Notification.permission === "granted")
        new Notification("Your turn", {
          body: `${seatName}: what does ${mine?.name ?? "your character"} do?`,
          tag: id,
        });
    }
    wasYourTurn.current = yourTurn;
  }, [yourTurn, seatName]);

  const freedNote = hostNote || seat?.freed;
  if (!token)
    return freedNote ? (
      // The host freed this browser's seat (now, or before a reload): say so, not only that the game is closed.
      <main id="main" class="page narrow">
        <h1>The host freed your seat</h1>
        <p role="status">{freedNote}</p>
        {seat?.invite ? (
          <p>
            <a href={`#/join/${encodeURIComponent(seat.invite)}`}>Join this game again</a> (as the same
            character, if it is still free), or <a href="#/">start a game of your own</a>.
          </p>
        ) : (
          <p>
            No invite link? Ask the host for it, or <a href="#/">start a game of your own</a>.
          </p>
        )}
      </main>
    ) : (
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
        <p role="status">{readError || "Opening the game…"}</p>
      </main>
    );

  const you = "playerId" in game.you ? game.you : undefined;
  playerName.current = you?.name;
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
  // The story controls: the host's token applies them; a player's as the game's rules say.
  const may = permissionsOf(game, { host: hostToken, player: seat?.playerToken });
  const controlling = game.status === "running" || game.status === "paused";

  const rewind = async (tick: number): Promise<string> => {
    try {
      const answer = await api.rewindGame(id, may.rewind.token, tick);
      // What the rewind changes arrives as events (`head-moved`) for every page.
      return askedVote(answer)
        ? `You asked the party to rewind to turn ${tick}: the vote is at the top of the page.`
        : `Rewound to turn ${tick}: the next turn starts a new branch; the old one stays.`;
    } catch (e) {
      return playerMessage(e, "control").text;
    }
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    // Invisible control and direction characters (pasted along with text) are dropped, not refused:
    // the server accepts visible text only, and the player cannot see what to remove.
    const text = action.replace(INVISIBLE, "").trim();
    if (!text || !seat?.playerToken) return;
    // "/map", "/quests": the terminal's commands are no actions ("You try “/map”."); the page shows them.
    if (text.startsWith("/")) {
      setError({ text: slashHint(text), field: "action" });
      return;
    }
    setSending(true);
    setError(null);
    try {
      const sent = await api.submit(id, seat.playerToken, { text, idempotencyKey: keyOf(turn, text) });
      setAction("");
      // An action acknowledged is stored (its `submission` event follows, for everyone); a bare "y"
      // that answered a quest is no action, and its result arrives as events.
      if (you && "submission" in sent) submitted(you.playerId, sent.tick);
      // The box is disabled now: the focus goes to the line that says what happens next.
      statusLine.current?.focus();
    } catch (e) {
      setError(playerMessage(e, "act"));
      actionBox.current?.focus();
    } finally {
      setSending(false);
    }
  };

  const answer = async (quest: string, choice: "accept" | "reject") => {
    if (!seat?.playerToken) return;
    try {
      // What the answer changes arrives as events (`quest-answer`, and `quest` when it decides).
      await api.answer(id, seat.playerToken, quest, choice);
      statusLine.current?.focus();
    } catch (e) {
      setError(playerMessage(e, "answer"));
    }
  };

  const start = async () => {
    if (!hostToken) return;
    setStarting(true);
    setError(null);
    try {
      // The opening arrives as events (`game-started`, `turn`).
      await api.start(id, hostToken);
    } catch (e) {
      setStarting(false);
      setError(playerMessage(e, "start"));
    }
  };

  const retry = async () => {
    const caller = seat?.playerToken ?? hostToken;
    if (!caller) return;
    setError(null);
    try {
      // The turn's result (or its failure) arrives as events.
      await api.retry(id, caller);
    } catch (e) {
      setError(playerMessage(e, "retry"));
    }
  };

  const invite = game.invite ?? seat?.invite;
  const link = invite ? inviteLink(invite, seat?.name) : undefined;
  const opening = starting || (game.status === "lobby" && live?.tick === 0);
  const waitingFor = active.filter((p) => !p.submitted).map((p) => p.name);
  const telling = live !== null && live.tick === turn;
  // What the action box's label says: what is happening, and what to do.
  const prompt =
    game.status === "paused"
      ? "The host has paused the game: you can act again once they resume it."
      : game.status === "ended"
        ? "The game has ended: the whole story stays here to read."
        : failure
          ? "Your action is kept: the turn runs as soon as the narrator answers."
          : telling
            ? "The turn is being told…"
            : me?.submitted
              ? "You have acted this turn; waiting for the others."
              : "What do you do?";
  const actionError = error?.field === "action";
  const errorBox = error ? (
    <div class="error-box" role="alert" id="action-error">
      <p class="error">{error.text}</p>
      <button type="button" class="small-button" onClick={() => setError(null)}>
        Dismiss
      </button>
    </div>
  ) : null;

  return (
    <div class={`play${drawer ? " with-drawer" : ""}`}>
      <header class="game-head">
        <h1>{title}</h1>
        <p class="muted small">
          <span class={`dot ${connected ? "on" : "off"}`} aria-hidden="true" />
          <span role="status">{connected ? "live" : `reconnecting… ${trouble}`}</span> ·{" "}
          {STATUS_WORDS[game.status]}
          {game.status !== "lobby" ? ` · turn ${turn}` : ""}
          {you ? ` · you play ${you.name}` : ""}
        </p>
        <ReadingControls reading={reading} onChange={setReading} />
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
      {readError ? (
        <p class="error banner" role="status">
          {readError}
        </p>
      ) : null}
      <p class="note banner host-note" role="status" tabIndex={-1} hidden={hostNote === ""}>
        {hostNote}
      </p>
      {game.vote ? (
        <VoteBanner
          vote={game.vote}
          tick={game.tick}
          you={you && seat?.playerToken ? you.playerId : null}
          onBallot={async (ballot) => {
            if (!seat?.playerToken || !game.vote) return "";
            try {
              // The tally (and the control, when this ballot passes it) arrive as events.
              await api.castVote(id, seat.playerToken, game.vote.id, ballot);
              return "";
            } catch (e) {
              return playerMessage(e, "control").text;
            }
          }}
        />
      ) : null}
      {/* Said once when a vote opens and when it closes (the banner's countdown is not a live region). */}
      <p class={game.vote ? "visually-hidden" : "vote-status banner"} role="status">
        {game.vote
          ? `Vote: ${voteQuestion(game.vote, game.tick)}`
          : voteClosed && outcomeShown === voteClosed.id
            ? voteOutcome(voteClosed)
            : ""}
      </p>
      {state ? (
        <nav class="jump" aria-label="Parts of the game">
          {[
            ["turn-title", "Your turn"],
            ["journal-title", "Journal"],
            ["map-title", "Map"],
            ["party-title", "Party"],
            ["timeline-title", "Timeline"],
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
              <h2 id="lobby-title">{opening ? "The story is beginning" : "Waiting to start"}</h2>
              {link && !opening ? (
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
              {opening ? (
                <p role="status">The opening is being written: it appears below as it is told.</p>
              ) : hostToken ? (
                <button type="button" class="primary" onClick={start} disabled={active.length === 0}>
                  Start the game
                </button>
              ) : (
                <p>The host starts the game when everyone is here.</p>
              )}
              {game.status === "lobby" ? errorBox : null}
            </section>
          ) : null}
          <Story steps={steps} notes={notes} live={live} you={you?.name} />
          {/* Not while a turn has failed: its notice's Retry runs that turn, and a second "retry" here
              (tell the last turn again) would read as the same button. */}
          {lastTurn && controlling && mayUseAny(may) && failure === null ? (
            <StoryControls
              game={id}
              last={lastTurn}
              busy={live !== null}
              voting={Boolean(game.vote)}
              may={may}
            />
          ) : null}
          {game.status !== "lobby" ? (
            <section class="turn-panel panel" aria-labelledby="turn-title">
              <h2 id="turn-title">Turn {turn}</h2>
              {failure ? (
                <FailureNotice
                  failure={failure}
                  onRetry={seat?.playerToken || hostToken ? retry : undefined}
                />
              ) : null}
              <ul class="acted" aria-label="Who has acted this turn">
                {active.map((p) => (
                  <li key={p.id} class={p.submitted ? "done" : ""}>
                    {p.name}: {p.submitted ? "has acted" : "still deciding"}
                  </li>
                ))}
                {game.players
                  .filter((p) => p.status === "open")
                  .map((p) => (
                    <li key={p.id} class="open-seat">
                      {p.name}: seat free (join with the invite as {p.name} to play on)
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
                    <span>{prompt}</span>
                    <input
                      name="action"
                      ref={actionBox}
                      value={action}
                      maxLength={2000}
                      autoComplete="off"
                      aria-invalid={actionError}
                      aria-describedby={actionError ? "action-error" : undefined}
                      disabled={game.status !== "running" || me?.submitted || sending}
                      onInput={(e) => {
                        setAction((e.target as HTMLInputElement).value);
                        // The player is fixing what the message was about.
                        if (actionError) setError(null);
                      }}
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
              <p class="turn-status" ref={statusLine} tabIndex={-1}>
                {turnStatus(
                  game.status,
                  me?.submitted === true,
                  waitingFor,
                  telling,
                  !seat?.playerToken,
                  failure !== null,
                )}
              </p>
              {errorBox}
            </section>
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
            {/* The host's are in the host drawer. */}
            {!hostToken && seat?.playerToken ? (
              <PartyBranches
                game={game}
                token={seat.playerToken}
                rewind={controlling ? may.rewind : { permission: "denied", token: "" }}
                branch={controlling ? may.branch : { permission: "denied", token: "" }}
                edits={branchEdits}
                onChanged={() => void resync()}
              />
            ) : null}
            {/* Last: a long game's timeline grows, and must not push the journal and the map out of view. */}
            <Timeline
              steps={steps}
              rewind={controlling ? may.rewind.permission : "denied"}
              busy={live !== null || (Boolean(game.vote) && may.rewind.permission === "vote")}
              onRewind={rewind}
            />
          </div>
        ) : null}
      </main>
      {drawer && hostToken ? (
        <HostDrawer
          game={game}
          steps={steps}
          token={hostToken}
          cause={failure ? cause : ""}
          branchEdits={branchEdits}
          onClose={() => {
            setDrawer(false);
            document.querySelector<HTMLButtonElement>(".host-button")?.focus();
          }}
          onChanged={() => void resync()}
          onHandHost={async (player, name) => {
            await api.handHost(id, hostToken, player);
            // This token no longer works: the tools go with it.
            saveSeat({ game: id, hostToken: undefined });
            setDrawer(false);
            setHostNote(`You handed the host role to ${name}: the host tools are on their page now.`);
            setSeatVersion((v) => v + 1);
            requestAnimationFrame(() => document.querySelector<HTMLElement>(".host-note")?.focus());
          }}
        />
      ) : null}
    </div>
  );
}

const STATUS_WORDS: Record<GameView["status"], string> = {
  lobby: "waiting to start",
  running: "playing",
  paused: "paused by the host",
  ended: "ended",
};

/** The line under the action box: what the table is waiting for, in words. */
function turnStatus(
  status: GameView["status"],
  acted: boolean,
  waitingFor: string[],
  telling: boolean,
  watching: boolean,
  failed: boolean,
): string {
  if (failed) return "Every action of this turn is kept; nothing needs to be sent again.";
  if (status === "paused") return "Paused: the host resumes the game when the table is ready.";
  if (status === "ended") return "The game is over. Thank you for playing.";
  if (telling) return "The narrator is telling the turn.";
  if (waitingFor.length === 0) return "Every action is in: the turn runs now.";
  const names = waitingFor.join(", ");
  if (watching) return `Waiting for ${names}.`;
  return acted
    ? `Your action is in. Waiting for ${names}.`
    : `Waiting for ${names}: the turn runs when every action is in.`;
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
