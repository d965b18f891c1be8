import type { GameEvent, GameView, NarrativeNote, PartyState, TranscriptStep, VoteView } from "./api.ts";
import type { TurnFailure } from "./components/FailureNotice.tsx";
import { withChunk } from "./sse.ts";

/** What the play page shows of a game: the game, its story so far, the notes, what is being written. */
export interface GameModel {
  game: GameView | undefined;
  steps: TranscriptStep[];
  notes: NarrativeNote[];
  /** The narration being written (`narration` events), until its step arrives. */
  live: { tick: number; text: string } | null;
  /** The failure of the turn being run, until it runs. */
  failure: TurnFailure | null;
  /** The cause of that failure (the host's stream only). */
  cause: string;
  /** Counts the branch names and deletions seen (issue 33): the host's branch list reads them again. */
  branchEdits: number;
  /** The party's last vote that closed (`vote-closed`): its outcome is said for a short while. */
  voteClosed: VoteClosed | null;
}

/** A closed vote as the page says it: what it was about and how it ended. */
export interface VoteClosed {
  id: string;
  control: VoteView["control"];
  outcome: Exclude<VoteView["outcome"], "open">;
  by: string;
}

export const EMPTY: GameModel = {
  game: undefined,
  steps: [],
  notes: [],
  live: null,
  failure: null,
  cause: "",
  branchEdits: 0,
  voteClosed: null,
};

/**
 * Applies one event of the game's stream to what the page shows, as the server applied it: the
 * events carry what changed (a `turn` its step, the party's state after it and its notes), so the
 * page reads the game again only when it cannot follow: "resync" for a step it missed (its `seq`
 * is past the next one). An event the model already holds (the stream resumed from an id older
 * than the view it read) changes nothing; a step the transcript holds but the game read before it
 * did not brings the game up to date without showing the step twice.
 */
