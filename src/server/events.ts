import { z } from "zod";
import { ControlRule } from "../host/party-controls.ts";

/**
 * A game's events: one typed message map (event kind -> payload schema), the only place an event's
 * shape is written. The server publishes them through the constructors below (`gameEvents`), the
 * OpenAPI document declares the stream's messages from the same schemas, docs/server.md lists them
 * (scripts/generate-docs.ts), and the web app reads their types (type imports only: nothing of the
 * server is bundled). Only zod and types here, so any front end may import it.
 */

const Tick = z.number().int().min(0);
const PlayerId = z.string();

/** One action of a turn, as every player sees it. */
export const ActionView = z.object({ player: z.string(), text: z.string() });

/** A change of the state, as players may see it (views.ts `visibleDiff`). */
export const ChangeView = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});

/** A quest offered to the party after a step (engine `QuestPrompt`). */
export const PromptView = z.object({
  quest: z.string(),
  source: z.string(),
  statement: z.string(),
  mainObjective: z.string(),
  reason: z.enum(["new", "acceptQuest"]),
});

/** A step's result as players see it: the one projection of views.ts `playerResult`. */
export const PlayerResultView = z.object({
  tick: Tick,
  story: z.string(),
  intent: z.string().nullable(),
  fired: z.array(z.object({ trigger: z.string(), phase: z.string(), players: z.array(z.string()) })),
  prompts: z.array(PromptView),
  changes: z.array(ChangeView),
  tip: z.string().nullable(),
  next: z.string().nullable(),
});

/** A log entry of a step (engine `LogEntry`): the host's stream only. */
export const LogEntryView = z.object({
  tick: Tick,
  phase: z.string(),
  trigger: z.string().nullable(),
  type: z.string(),
  message: z.string(),
});

/** The party's state as players see it (views.ts `playerState`). */
export const PartyStateView = z.object({
  tick: Tick,
  position: z.object({
    realm: z.string(),
    region: z.string(),
    location: z.string(),
    area: z.string(),
  }),
  party: z.array(
    z.object({
      name: z.string(),
      kind: z.string(),
      level: z.number(),
      xp: z.number(),
      resources: z.unknown(),
      traits: z.unknown(),
      abilities: z.unknown(),
      items: z.unknown(),
      attributes: z.unknown(),
      skills: z.unknown(),
    }),
  ),
  quests: z.array(
    z.object({
      quest: z.string(),
      status: z.string(),
      statement: z.string(),
      mainObjective: z.string(),
      objectives: z.array(z.object({ id: z.string(), status: z.string(), text: z.string() })),
      nextStep: z.string().nullable(),
    }),
  ),
  nextStep: z.string().nullable(),
});

/** A narrative event starting or ending at a tick: the notes players see between the turns. */
export const NarrativeNote = z.object({
  tick: z.number(),
  event: z.string(),
  status: z.enum(["active", "completed", "stopped"]),
});

/** Who may use each story control in this game (host/party-controls.ts `PartyControls`). */
export const ControlsView = z.object({
  retry: ControlRule,
  undo: ControlRule,
  alter: ControlRule,
  rewind: ControlRule,
  branch: ControlRule.describe("Switching branches."),
  voteSeconds: z.number().int().min(10).max(600).describe("How long a vote stays open."),
});

/** The story controls a vote is about: the routes' names (`switch` is the rule `branch`'s). */
export const VotedControl = z.enum(["undo", "retry", "alter", "rewind", "switch", "name", "delete"]);

/** How a vote stands: the active players' yes and no ballots, and the yes it needs (a majority). */
export const TallyView = z.object({
  yes: z.number().int().min(0),
  no: z.number().int().min(0),
  need: z.number().int().min(1),
  voters: z.number().int().min(0).describe("The active players, who vote."),
});

export const VoteOutcome = z.enum(["open", "passed", "failed", "expired", "stale"]);

