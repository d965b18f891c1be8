import { z } from "zod";
import {
  type ConditionType,
  EQUALITY_OPERATORS,
  EVENT_STATUSES,
  MEMBERSHIP_OPERATORS,
  NUMERIC_OPERATORS,
  QUEST_STATUSES,
  TEXT_OPERATORS,
  type ValueKind,
} from "./condition-table.ts";
import { describe } from "./describe.ts";

/**
 * The condition table of spec 2.2 is written once as data, in
 * ./condition-table.ts (a file that imports nothing, so that the engine's
 * condition modules and the script isolate can read it); the zod schemas
 * below, the operator/value rules and the engine's condition modules all read
 * it, so a condition type is described in one place. Re-exported here, where
 * the rest of the schema is.
 */
export * from "./condition-table.ts";
export const OBJECTIVE_STATUSES = ["hidden", "active", "completed"] as const;

/** The zod schema of one `value` kind. Shared with effects. */
export function valueSchema(kind: ValueKind): z.ZodType {
  switch (kind) {
    case "number":
      return z.number();
    case "string":
      return z.string();
    case "boolean":
      return z.boolean();
    case "scalar":
      return z.union([z.string(), z.number(), z.boolean()]);
    case "questStatus":
      return z.enum(QUEST_STATUSES);
    case "eventStatus":
      return z.enum(EVENT_STATUSES);
    case "none":
      return z.never();
  }
}

// Field descriptions shared by the condition kinds.
const ops = <T extends readonly [string, ...string[]]>(list: T) =>
  describe(
    z.enum(list),
    `How \`value\` is compared with the state: ${list.map((o) => `\`${o}\``).join(", ")}. The spellings \`greaterThanOrEqualTo\`/\`lessThanOrEqualTo\` are errors (condition/or-equal-to).`,
  );
const scalarValue = (what: string) =>
  describe(
    z.union([z.string(), z.number(), z.boolean()]),
    `${what}. At most 100 characters (limit/condition-value).`,
  );
const textValue = (what: string) =>
  describe(z.string(), `${what}. At most 100 characters (limit/condition-value).`);
const number = (what: string) => describe(z.number(), what);
const storageKey = describe(z.string(), "The storage key (docs/scripts.md: the same storage scripts use).");