export function applyEvent(model: GameModel, event: GameEvent): GameModel | "resync" {
  const game = model.game;
  if (!game) return "resync";
  switch (event.kind) {
    case "narration": {
      const { tick } = event.data;
      // A piece of a step already shown (a stream that resumed) is not written again.
      if (tick <= game.tick && !(tick === 0 && game.status === "lobby")) return model;
      // Put at its `at`: a replay from the first character (a reconnection) replaces what was shown.
      return { ...model, live: withChunk(model.live, event.data) };
    }
    case "player-joined": {
      // A freed seat taken again is the same player, active again.
      if (game.players.some((p) => p.id === event.data.player))
        return {
          ...model,
          game: {
            ...game,
            players: game.players.map((p) => (p.id === event.data.player ? { ...p, status: "active" } : p)),
          },
        };
      const joined = { id: event.data.player, name: event.data.name, status: "active", submitted: false };
      return { ...model, game: { ...game, players: [...game.players, joined] } };
    }
    case "player-kicked":
      return {
        ...model,
        game: {
          ...game,
          players: game.players.map((p) => (p.id === event.data.player ? { ...p, status: "kicked" } : p)),
        },
      };
    case "seat-freed":
      return {
        ...model,
        game: {
          ...game,
          players: game.players.map((p) =>
            p.id === event.data.player ? { ...p, status: "open", submitted: false } : p,
          ),
        },
      };
    case "host-offered":
    case "host-changed":
      // Who holds the host token is not part of a player's view (host-role.ts follows it).
      return model;
    case "game-started":
      return { ...model, failure: null, cause: "", game: { ...game, status: "running" } };
    case "status":
      return { ...model, game: { ...game, status: event.data.status } };
    case "submission":
      if (event.data.tick !== game.tick + 1) return model;
      return {
        ...model,
        game: {
          ...game,
          players: game.players.map((p) => (p.id === event.data.player ? { ...p, submitted: true } : p)),
        },
      };
    case "turn": {
      const { seq, actions, state, notes, ...result } = event.data;
      // A step the page has already (read with the transcript): its narration is no longer being written.
      if (seq < game.seq)
        return model.live && model.live.tick <= result.tick ? { ...model, live: null } : model;
      if (seq > game.seq) return "resync";
      const step: TranscriptStep = {
        seq,
        kind: seq === 0 ? "opening" : "turn",
        tick: result.tick,
        inputs: { actions },
        result: { ...result, seq, actions } as TranscriptStep["result"],
        narration: result.story,
        at: Date.now(),
      };
      // The transcript read after the game may hold this step already (it ran between the reads):
      // the game catches up, the step and its notes are not shown twice.
      const shown = model.steps.some((s) => s.seq === seq);
      return {
        ...model,
        steps: shown ? model.steps : [...model.steps, step],
        notes: shown ? model.notes : [...model.notes, ...notes],
        live: model.live && model.live.tick <= result.tick ? null : model.live,
        failure: null,
        cause: "",
        game: {
          ...game,
          status: game.status === "lobby" ? "running" : game.status,
          tick: result.tick,
          seq: seq + 1,
          state: state as unknown as PartyState,
          players: game.players.map((p) => ({ ...p, submitted: false })),
        },
      };
    }
    case "quest": {
      const { seq, tick, player, quest, answer, status, state } = event.data;
      if (seq < game.seq) return model;
      if (seq > game.seq) return "resync";
      const step: TranscriptStep = {
        seq,
        kind: "answer",
        tick,
        inputs: { player, quest, answer },
        result: { quest, status },
        narration: "",
        at: Date.now(),
      };
      return {
        ...model,
        steps: model.steps.some((s) => s.seq === seq) ? model.steps : [...model.steps, step],
        game: { ...game, seq: seq + 1, state: state as unknown as PartyState },
      };
    }
    case "turn-retried":
    case "narration-altered":
    case "head-moved":
      // A story control (issue 33) changed which steps the story holds: read the game again.
      return "resync";
    case "branch-named":
    case "branch-deleted":
      // The story is unchanged; only the host's branch list shows them.
      return { ...model, branchEdits: model.branchEdits + 1 };
    case "turn-failed": {
      const failed = event.data;
      // The narration that was being written for it will not be finished.
      const live = model.live && model.live.tick === failed.tick ? null : model.live;
      return { ...model, failure: failed, live };
    }
    case "turn-failure":
      return { ...model, cause: event.data.cause };
    case "quest-answer":
    case "log":
    case "game-imported":
      return model;
    case "controls-changed":
      // What the rules let this reader do (`may`) is the server's to say: read the game again.
      return "resync";
    case "vote-opened":
      return { ...model, voteClosed: null, game: { ...game, vote: event.data.vote } };
    case "vote-cast": {
      const open = game.vote;
      // A ballot of a vote this page does not hold (it opened in a step the page missed).
      if (!open || open.id !== event.data.id) return "resync";
      const ballots = { ...open.ballots, [event.data.player]: event.data.ballot === "yes" };
      return { ...model, game: { ...game, vote: { ...open, ballots, tally: event.data.tally } } };
    }
    case "vote-closed": {
      const { id, control, outcome, by } = event.data;
      // The close of a vote already closed here (a stream that resumed) is not said again.
      if (model.voteClosed?.id === id) return model;
      return {
        ...model,
        voteClosed: { id, control, outcome, by },
        game: { ...game, vote: game.vote && game.vote.id !== id ? game.vote : null },
      };
    }
  }
}

/** The seq of a stored event's id (`12` and `12.1` are both 12), for the gap check. */
export function seqOf(id: string): number {
  return Number(id.split(".")[0]);
}

/**
 * The caller's own action acknowledged for turn `tick`: they have acted. The last action of a turn
 * may run it before its answer arrives (the turn's event came first): then the game is past that
 * turn, and the next one is nobody's yet, so nothing changes.
 */
export function markSubmitted(model: GameModel, playerId: string, tick: number): GameModel {
  const game = model.game;
  if (!game || tick !== game.tick + 1) return model;
  return {
    ...model,
    game: { ...game, players: game.players.map((p) => (p.id === playerId ? { ...p, submitted: true } : p)) },
  };
}