/** A party vote on a story control (votes.ts), as everyone sees it. */
export const VoteView = z.object({
  id: z.string(),
  control: VotedControl,
  argument: z
    .object({
      tick: Tick.optional(),
      text: z.string().optional(),
      branch: z.number().int().min(0).optional(),
      name: z.string().optional(),
    })
    .describe(
      "What the control was asked with: `tick` for a rewind, `text` for an alter, `branch` for a switch, a naming or a deletion (the branch's tip), `name` for a naming.",
    ),
  by: z.string().describe('Who asked: a player\'s name, or "the host" (the host token).'),
  player: PlayerId.nullable().describe("The id of the player who asked (null: the host token)."),
  seq: z.number().int().min(0).describe("The game's step when it opened: a step since makes it stale."),
  openedAt: z.number(),
  closesAt: z.number(),
  ballots: z.record(PlayerId, z.boolean()).describe("Each player's ballot by id (true: yes)."),
  tally: TallyView,
  outcome: VoteOutcome,
});

/** Every event kind with its payload. */
export const GAME_EVENTS = {
  "player-joined": z
    .object({ player: PlayerId, name: z.string() })
    .describe("A player joined the game (before the start, or claiming a character of a started one)."),
  "player-kicked": z
    .object({ player: PlayerId })
    .describe("The host removed a player: turns no longer wait for them; their own stream ends here."),
  "seat-freed": z
    .object({ player: PlayerId, name: z.string() })
    .describe(
      "The host freed a player's seat: turns no longer wait for it, its token stops working (its own stream ends here), and the next to join as its character takes it.",
    ),
  "host-offered": z
    .object({ player: PlayerId, name: z.string() })
    .describe(
      "The host handed the host role to this player: the old host token stops working (its stream ends here); the player takes it with POST /games/:id/host/claim.",
    ),
  "host-changed": z
    .object({ player: PlayerId, name: z.string() })
    .describe("The player the host role was handed to took it."),
  "game-started": z.object({ tick: Tick }).describe("The host started the game; its opening follows."),
  "game-imported": z
    .object({ tick: Tick })
    .describe("The game was imported from a save, at the save's tick."),
  status: z
    .object({
      status: z.enum(["lobby", "running", "paused", "ended"]),
      reason: z.literal("script-budget").optional(),
      message: z.string().optional(),
    })
    .describe(
      "The game's status changed (pause, resume, end); a game paused by the server says why (`reason`, `message`).",
    ),
  submission: z
    .object({ player: PlayerId, name: z.string(), tick: Tick })
    .describe("A player submitted their action for `tick` (who submitted, never what)."),
  turn: PlayerResultView.extend({
    seq: z.number().int().min(0),
    actions: z.array(ActionView),
    state: PartyStateView,
    notes: z.array(NarrativeNote),
  }).describe(
    "A step committed: the opening (`seq` 0, no actions) or a turn, as players see it: the whole narration, every action, fired triggers, quest prompts, visible changes, the next step, the party's state after it (as `GET /games/:id` has it) and the narrative events it started or ended. A client applies it without reading the game again.",
  ),
  "quest-answer": z
    .object({
      player: PlayerId,
      name: z.string(),
      quest: z.string(),
      answer: z.enum(["accept", "reject", "abandon"]),
    })
    .describe("A player's answer to a quest offer (or an abandon), stored whether or not it decides."),
  quest: z
    .object({
      seq: z.number().int().min(0),
      tick: Tick,
      player: z.string(),
      quest: z.string(),
      answer: z.enum(["accept", "reject", "abandon"]),
      status: z.string(),
      state: PartyStateView,
    })
    .describe(
      "The party's answer decided: one committed step (`seq`), the quest's new status (`player` is the name of who decided it) and the party's state after it.",
    ),
  "turn-retried": z
    .object({
      seq: z.number().int().min(0),
      replaced: z.number().int().min(0),
      tick: Tick,
      draw: z.number().int().min(1),
      gained: z.array(z.string()),
      lost: z.array(z.string()),
    })
    .describe(
      "The host ran the last turn again with the same actions and a new draw: step `seq` replaces step `replaced` (kept as a sibling branch); `gained` and `lost` are the triggers that fired only in the new draw or only in the old one. The new step's `turn` event follows.",
    ),
  "narration-altered": z
    .object({
      seq: z.number().int().min(0),
      replaced: z.number().int().min(0),
      tick: Tick,
      text: z.string(),
      by: z.string(),
    })
    .describe(
      "The host replaced the text of the last narration: step `seq` (the same turn, with `text`) replaces step `replaced`, which stays as the original; `by` names who altered it.",
    ),
  "head-moved": z
    .object({
      control: z.enum(["undo", "rewind", "switch"]),
      seq: z.number().int().min(0),
      from: z.number().int().min(0),
      tick: Tick,
      actions: z.array(ActionView),
      state: PartyStateView,
    })
    .describe(
      "The host moved the game to another step (`seq`, at `tick`) from step `from`: an undo, a rewind or a branch switch. The next turn is played from there; actions submitted for a later turn were dropped. After an undo, `actions` are the undone turn's, for each player's input box. Read the transcript again for the story of the branch.",
    ),
  "controls-changed": z
    .object({ controls: ControlsView, by: z.string() })
    .describe('The host changed who may use the story controls (`by`: "the host").'),
  "vote-opened": z
    .object({ vote: VoteView, by: z.string() })
    .describe(
      "A player (or the host) asked for a story control the game puts to a vote: the active players vote with POST /games/:id/history/vote until `vote.closesAt`; the asker's ballot is yes.",
    ),
  "vote-cast": z
    .object({
      id: z.string(),
      by: z.string(),
      player: PlayerId,
      ballot: z.enum(["yes", "no"]),
      tally: TallyView,
    })
    .describe("A player (`by`, `player`) voted on the open vote `id`: the tally after it."),
  "vote-closed": z
    .object({
      id: z.string(),
      control: VotedControl,
      outcome: VoteOutcome.exclude(["open"]),
      by: z.string(),
      tally: TallyView,
    })
    .describe(
      "The vote `id` (asked by `by`) closed: `passed` (a majority of the active players said yes: the control's own event follows), `failed` (a majority can no longer come), `expired` (its time ran out) or `stale` (the game moved on since it opened). Nothing happens but on `passed`.",
    ),
  "branch-named": z
    .object({
      tip: z.number().int().min(0),
      name: z.string().nullable(),
    })
    .describe(
      "The branch that ends at step `tip` was named (by whoever the game's `branch` rule lets, or by a vote) (`name` null: took its name away). The name stays with the branch as it grows.",
    ),
  "branch-deleted": z
    .object({
      tip: z.number().int().min(0),
      steps: z.array(z.number().int().min(0)),
    })
    .describe(
      "The branch that ended at step `tip` was deleted (by whoever the game's `branch` rule lets, or by a vote): its own steps (`steps`, by seq) are gone; the steps it shared with other branches stay.",
    ),
  "turn-failed": z
    .object({
      tick: Tick,
      reason: z.string(),
      message: z.string(),
      retryAt: z.number().nullable(),
      attempt: z.number().int().min(1),
    })
    .describe(
      "A step failed (the narrator, a script): one plain sentence for players, and when it runs again by itself (`retryAt` null: it waits for a Retry).",
    ),
  "turn-failure": z
    .object({ tick: Tick, cause: z.string(), code: z.string(), details: z.record(z.string(), z.unknown()) })
    .describe("Host only: the cause of a failed step, with its error code and details."),
  log: z
    .object({ tick: Tick, entries: z.array(LogEntryView) })
    .describe("Host only: a step's log entries (notices, script logs, script errors)."),
  narration: z
    .object({
      tick: Tick,
      text: z.string(),
      at: z
        .number()
        .int()
        .min(0)
        .describe("Where `text` starts in the narration written so far (0 on a replay from the start)."),
    })
    .describe(
      "Live, not stored (no id): a piece of the narration as it is written, replayed from its first character on every (re)connection; the `turn` event that follows carries all of it.",
    ),
} as const;

