import { useEffect, useRef, useState } from "preact/hooks";
import type { VoteView } from "../api.ts";

/** What a vote asks the party, in words. `tick`: the game's last turn when it opened. */
export function voteQuestion(vote: Pick<VoteView, "control" | "argument" | "by">, tick: number): string {
  const who = vote.by === "the host" ? "The host" : vote.by;
  switch (vote.control) {
    case "retry":
      return `${who} asks the party to tell turn ${tick} again (a new draw of the narrator).`;
    case "undo":
      return `${who} asks the party to take back turn ${tick}.`;
    case "alter":
      return `${who} asks the party to replace the narration of turn ${tick} with a new text.`;
    case "rewind":
      return `${who} asks the party to rewind to turn ${vote.argument.tick ?? "?"} and play on from there as a new branch.`;
    case "switch":
      return `${who} asks the party to switch to another branch of the story.`;
    case "name":
      return vote.argument.name
        ? `${who} asks the party to name a branch of the story “${vote.argument.name}”.`
        : `${who} asks the party to take a branch's name away.`;
    case "delete":
      return `${who} asks the party to delete a branch of the story (its own turns are lost for good).`;
  }
}

/** What a closed vote did, in one line. */
export function voteOutcome(closed: {
  control: VoteView["control"];
  outcome: Exclude<VoteView["outcome"], "open">;
}): string {
  const done: Record<VoteView["control"], string> = {
    retry: "the turn is told again",
    undo: "the turn is taken back",
    alter: "the narration is replaced",
    rewind: "the story goes back",
    switch: "the story switches branch",
    name: "the branch is named",
    delete: "the branch is deleted",
  };
  switch (closed.outcome) {
    case "passed":
      return `The party agreed: ${done[closed.control]}.`;
    case "failed":
      return "The party said no: nothing changes.";
    case "expired":
      return "Time ran out before a majority: nothing changes.";
    case "stale":
      return "The story moved on before the vote ended: nothing changes.";
  }
}

/** Seconds left until `at` (epoch milliseconds), counted down each second; 0 once it has passed. */
function useSecondsLeft(at: number): number {
  const left = () => Math.max(0, Math.ceil((at - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    const timer = setInterval(() => setSeconds(left()), 1000);
    return () => clearInterval(timer);
  }, [at]);
  return seconds;
}

/**
 * The party's open vote on a story control, at the top of every player's page: what is asked and by
 * whom, the tally, Yes and No for a player who has not voted, and the time left. Not a live region
 * (the countdown would be spoken every second): the page says the question once in its own.
 */
export function VoteBanner(props: {
  vote: VoteView;
  /** The game's last turn (what retry, undo and alter are about). */
  tick: number;
  /** The reader's player id (null: the host's page without a character, who does not vote). */
  you: string | null;
  onBallot: (ballot: "yes" | "no") => Promise<string>;
}) {
  const { vote } = props;
  const seconds = useSecondsLeft(vote.closesAt);
  const [sending, setSending] = useState(false);
  const [message, setMessage] = useState("");
  const yes = useRef<HTMLButtonElement>(null);
  const mine = props.you === null ? undefined : vote.ballots[props.you];
  const cast = async (ballot: "yes" | "no") => {
    setSending(true);
    setMessage(await props.onBallot(ballot));
    setSending(false);
  };
  const { tally } = vote;
  return (
    <section class="vote-banner" aria-labelledby="vote-title">
      <h2 id="vote-title" class="visually-hidden">
        Party vote
      </h2>
      <p class="vote-question">
        <strong>Vote: </strong>
        {voteQuestion(vote, props.tick)}
      </p>
      {vote.control === "alter" && vote.argument.text ? (
        // It scrolls when long: focusable, so a keyboard can scroll it too.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable by keyboard.
        <blockquote class="vote-text" tabIndex={0} aria-label="The proposed narration">
          {vote.argument.text}
        </blockquote>
      ) : null}
      <p class="vote-tally">
        {tally.yes} yes, {tally.no} no: it needs {tally.need} yes of {tally.voters}{" "}
        {tally.voters === 1 ? "player" : "players"}.{" "}
        <span class="muted">
          {seconds > 0 ? `${seconds} ${seconds === 1 ? "second" : "seconds"} left.` : "Time is up."}
        </span>
      </p>
      {props.you === null ? (
        <p class="muted small">The players vote; the host's page follows.</p>
      ) : mine === undefined ? (
        <div class="buttons">
          <button type="button" class="primary" ref={yes} disabled={sending} onClick={() => cast("yes")}>
            Yes
          </button>
          <button type="button" disabled={sending} onClick={() => cast("no")}>
            No
          </button>
        </div>
      ) : (
        <p class="small">You voted {mine ? "yes" : "no"}.</p>
      )}
      <p class="error" role="alert">
        {message}
      </p>
    </section>
  );
}
