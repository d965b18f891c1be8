import type { z } from "zod";
import {
  type ControlDecision,
  DEFAULT_PARTY_CONTROLS,
  decideControl,
  PartyControls,
  STORY_CONTROLS,
  type StoryControl,
  tallyVote,
} from "../host/party-controls.ts";
import type {
  AlterAnswer,
  BranchDeletedAnswer,
  BranchNamedAnswer,
  HeadMovedAnswer,
  RetryAnswer,
} from "./answers.ts";
import { newId } from "./auth.ts";
import { ApiError } from "./errors.ts";
import {
  gameEvents,
  type NewEvent,
  type VotedControl as VotedControlSchema,
  type VoteOutcome as VoteOutcomeSchema,
  type VoteView,
} from "./events.ts";
import type { Logger } from "./logger.ts";
import type { Game, Player, Store } from "./store/store.ts";

/**
 * Party decisions on the story controls (issue 33; docs/server.md "Party votes"). Who may use each
 * control is the game's `controls` (host/party-controls.ts): the host, any active player, or a vote
 * of the active players. A vote is kept in the game's row (`vote`, and `vote_id` while it is open),
 * so one is open at a time and every change of it is a conditional update of that row with its
 * event: of two processes, one opens, one closes. A vote that passes applies its control through the
 * game core on the game's claim, like a request of the host.
 */

type VotedControl = z.infer<typeof VotedControlSchema>;
type VoteOutcome = z.infer<typeof VoteOutcomeSchema>;

/** A story control as a request asks for it, with its argument. */
export type ControlAsk =
  | { control: "undo" }
  | { control: "retry" }
  | { control: "alter"; text: string }
  | { control: "rewind"; tick: number }
  | { control: "switch"; branch: number }
  | { control: "name"; branch: number; name: string }
  | { control: "delete"; branch: number };

/** Who asks: the host token, or a player's. */
export type Asker = { host: true } | { player: Player };

/** What a control answers when applied. */
export type ControlResult =
  | z.input<typeof HeadMovedAnswer>
  | z.input<typeof RetryAnswer>
  | z.input<typeof AlterAnswer>
  | z.input<typeof BranchNamedAnswer>
  | z.input<typeof BranchDeletedAnswer>;

/** A vote as the game's row keeps it (JSON in `games.vote`). */
export interface StoredVote {
  id: string;
  control: VotedControl;
  argument: { tick?: number; text?: string; branch?: number; name?: string };
  by: string;
  player: string | null;
  /** The game's seq and head when it opened: the control applies to that state only. */
  seq: number;
  head: number;
  openedAt: number;
  closesAt: number;
  ballots: Record<string, boolean>;
  outcome: VoteOutcome;
}

/** The rule each control follows (the `branch` rule: switching, naming, deleting branches). */
export const RULE_OF: Record<VotedControl, StoryControl> = {
  undo: "undo",
  retry: "retry",
  alter: "alter",
  rewind: "rewind",
  switch: "branch",
  name: "branch",
  delete: "branch",
};

/** What the game core does for the votes: apply a control on the game's claim, after `first`. */
export interface ControlApplier {
  apply(
    gameId: string,
    ask: ControlAsk,
    by: string,
    expected: number | undefined,
    first?: (game: Game) => Promise<void>,
  ): Promise<ControlResult>;
}

/** Thrown by a vote's close before its control applies, when another process closed it first or the game moved on. */
class VoteSettled extends Error {}

/** Whether a failure is a vote that another process settled first (the claim is released; read again). */
export function isVoteSettled(error: unknown): boolean {
  return error instanceof VoteSettled;
}

/** How many times a ballot reads the vote again after another process changed it meanwhile. */
const BALLOT_ATTEMPTS = 8;

export interface VoteDeps {
  store: Store;
  log: Logger;
  /** Epoch milliseconds (tests move it on instead of waiting for a vote's time). */
  now: () => number;
}

export class PartyVotes {
  constructor(
    private readonly deps: VoteDeps,
    private readonly core: ControlApplier,
  ) {}