export type GameEventKind = keyof typeof GAME_EVENTS;
export type GameEventData<K extends GameEventKind> = z.infer<(typeof GAME_EVENTS)[K]>;

/** One event: its kind and its payload, as a discriminated union. */
export type GameEvent = { [K in GameEventKind]: { kind: K; data: GameEventData<K> } }[GameEventKind];

/** The stored events (every kind but the live `narration`). */
export type StoredGameEvent = Exclude<GameEvent, { kind: "narration" }>;

/** Who sees a stored event: everyone, the host ("host"), or one player (their id). */
export type Audience = "all" | "host" | (string & {});

/** An event to store: a stored kind, its payload, its audience. */
export type NewEvent = StoredGameEvent & { audience: Audience };

/** Kinds only the host's stream carries. */
export const HOST_ONLY: readonly GameEventKind[] = ["turn-failure", "log"];

function event<K extends Exclude<GameEventKind, "narration">>(
  kind: K,
  data: GameEventData<K>,
  audience: Audience = HOST_ONLY.includes(kind) ? "host" : "all",
): NewEvent {
  return { audience, kind, data } as NewEvent;
}

/** The typed constructors every publisher uses: one per stored kind, its audience set by its kind. */
export const gameEvents = {
  playerJoined: (data: GameEventData<"player-joined">) => event("player-joined", data),
  playerKicked: (data: GameEventData<"player-kicked">) => event("player-kicked", data),
  seatFreed: (data: GameEventData<"seat-freed">) => event("seat-freed", data),
  hostOffered: (data: GameEventData<"host-offered">) => event("host-offered", data),
  hostChanged: (data: GameEventData<"host-changed">) => event("host-changed", data),
  gameStarted: (data: GameEventData<"game-started">) => event("game-started", data),
  gameImported: (data: GameEventData<"game-imported">) => event("game-imported", data),
  status: (data: GameEventData<"status">) => event("status", data),
  submission: (data: GameEventData<"submission">) => event("submission", data),
  turn: (data: GameEventData<"turn">) => event("turn", data),
  questAnswer: (data: GameEventData<"quest-answer">) => event("quest-answer", data),
  quest: (data: GameEventData<"quest">) => event("quest", data),
  turnRetried: (data: GameEventData<"turn-retried">) => event("turn-retried", data),
  narrationAltered: (data: GameEventData<"narration-altered">) => event("narration-altered", data),
  headMoved: (data: GameEventData<"head-moved">) => event("head-moved", data),
  controlsChanged: (data: GameEventData<"controls-changed">) => event("controls-changed", data),
  voteOpened: (data: GameEventData<"vote-opened">) => event("vote-opened", data),
  voteCast: (data: GameEventData<"vote-cast">) => event("vote-cast", data),
  voteClosed: (data: GameEventData<"vote-closed">) => event("vote-closed", data),
  branchNamed: (data: GameEventData<"branch-named">) => event("branch-named", data),
  branchDeleted: (data: GameEventData<"branch-deleted">) => event("branch-deleted", data),
  turnFailed: (data: GameEventData<"turn-failed">) => event("turn-failed", data),
  turnFailure: (data: GameEventData<"turn-failure">) => event("turn-failure", data),
  log: (data: GameEventData<"log">) => event("log", data),
};

/**
 * One message of the event stream as the OpenAPI document declares it: `event` (the kind), `id` (a
 * stored event's: `12`, or `12.1` for a host-only event after it; none on `narration`), and
 * `data`, the payload (JSON on the `data:` line).
 */
export function streamMessageSchema() {
  const kinds = Object.keys(GAME_EVENTS) as GameEventKind[];
  const messages = kinds.map((kind) =>
    z
      .object({
        event: z.literal(kind),
        ...(kind === "narration" ? {} : { id: z.string().regex(/^\d+(\.\d+)?$/) }),
        data: GAME_EVENTS[kind],
      })
      .describe(GAME_EVENTS[kind].description ?? kind),
  );
  return z.discriminatedUnion("event", messages as unknown as [z.ZodObject, ...z.ZodObject[]]);
}
