import { useRef, useState } from "preact/hooks";
import { api, type TranscriptStep } from "../api.ts";
import { controlLabel, type Permissions } from "../controls.ts";
import { type PlayerMessage, playerMessage } from "../messages.ts";

/** Whether a control's answer is a vote the party was asked (202 {vote}), not the control done. */
export function askedVote(answer: unknown): boolean {
  return typeof answer === "object" && answer !== null && "vote" in answer;
}

/**
 * The controls of the story's last turn (issue 33): Retry (a new draw of the narrator), Undo (take
 * the turn back) and Alter (replace its narration), each for whoever the game's rules let use it
 * (`may`: the host always; a player when the rules say anyone, or as a vote of the party, which the
 * button then says). What they change arrives for every page as events (`turn-retried`,
 * `narration-altered`, `head-moved`, the vote's); this one only says what happened, or why it was
 * refused.
 */
export function StoryControls(props: {
  game: string;
  last: TranscriptStep;
  busy: boolean;
  /** A party vote is open: a control that would open another waits for it to close (one at a time). */
  voting: boolean;
  may: Permissions;
}) {
  const { game, last, may } = props;
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState("");
  const [working, setWorking] = useState(false);
  /** What the last control did, shown while the story's last turn is the one it left (not after a rewind). */
  const [note, setNote] = useState<{ text: string; tick: number; seq?: number } | null>(null);
  const [error, setError] = useState<PlayerMessage | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const status = useRef<HTMLParagraphElement>(null);
  const turn = last.kind === "opening" ? "the opening" : `turn ${last.tick}`;

  const run = async (done: string, asked: string, tick: number, call: () => Promise<unknown>) => {
    setWorking(true);
    setError(null);
    setNote(null);
    try {
      const answer = await call();
      // A vote keeps the turn as it is: the note stays while that very step is the last one.
      setNote(askedVote(answer) ? { text: asked, tick: last.tick, seq: last.seq } : { text: done, tick });
      setEditing(false);
    } catch (e) {
      setError(playerMessage(e, "control"));
    } finally {
      setWorking(false);
      status.current?.focus();
    }
  };

  const disabled = working || props.busy;
  const off = (control: "retry" | "undo" | "alter") =>
    disabled || (props.voting && may[control].permission === "vote");
  return (
    <section class="story-controls" aria-label={`Story controls for ${turn}`}>
      {editing ? (
        <form
          class="alter"
          onSubmit={(e) => {
            e.preventDefault();
            const changed = text.trim();
            if (changed === "") {
              setError({ text: "The new text is empty: write what the story should say." });
              return;
            }
            void run(
              `The narration of ${turn} was changed for everyone.`,
              `You asked the party to accept the new narration of ${turn}: the vote is at the top of the page.`,
              last.tick,
              () => api.alterNarration(game, may.alter.token, changed),
            );
          }}
        >
          <label class="field">
            <span>
              New narration of {turn} ({may.alter.permission === "vote" ? "once the party agrees, " : ""}
              everyone sees it; the original stays in the host's log)
            </span>
            <textarea
              ref={box}
              rows={8}
              maxLength={20_000}
              value={text}
              onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
            />
          </label>
          <div class="buttons">
            <button type="submit" class="primary" disabled={off("alter")}>
              {may.alter.permission === "vote" ? "Ask the party" : "Save"}
            </button>
            <button
              type="button"
              onClick={() => {
                setEditing(false);
                setError(null);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div class="buttons">
          {last.kind === "turn" && may.retry.permission !== "denied" ? (
            <button
              type="button"
              disabled={off("retry")}
              onClick={() =>
                run(
                  `Turn ${last.tick} was told again: the new telling is above.`,
                  `You asked the party to retry turn ${last.tick}: the vote is at the top of the page.`,
                  last.tick,
                  () => api.retryTurn(game, may.retry.token),
                )
              }
            >
              {controlLabel(may.retry.permission, "Retry")}
            </button>
          ) : null}
          {last.kind === "turn" && may.undo.permission !== "denied" ? (
            <button
              type="button"
              disabled={off("undo")}
              // No confirmation: the turn taken back stays as a branch (the timeline's rewind, the branches).
              onClick={() =>
                run(
                  `Turn ${last.tick} was taken back; it stays as a branch.`,
                  `You asked the party to take back turn ${last.tick}: the vote is at the top of the page.`,
                  last.tick - 1,
                  () => api.undoTurn(game, may.undo.token),
                )
              }
            >
              {controlLabel(may.undo.permission, "Undo")}
            </button>
          ) : null}
          {may.alter.permission === "denied" ? null : (
            <button
              type="button"
              disabled={off("alter")}
              onClick={() => {
                setText(last.narration);
                setError(null);
                setNote(null);
                setEditing(true);
                requestAnimationFrame(() => box.current?.focus());
              }}
            >
              {controlLabel(may.alter.permission, "Alter")}
            </button>
          )}
        </div>
      )}
      <p class="muted small" role="status" tabIndex={-1} ref={status}>
        {note && note.tick === last.tick && (note.seq === undefined || note.seq === last.seq)
          ? note.text
          : ""}
      </p>
      {error ? (
        <p class="error" role="alert">
          {error.text}
        </p>
      ) : null}
    </section>
  );
}