  /**
   * A request for a story control, decided by the game's rule: applied at once (`applied`), put to
   * a vote (`vote`, the vote opened), or refused (403 game/control-denied). The host token alone,
   * under "vote", opens a vote too (a party decision; the host's own character votes with its player
   * token); alone in the game, a vote is the asker's own and applies at once.
   */
  async ask(
    gameId: string,
    asker: Asker,
    ask: ControlAsk,
    expected: number | undefined,
  ): Promise<{ applied: ControlResult } | { vote: z.infer<typeof VoteView> }> {
    const { store } = this.deps;
    const game = await this.settle(await this.gameRow(gameId));
    const players = await store.players(game.id);
    const rule = RULE_OF[ask.control];
    const decision = decide(controlsOf(game), rule, asker, players);
    const by = nameOf(asker);
    if (decision.type === "denied")
      throw new ApiError(
        "game/control-denied",
        "host" in asker || asker.player.status === "active" ? "host-only" : "not-active",
        { control: ask.control, rule },
        { control: ask.control, rule },
      );
    if (decision.type === "apply") return { applied: await this.core.apply(gameId, ask, by, expected) };
    if (game.status === "ended") throw new ApiError("game/state", "ended");
    if (game.status === "lobby" || game.head == null) throw new ApiError("game/state", "not-started");
    if (expected !== undefined && Number(game.head) !== expected)
      throw new ApiError(
        "game/state",
        "head-moved",
        { head: Number(game.head), expected },
        { head: Number(game.head), expected },
      );
    const open = openOf(game);
    if (open) throw voteOpen(open, players);
    const now = this.deps.now();
    const vote: StoredVote = {
      id: newId(),
      control: ask.control,
      argument: argumentOf(ask),
      by,
      player: "player" in asker ? asker.player.id : null,
      seq: Number(game.seq),
      head: Number(game.head),
      openedAt: now,
      closesAt: now + decision.seconds * 1000,
      // The asker's ballot is yes: they asked (the host token is no voter).
      ballots: "player" in asker && asker.player.status === "active" ? { [asker.player.id]: true } : {},
      outcome: "open",
    };
    const view = voteView(vote, players);
    const opened = await store.openVote(
      game.id,
      vote.seq,
      { id: vote.id, json: JSON.stringify(vote), closesAt: vote.closesAt },
      gameEvents.voteOpened({ vote: view, by }),
    );
    if (!opened) {
      // Another vote opened meanwhile, or a step moved the game: what the asker saw is gone.
      const now = await this.gameRow(gameId);
      const other = openOf(now);
      if (other) throw voteOpen(other, await store.players(game.id));
      throw new ApiError("game/busy", "turn-moved");
    }
    return { vote: view };
  }

  /**
   * A player's ballot on the open vote `id`. It passes the vote once a majority of the active players
   * said yes (the control applies on the game's claim: `vote-closed` passed, then the control's own
   * event), fails it once a majority can no longer come; it closes too when the game moved on since it
   * opened (stale) or its time is up (expired). A ballot on the game's latest vote that has closed
   * answers its outcome and counts nothing.
   */
  async cast(gameId: string, player: Player, id: string, yes: boolean) {
    const { store } = this.deps;
    for (let attempt = 1; ; attempt++) {
      const game = await this.gameRow(gameId);
      const stored = storedOf(game);
      const players = await store.players(game.id);
      if (!stored || stored.id !== id)
        throw new ApiError("game/vote-closed", "closed", { vote: id }, { vote: id });
      if (game.vote_id !== id) return { vote: voteView(stored, players), outcome: stored.outcome };
      const now = this.deps.now();
      if (Number(game.seq) !== stored.seq || now >= stored.closesAt) {
        // Too late for this ballot: the vote closes as it stands.
        await this.settle(game);
        continue;
      }
      const next: StoredVote = { ...stored, ballots: { ...stored.ballots, [player.id]: yes } };
      const cast = gameEvents.voteCast({
        id,
        by: player.name,
        player: player.id,
        ballot: yes ? "yes" : "no",
        tally: tallyOf(next, players),
      });
      const outcome = outcomeOf(next, players, now);
      if (outcome === "passed" && attempt < BALLOT_ATTEMPTS) {
        try {
          const result = await this.pass(game.id, next, [cast]);
          return {
            vote: voteView({ ...next, outcome: "passed" }, players),
            outcome: "passed" as const,
            result,
          };
        } catch (error) {
          // Another process closed it or holds the game (it may be applying it), or a step moved the
          // game meanwhile (the vote is stale): read it again.
          if (isVoteSettled(error) || movedOn(error)) {
            await pause(attempt);
            continue;
          }
          throw error;
        }
      }
      // Open (or passed while the game stays busy: the vote keeps the ballot; whoever reads or sweeps it next applies it).
      const closes = outcome === "failed" || outcome === "expired" || outcome === "stale";
      const after: StoredVote = closes ? { ...next, outcome } : next;
      const changed = await store.changeVote(
        game.id,
        id,
        game.vote ?? "",
        JSON.stringify(after),
        closes,
        closes ? [cast, this.closedEvent(after, players)] : [cast],
      );
      if (changed) return { vote: voteView(after, players), outcome: closes ? outcome : ("open" as const) };
      if (attempt >= BALLOT_ATTEMPTS) throw new ApiError("game/busy", "leased");
    }
  }