// Written out so that the inferred `Condition` type is a precise discriminated union.
export const GameTickCondition = describe(
  z.object({
    type: describe(
      z.literal("game-tick"),
      "The turn counter: 0 while the opening is made, 1 at the first player action.",
    ),
    operator: ops(NUMERIC_OPERATORS),
    value: number("The tick to compare with."),
  }),
  "`game-tick`: the current turn number.",
);
export const PlayerLevelCondition = describe(
  z.object({
    type: describe(
      z.literal("player-level"),
      "A player's character level; true if ANY party member matches.",
    ),
    operator: ops(NUMERIC_OPERATORS),
    value: number("The level to compare with."),
  }),
  "`player-level`: a character level in the party.",
);
export const PlayerResourceCondition = describe(
  z.object({
    type: describe(
      z.literal("player-resource"),
      "A player's resource value; true if ANY party member matches.",
    ),
    resource: describe(z.string(), "The key of the resource in `resourceSettings` (case ignored)."),
    operator: ops(NUMERIC_OPERATORS),
    value: number("The value to compare with."),
  }),
  "`player-resource`: a resource value (health, mana…) in the party.",
);
export const PlayerTraitsCondition = describe(
  z.object({
    type: describe(z.literal("player-traits"), "Whether ANY party member has a trait."),
    operator: ops(MEMBERSHIP_OPERATORS),
    value: scalarValue("The trait key"),
  }),
  "`player-traits`: a trait held in the party.",
);
export const PositionCondition = describe(
  z.object({
    type: describe(
      z.enum(["party-realm", "party-region", "party-location", "party-area"]),
      "Which part of the party's position: realm, region, location or area.",
    ),
    operator: ops(TEXT_OPERATORS),
    value: textValue("The name (a key) to compare with, or a regular expression for `regex`"),
  }),
  "`party-realm`, `party-region`, `party-location`, `party-area`: where the party is.",
);
export const KnownEntityCondition = describe(
  z.object({
    type: describe(z.literal("known-entity"), "Whether an entity is known to the players."),
    entity: describe(z.string(), "The key of an NPC, location, region, realm or faction."),
    operator: ops(EQUALITY_OPERATORS),
    value: describe(z.boolean(), "true: known; false: not known."),
  }),
  "`known-entity`: whether the players know an NPC or a place.",
);
export const QuestsCompletedCondition = describe(
  z.object({
    type: describe(z.literal("quests-completed"), "The list of completed quests."),
    operator: ops(MEMBERSHIP_OPERATORS),
    value: textValue("The key of the quest"),
  }),
  "`quests-completed`: whether a quest is among the completed ones.",
);
export const QuestStatusCondition = describe(
  z.object({
    type: describe(z.literal("quest-status"), "A quest's status."),
    questId: describe(z.string(), "The key of the quest in `quests`."),
    operator: ops(EQUALITY_OPERATORS),
    value: describe(
      z.enum(QUEST_STATUSES),
      "`hidden`, `available`, `accepted`, `completed`, `abandoned`, `rejected` or `expired` (docs/engine.md, Quests).",
    ),
  }),
  "`quest-status`: a quest's status.",
);
export const EventStatusCondition = describe(
  z.object({
    type: describe(z.literal("narrative-event-status"), "A narrative event's status."),
    eventId: describe(z.string(), "The key of the event in `narrativeEvents`."),
    operator: ops(EQUALITY_OPERATORS),
    value: describe(z.enum(EVENT_STATUSES), "`inactive`, `active`, `completed` or `stopped`."),
  }),
  "`narrative-event-status`: a narrative event's status.",
);
export const TextCondition = describe(
  z.object({
    type: describe(
      z.enum(["story-text", "action-text"]),
      "`story-text`: the latest story text; `action-text`: the players' pending actions (a planning-phase trigger).",
    ),
    operator: ops(TEXT_OPERATORS),
    value: textValue("The text to look for, or a regular expression for `regex` (case-sensitive)"),
  }),
  "`story-text`, `action-text`: the words of the story or of the players' actions, matched without AI.",
);
export const JudgedCondition = describe(
  z.object({
    type: describe(
      z.enum(["story", "action"]),
      "`story`: judged against the story so far; `action`: against the players' pending actions (a planning-phase trigger).",
    ),
    query: describe(
      z.string(),
      'A yes/no question the AI judges ("The player asks the keeper about the lamp."). At most 1000 characters (limit/condition-text).',
    ),
    embeddingId: describe(z.string().optional(), "Assigned by the engine; leave it out when authoring."),
  }),
  "`story`, `action`: judged by the AI. A trigger with one is semantic (at most 200 of them: limit/trigger-count), and only the most relevant ones are judged each turn (docs/engine.md, AI-judged conditions).",
);
export const ReadStringCondition = describe(
  z.object({
    type: describe(z.literal("read-string"), 'A string in storage; "" when missing or not a string.'),
    key: storageKey,
    operator: ops(TEXT_OPERATORS),
    value: textValue("The text to compare with, or a regular expression for `regex`"),
  }),
  "`read-string`: a stored string.",
);
export const ReadNumberCondition = describe(
  z.object({
    type: describe(z.literal("read-number"), "A number in storage; 0 when missing or not a number."),
    key: storageKey,
    operator: ops(NUMERIC_OPERATORS),
    value: number("The number to compare with."),
  }),
  "`read-number`: a stored number.",
);
export const ReadBooleanCondition = describe(
  z.object({
    type: describe(z.literal("read-boolean"), "A boolean in storage; false when missing or not a boolean."),
    key: storageKey,
    operator: ops(EQUALITY_OPERATORS),
    value: describe(z.boolean(), 'true or false: JSON booleans, not the strings "true"/"false".'),
  }),
  "`read-boolean`: a stored true or false.",
);
export const ReadArrayCondition = describe(
  z.object({
    type: describe(z.literal("read-array"), "A list in storage; [] when missing or not a list."),
    key: storageKey,
    operator: ops(MEMBERSHIP_OPERATORS),
    value: scalarValue("The element to look for"),
  }),
  "`read-array`: whether a stored list holds an element.",
);

export const Condition = describe(
  z.discriminatedUnion("type", [
    GameTickCondition,
    PlayerLevelCondition,
    PlayerResourceCondition,
    PlayerTraitsCondition,
    PositionCondition,
    KnownEntityCondition,
    QuestsCompletedCondition,
    QuestStatusCondition,
    EventStatusCondition,
    TextCondition,
    JudgedCondition,
    ReadStringCondition,
    ReadNumberCondition,
    ReadBooleanCondition,
    ReadArrayCondition,
  ]),
  "A condition: one test of the game state. All conditions of a trigger must hold (AND); every condition has a `type`, and the kinds are below.",
);
export type Condition = z.infer<typeof Condition>;

/** The schema of each condition type, for checking one condition against its own type. */
export const CONDITION_SCHEMAS: Record<ConditionType, z.ZodObject> = {
  "game-tick": GameTickCondition,
  "player-level": PlayerLevelCondition,
  "player-resource": PlayerResourceCondition,
  "player-traits": PlayerTraitsCondition,
  "party-realm": PositionCondition,
  "party-region": PositionCondition,
  "party-location": PositionCondition,
  "party-area": PositionCondition,
  "known-entity": KnownEntityCondition,
  "quests-completed": QuestsCompletedCondition,
  "quest-status": QuestStatusCondition,
  "narrative-event-status": EventStatusCondition,
  "story-text": TextCondition,
  "action-text": TextCondition,
  story: JudgedCondition,
  action: JudgedCondition,
  "read-string": ReadStringCondition,
  "read-number": ReadNumberCondition,
  "read-boolean": ReadBooleanCondition,
  "read-array": ReadArrayCondition,
};

export function isAiJudged(condition: { type: string }): boolean {
  return condition.type === "story" || condition.type === "action";
}
