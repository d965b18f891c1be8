import { z } from "zod";

/**
 * Who may use the story controls in a party (issue 33): a game setting, kept
 * as data so that every front end (the terminal alone, the server's parties)
 * reads the same rule. "host": the host decides; "anyone": any active player;
 * "vote": a vote of the active players, decided by a majority within
 * `voteSeconds` (then nothing happens). A game alone is its own host.
 */
export const STORY_CONTROLS = ["retry", "undo", "alter", "rewind", "branch"] as const;
export type StoryControl = (typeof STORY_CONTROLS)[number];

export const ControlRule = z.enum(["host", "anyone", "vote"]);
export type ControlRule = z.infer<typeof ControlRule>;

export const PartyControls = z.object({
  retry: ControlRule.default("vote"),
  undo: ControlRule.default("vote"),
  alter: ControlRule.default("host"),
  rewind: ControlRule.default("vote"),
  /** Switching, naming and deleting branches. */
  branch: ControlRule.default("host"),
  /** How long a vote stays open, in seconds. */
  voteSeconds: z.number().int().min(10).max(600).default(60),
});
export type PartyControls = z.infer<typeof PartyControls>;

export const DEFAULT_PARTY_CONTROLS: PartyControls = PartyControls.parse({});

/** What a player's request for a control leads to. */
export type ControlDecision =
  | { type: "apply" }
  | { type: "vote"; seconds: number }
  | { type: "denied"; reason: string };

/** Whether `player` may use `control` now, must call a vote, or may not. */
export function decideControl(
  controls: PartyControls,
  control: StoryControl,
  player: { isHost: boolean; active: boolean },
  activePlayers: number,
): ControlDecision {
  if (!player.active) return { type: "denied", reason: "Only an active player of the game may do this." };
  const rule = controls[control];
  // Alone, a vote is the player's own: it passes at once.
  if (rule === "anyone" || (rule === "vote" && activePlayers <= 1)) return { type: "apply" };
  if (rule === "host")
    return player.isHost
      ? { type: "apply" }
      : { type: "denied", reason: `Only the host may ${control} in this game.` };
  return { type: "vote", seconds: controls.voteSeconds };
}

export interface Vote {
  control: StoryControl;
  /** What the control was asked with (a turn, a branch), as the front end passes it on. */
  argument: string | null;
  by: string;
  openedAt: number;
  closesAt: number;
  ballots: Record<string, boolean>;
}

export function openVote(
  control: StoryControl,
  argument: string | null,
  by: string,
  now: number,
  controls: PartyControls,
): Vote {
  return {
    control,
    argument,
    by,
    openedAt: now,
    closesAt: now + controls.voteSeconds * 1000,
    ballots: { [by]: true },
  };
}

export function castBallot(vote: Vote, player: string, yes: boolean): Vote {
  return { ...vote, ballots: { ...vote.ballots, [player]: yes } };
}

/**
 * A vote's outcome: "passed" once a majority of the active players said yes, "failed" once a
 * majority can no longer come or the time is up, "open" otherwise.
 */
export function tallyVote(
  vote: Vote,
  activePlayers: readonly string[],
  now: number,
): "open" | "passed" | "failed" {
  const need = Math.floor(activePlayers.length / 2) + 1;
  let yes = 0;
  let no = 0;
  for (const player of activePlayers) {
    const ballot = vote.ballots[player];
    if (ballot === true) yes++;
    else if (ballot === false) no++;
  }
  if (yes >= need) return "passed";
  if (activePlayers.length - no < need || now >= vote.closesAt) return "failed";
  return "open";
}