  /**
   * Closes the game's open vote when it is decided (passed, failed), its time is up or the game moved
   * on since it opened; a vote that passed applies its control. Any process may: the first closes
   * it. Answers the game as it is after (the row given, when nothing was open).
   */
  async settle(game: Game): Promise<Game> {
    const stored = openOf(game);
    if (!stored) return game;
    const players = await this.deps.store.players(game.id);
    const outcome = Number(game.seq) !== stored.seq ? "stale" : outcomeOf(stored, players, this.deps.now());
    if (outcome === "open") return game;
    try {
      if (outcome === "passed") await this.pass(game.id, stored, []);
      else {
        const closed: StoredVote = { ...stored, outcome };
        await this.deps.store.changeVote(game.id, stored.id, game.vote ?? "", JSON.stringify(closed), true, [
          this.closedEvent(closed, players),
        ]);
      }
    } catch (error) {
      // The control of a passed vote was refused (nothing to undo...), or another process had the game:
      // the reader goes on with the game as it is now.
      if (!isVoteSettled(error))
        this.deps.log.warn(
          { game: game.id, code: (error as { code?: string }).code },
          "a passed vote's control did not apply",
        );
    }
    return this.gameRow(game.id);
  }

  /** The open votes any process may close now (their time is up, or the game moved on). */
  async settleDue(limit = 50): Promise<void> {
    for (const { id } of await this.deps.store.votesDue(this.deps.now(), limit)) {
      const game = await this.deps.store.game(id);
      if (game) await this.settle(game);
    }
  }

  /**
   * Applies a passed vote's control on the game's claim: first (on the claim) the vote closes as
   * passed with `events` and its `vote-closed`, then the control runs and publishes its own events.
   * VoteSettled when another process closed it first, or the game moved on (then it closes as stale).
   */
  private async pass(gameId: string, vote: StoredVote, events: NewEvent[]): Promise<ControlResult> {
    const { store } = this.deps;
    return this.core.apply(gameId, askOf(vote), `${vote.by} (party vote)`, vote.head, async (game) => {
      const players = await store.players(game.id);
      const outcome = Number(game.seq) === vote.seq ? "passed" : "stale";
      const closed: StoredVote = { ...vote, outcome };
      const done = await store.changeVote(game.id, vote.id, "", JSON.stringify(closed), true, [
        ...events,
        this.closedEvent(closed, players),
      ]);
      if (!done || outcome === "stale") throw new VoteSettled();
    });
  }

  private closedEvent(vote: StoredVote, players: Player[]): NewEvent {
    return gameEvents.voteClosed({
      id: vote.id,
      control: vote.control,
      outcome: vote.outcome === "open" ? "failed" : vote.outcome,
      by: vote.by,
      tally: tallyOf(vote, players),
    });
  }

  private async gameRow(gameId: string): Promise<Game> {
    const game = await this.deps.store.game(gameId);
    if (!game) throw new ApiError("game/state", "ended");
    return game;
  }
}

/** The game's rules for the story controls (the defaults when none were set). */
export function controlsOf(game: Pick<Game, "controls">): PartyControls {
  if (!game.controls) return DEFAULT_PARTY_CONTROLS;
  const parsed = PartyControls.safeParse(safeJson(game.controls));
  return parsed.success ? parsed.data : DEFAULT_PARTY_CONTROLS;
}

