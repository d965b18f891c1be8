import { z } from "zod";
import {
  ControlsView,
  LogEntryView,
  NarrativeNote,
  PartyStateView,
  VoteOutcome,
  VoteView,
} from "./events.ts";

export { NarrativeNote };
export const NarrativeNotes = z.object({ notes: z.array(NarrativeNote) });

/**
 * The answer shapes of the API's routes (schemas.ts holds the request shapes): each route declares
 * its answer here, openapi.ts documents it, and the API tests hold every answer to the document
 * (test/server/contract.ts), so the two cannot drift. Nested values the engine owns (a trace, a
 * save, script storage) are declared as JSON values: their reference is the engine's.
 */

const Tick = z.number().int().min(0);

/** A world's attribute names and its point-buy limits (what a custom character may set). */
export const AttributeRules = z.object({
  names: z.array(z.string()),
  starting: z.number(),
  points: z.number(),
  max: z.number(),
});

export const StoryStartView = z.object({
  name: z.string(),
  description: z.string(),
  isDefault: z.boolean().optional(),
});

export const WorldSummaryView = z.object({
  hash: z.string(),
  name: z.string(),
  background: z.string(),
  storyStarts: z.array(z.object({ name: z.string(), description: z.string() })),
  premadeCharacters: z.array(z.string()),
  gameModes: z.array(
    z.object({ name: z.string(), description: z.string(), difficulty: z.string().optional() }),
  ),
  realms: z.array(z.string()),
  traitCategories: z.array(
    z.object({
      name: z.string(),
      maxSelections: z.number(),
      traits: z.array(z.object({ name: z.string(), description: z.string() })),
    }),
  ),
  attributes: AttributeRules,
  /** The world's check warnings (diagnostics), as `taleforge check --json` gives them. */
  warnings: z.array(z.unknown()),
});

export const StoryStartsView = z.object({ storyStarts: z.array(StoryStartView) });

export const PremadesView = z.object({
  premadeCharacters: z.array(
    z.object({
      name: z.string(),
      gender: z.string(),
      description: z.string(),
      traits: z.array(z.string()),
      attributes: z.record(z.string(), z.number()),
      backstory: z.string().optional(),
    }),
  ),
});

export const GameStatus = z.enum(["lobby", "running", "paused", "ended"]);

const ControlDecisionView = z.enum(["apply", "vote", "denied"]);

export const GameView = z.object({
  id: z.string(),
  status: GameStatus,
  tick: Tick,
  seq: z.number().int().min(0),
  world: z.string(),
  storyStart: z.string().nullable(),
  /**
   * The game's newest event id when this view was read: the event stream from it (`?after=`) brings
   * everything that happened since.
   */
  eventId: z.string(),
  /** Host only. */
  invite: z.string().optional(),
  /** Host only. */
  seed: z.number().optional(),
  you: z.union([z.object({ playerId: z.string(), name: z.string() }), z.object({ host: z.literal(true) })]),
  players: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      status: z.enum(["active", "kicked", "open"]),
      submitted: z.boolean(),
    }),
  ),
  state: PartyStateView.nullable(),
  /** Who may use the story controls in this game. */
  controls: ControlsView,
  /** The open party vote on a story control, or null. */
  vote: VoteView.nullable(),
  /**
   * What the caller's request for each control leads to now: "apply" (it is done at once), "vote" (it
   * opens a party vote) or "denied".
   */
  may: z.object({
    retry: ControlDecisionView,
    undo: ControlDecisionView,
    alter: ControlDecisionView,
    rewind: ControlDecisionView,
    branch: ControlDecisionView,
  }),
});

export const StartAnswer = z.object({ status: z.literal("running"), tick: Tick, story: z.string() });
export const StatusAnswer = z.object({ status: GameStatus });
export const KickAnswer = z.object({ kicked: z.string() });
export const ForcedTurnAnswer = z.object({ tick: Tick, turn: z.literal("running") });

export const QuestAnswerView = z.object({
  quest: z.string(),
  answer: z.enum(["accept", "reject", "abandon"]),
  /** The quest's status for the party after this answer. */
  status: z.string(),
  /** The active players who have not (yet) given this answer, when the party has not decided. */
  waitingFor: z.array(z.string()),
});

export const TranscriptView = z.object({
  transcript: z.array(
    z.object({
      seq: z.number().int().min(0),
      kind: z.enum(["opening", "turn", "answer", "import"]),
      tick: Tick,
      /** A turn's `actions`, an answer's `player`, `quest` and `answer`, the opening's `players`. */
      inputs: z.record(z.string(), z.unknown()),
      /** A turn's result as players see it (the `turn` event's fields); an answer's quest and status. */
      result: z.record(z.string(), z.unknown()),
      narration: z.string(),
      at: z.number(),
    }),
  ),
});

/** A save file (the engine's format, docs/play.md): one JSON object. */
export const SaveView = z.record(z.string(), z.unknown());

export const TraceView = z.object({
  seq: z.number().int().min(0),
  tick: Tick,
  trace: z.record(z.string(), z.unknown()),
  fired: z.array(z.unknown()),
  diff: z.array(z.unknown()),
  /** The trace as `taleforge explain` prints it. */
  text: z.string(),
});

export const LogView = z.object({
  entries: z.array(LogEntryView),
  /** The offset of the next page, when there is one. */
  nextOffset: z.number().int().min(0).optional(),
});

export const StorageView = z.object({
  tick: Tick,
  storage: z.unknown(),
  events: z.record(z.string(), z.unknown()),
  consumed: z.record(z.string(), z.unknown()),
  triggerEdits: z.unknown(),
});