/** What each control would do for `asker` now. */
export function mayOf(
  controls: PartyControls,
  asker: Asker,
  players: Player[],
): Record<StoryControl, ControlDecision["type"]> {
  return Object.fromEntries(
    STORY_CONTROLS.map((control) => [control, decide(controls, control, asker, players).type]),
  ) as Record<StoryControl, ControlDecision["type"]>;
}

/** The game's open vote, as everyone sees it (null: none). */
export function openVoteView(game: Game, players: Player[]): z.infer<typeof VoteView> | null {
  const open = openOf(game);
  return open ? voteView(open, players) : null;
}

function decide(controls: PartyControls, control: StoryControl, asker: Asker, players: Player[]) {
  const active = players.filter((p) => p.status === "active").length;
  const who =
    "host" in asker
      ? { isHost: true, active: true }
      : { isHost: false, active: asker.player.status === "active" };
  return decideControl(controls, control, who, active);
}

function nameOf(asker: Asker): string {
  return "host" in asker ? "the host" : asker.player.name;
}

function argumentOf(ask: ControlAsk): StoredVote["argument"] {
  if (ask.control === "alter") return { text: ask.text };
  if (ask.control === "rewind") return { tick: ask.tick };
  if (ask.control === "switch" || ask.control === "delete") return { branch: ask.branch };
  if (ask.control === "name") return { branch: ask.branch, name: ask.name };
  return {};
}

function askOf(vote: StoredVote): ControlAsk {
  const { control, argument } = vote;
  if (control === "alter") return { control, text: argument.text ?? "" };
  if (control === "rewind") return { control, tick: argument.tick ?? 0 };
  if (control === "switch" || control === "delete") return { control, branch: argument.branch ?? 0 };
  if (control === "name") return { control, branch: argument.branch ?? 0, name: argument.name ?? "" };
  return { control };
}

function activeIds(players: Player[]): string[] {
  return players.filter((p) => p.status === "active").map((p) => p.id);
}

function tallyOf(vote: StoredVote, players: Player[]) {
  const voters = activeIds(players);
  let yes = 0;
  let no = 0;
  for (const id of voters) {
    if (vote.ballots[id] === true) yes++;
    else if (vote.ballots[id] === false) no++;
  }
  return { yes, no, need: Math.floor(voters.length / 2) + 1, voters: voters.length };
}

/** Where a vote stands at `now`: passed, failed (a majority can no longer come), expired, or open. */
function outcomeOf(vote: StoredVote, players: Player[], now: number): VoteOutcome {
  const voters = activeIds(players);
  const outcome = tallyVote(
    {
      control: RULE_OF[vote.control],
      argument: null,
      by: vote.by,
      openedAt: vote.openedAt,
      closesAt: vote.closesAt,
      ballots: vote.ballots,
    },
    voters,
    now,
  );
  if (outcome === "failed" && now >= vote.closesAt) {
    // Out of time: "failed" only if a majority could not have come anyway.
    const { no, need, voters: n } = tallyOf(vote, players);
    return n - no < need ? "failed" : "expired";
  }
  return outcome;
}

function voteView(vote: StoredVote, players: Player[]): z.infer<typeof VoteView> {
  return {
    id: vote.id,
    control: vote.control,
    argument: vote.argument,
    by: vote.by,
    player: vote.player,
    seq: vote.seq,
    openedAt: vote.openedAt,
    closesAt: vote.closesAt,
    ballots: vote.ballots,
    tally: tallyOf(vote, players),
    outcome: vote.outcome,
  };
}

function voteOpen(open: StoredVote, players: Player[]): ApiError {
  return new ApiError(
    "game/vote-open",
    "open",
    { control: open.control, by: open.by },
    { vote: voteView(open, players) },
  );
}

/** The game's latest vote (open or closed), as stored. */
function storedOf(game: Game): StoredVote | null {
  if (!game.vote) return null;
  const vote = safeJson(game.vote) as StoredVote | null;
  return vote && typeof vote.id === "string" ? vote : null;
}

/** The game's open vote. */
function openOf(game: Game): StoredVote | null {
  const vote = storedOf(game);
  return vote && game.vote_id === vote.id ? vote : null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A claim refused because another step holds the game, or because the game's head moved since the vote. */
function movedOn(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.code === "game/busy" || (error.code === "game/state" && "expected" in error.details);
}

function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 10 * attempt));
}