/** A body that is not JSON (an SVG map, a cassette's JSON Lines, a play-test's YAML): its text. */
export const Text = z.string();

// Story controls (issue 33)

const Seq = z.number().int().min(0);

/** Where a control moved the game (undo, rewind, a branch switch). */
export const HeadMovedAnswer = z.object({
  control: z.enum(["undo", "rewind", "switch"]),
  seq: Seq,
  tick: Tick,
  from: Seq.optional(),
  undone: Seq.optional(),
  actions: z.array(z.object({ player: z.string(), text: z.string() })).optional(),
});

export const RetryAnswer = z.object({
  seq: Seq,
  replaced: Seq,
  tick: Tick,
  draw: z.number().int().min(1),
  gained: z.array(z.string()),
  lost: z.array(z.string()),
});

export const AlterAnswer = z.object({
  seq: Seq,
  replaced: Seq,
  tick: Tick,
  text: z.string(),
  by: z.string(),
});

/** Where a branch parts from the branches listed alike (host/branch-parting.ts `Parting`). */
const Parting = z.object({
  turn: Tick.nullable().describe(
    "The turn at which its story differs from the closest of them (null: a copy).",
  ),
  by: z
    .enum(["action", "story", "draw", "end", "copy"])
    .describe(
      "What differs there: the action typed, the story told (`text` holds a few words of it), the draw alone, the branch ends where the others go on, or nothing (a copy).",
    ),
  text: z.string().describe("A few words of the branch's own step at `turn`, around where it differs."),
  draw: z.number().int().min(0).describe("The draw of that step (0: the first; a retry's are later)."),
  copy: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("1, 2, … among branches that would still read the same (copies of one story)."),
  copies: z.number().int().min(2).optional().describe("How many read the same with it."),
});

export const BranchesView = z.object({
  head: Seq.nullable(),
  branches: z.array(
    z.object({
      tip: Seq.describe("The branch's last step: POST /games/:id/history/switch with it goes there."),
      tick: Tick,
      steps: z.number().int().min(1),
      turns: z.number().int().min(0),
      splitAt: Seq.nullable().describe("The last step it shares with the current branch."),
      splitTick: Tick.nullable().describe(
        "The turn of `splitAt`: the branch goes its own way from the turn after it (null: the current branch's own line).",
      ),
      current: z.boolean(),
      title: z.string(),
      name: z
        .string()
        .nullable()
        .describe("The name given to the branch (POST /games/:id/history/branches/name), or null."),
      at: z.number(),
      parting: Parting.nullable().describe(
        "Where it parts from the branches the list shows alike (the same name or title, turns and split): null when none does.",
      ),
    }),
  ),
  more: z.number().int().min(1).optional(),
});

export const BranchNamedAnswer = z.object({ tip: Seq, name: z.string().nullable() });

export const BranchDeletedAnswer = z.object({
  tip: Seq,
  steps: z.array(Seq).describe("The steps deleted (the branch's own; the steps it shared stay), by seq."),
});

const Position = z.object({ realm: z.string(), region: z.string(), location: z.string(), area: z.string() });

/** A world diff's change (host/world-diff.ts `WorldChange`). */
export const WorldChangeView = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("position"), before: Position, after: Position }),
  z.object({ kind: z.literal("party"), member: z.string(), change: z.enum(["joined", "left"]) }),
  z.object({ kind: z.literal("quest"), quest: z.string(), before: z.string(), after: z.string() }),
  z.object({
    kind: z.literal("objective"),
    quest: z.string(),
    objective: z.string(),
    before: z.string(),
    after: z.string(),
  }),
  z.object({ kind: z.literal("event"), event: z.string(), before: z.string(), after: z.string() }),
  z.object({
    kind: z.literal("flag"),
    entity: z.string(),
    before: z.boolean().nullable(),
    after: z.boolean().nullable(),
  }),
  z.object({
    kind: z.literal("storage"),
    key: z.string(),
    before: z.unknown().optional(),
    after: z.unknown().optional(),
  }),
  z.object({
    kind: z.literal("trait"),
    member: z.string(),
    trait: z.string(),
    change: z.enum(["gained", "lost"]),
  }),
  z.object({
    kind: z.literal("item"),
    member: z.string(),
    item: z.string(),
    before: z.number(),
    after: z.number(),
  }),
  z.object({
    kind: z.literal("trigger"),
    trigger: z.string(),
    before: z.number().nullable(),
    after: z.number().nullable(),
  }),
]);

export const DiffView = z.object({
  a: Seq,
  b: Seq,
  from: Tick.describe("The turn of step a."),
  to: Tick.describe("The turn of step b."),
  scope: z
    .enum(["host", "party"])
    .describe(
      'Whose view: "host" lists every kind of change; "party" (asked with a player\'s token) only the place and party, quests and objectives, traits and items (narrative events, flags, storage and triggers consumed are the host\'s to see).',
    ),
  changes: z.array(WorldChangeView),
});

// Party votes on the story controls (votes.ts)

export { ControlsView, VoteView };

export const ControlsAnswer = z.object({ controls: ControlsView });

/** A control the game puts to a vote: it is not applied yet (202); the vote is open. */
export const VoteOpenedAnswer = z.object({ vote: VoteView });

export const BallotAnswer = z.object({
  /** The vote after this ballot (closed when it decided it, or had closed meanwhile). */
  vote: VoteView,
  outcome: VoteOutcome,
  /** When this ballot passed the vote: the control's own answer. */
  result: z
    .union([HeadMovedAnswer, RetryAnswer, AlterAnswer, BranchNamedAnswer, BranchDeletedAnswer])
    .optional(),
});
