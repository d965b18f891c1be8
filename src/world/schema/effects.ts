import { z } from "zod";
import { describe } from "./describe.ts";

/** The effect table of spec 2.2: one schema per effect type. */

// A function: one field describes it (describe.ts registers on the schema itself), the others must not share that.
const scalar = () => z.union([z.string(), z.number(), z.boolean()]);
const NEXT_STEP_SOURCES = ["objective", "narrative-event"] as const;
export const RESOURCE_OPERATORS = ["add", "subtract", "multiply", "divide", "set"] as const;
export const EFFECT_TARGETS = ["allPlayers", "satisfyingPlayers"] as const;

/** The `type` of an effect, with what it does. */
const kind = <T extends z.ZodType>(schema: T, text: string) => describe(schema, text);
const questId = describe(z.string(), "The key of the quest in `quests`.");
const objectiveId = describe(z.string(), "The id of the objective in the quest's `objectives`.");
const key = describe(z.string(), "The storage key (docs/scripts.md: the same storage scripts use).");
const set = describe(z.literal("set"), "Always `set`.");
const hint = describe(
  z.string(),
  "The hint text, shown in the journal. At most 1000 characters (limit/effect-text).",
);
const source = describe(
  z.enum(NEXT_STEP_SOURCES),
  "Where the hint comes from: `objective` or `narrative-event`.",
);
const target = describe(
  z.enum(EFFECT_TARGETS).optional(),
  'Who is affected: `allPlayers` (the whole party) or `satisfyingPlayers` (only the players who satisfied the trigger\'s player conditions). Default: `allPlayers`, or `satisfyingPlayers` on a trigger with `scope: "player"`.',
);
const arithmetic = describe(
  z.enum(RESOURCE_OPERATORS),
  "`add`, `subtract`, `multiply`, `divide` the current value by `value`, or `set` it to `value`.",
);

export const StoryEffect = describe(
  z.object({
    type: kind(z.literal("story"), "A one-time instruction to the narrator."),
    instruction: describe(
      z.string(),
      "What the narrator should write, once. It shapes the NEXT narration, not the current turn's (and never the opening). At most 1000 characters (limit/effect-text).",
    ),
  }),
  "`story`: gives the narrator a one-time instruction.",
);
export const QuestInitEffect = describe(
  z.object({
    type: kind(z.literal("quest-init"), "Makes a hidden quest available, or an expired one again."),
    operator: set,
    value: describe(z.string(), "The key of the quest, exactly (reference/unknown-quest)."),
  }),
  "`quest-init`: makes a hidden quest `available` (an expired one too: its offer is made again); the player is then asked to accept it.",
);
export const QuestEffect = describe(
  z.object({
    type: kind(
      z.enum(["quest-progress", "quest-complete", "quest-next-step-clear"]),
      "`quest-progress` marks the main objective done (an accepted quest is then completed); `quest-complete` completes the quest whatever its status; `quest-next-step-clear` clears its next-step hint.",
    ),
    questId,
  }),
  "`quest-progress`, `quest-complete`, `quest-next-step-clear`: act on one quest.",
);
export const ObjectiveEffect = describe(
  z.object({
    type: kind(
      z.enum(["quest-objective-reveal", "quest-objective-complete"]),
      "`quest-objective-reveal` makes a hidden objective active and the quest's next step its text; `quest-objective-complete` completes it and moves the next step to the next active objective.",
    ),
    questId,
    objectiveId,
  }),
  "`quest-objective-reveal`, `quest-objective-complete`: move one objective.",
);
export const QuestNextStepSetEffect = describe(
  z.object({
    type: kind(z.literal("quest-next-step-set"), "Sets a quest's next-step hint."),
    questId,
    text: hint,
    source,
  }),
  "`quest-next-step-set`: sets a quest's next-step hint.",
);
export const PartyNextStepSetEffect = describe(
  z.object({
    type: kind(z.literal("party-next-step-set"), "Sets the party's next-step hint."),
    text: hint,
    source,
  }),
  "`party-next-step-set`: sets the party-wide next-step hint.",
);
export const PartyNextStepClearEffect = describe(
  z.object({ type: kind(z.literal("party-next-step-clear"), "Clears the party's next-step hint.") }),
  "`party-next-step-clear`: clears the party-wide next-step hint.",
);
export const EventStartEffect = describe(
  z.object({
    type: kind(z.literal("narrative-event-start"), "Starts a narrative event."),
    eventId: describe(z.string(), "The key of the event in `narrativeEvents`."),
  }),
  "`narrative-event-start`: starts a narrative event (ignored while another one is active).",
);
export const PartyMoveEffect = describe(
  z.object({
    type: kind(
      z.enum(["party-realm", "party-region", "party-location", "party-area"]),
      "What to move the party to. `party-location` also sets the region, the realm, the coordinates and the location's first area.",
    ),
    operator: set,
    value: describe(z.string(), "The key of the destination (reference/unknown-destination)."),
  }),
  "`party-realm`, `party-region`, `party-location`, `party-area`: move the party.",
);
export const PlayerResourceEffect = describe(
  z.object({
    type: kind(z.literal("player-resource"), "Changes a resource of players."),
    resource: describe(z.string(), "The key of the resource in `resourceSettings` (case ignored)."),
    target,
    operator: arithmetic,
    value: describe(z.number(), "The amount. The result stays from 0 to the resource's maximum."),
  }),
  "`player-resource`: changes a resource (health, mana…) of the party or of the satisfying players.",
);
export const PlayerTraitsEffect = describe(
  z.object({
    type: kind(z.literal("player-traits"), "Changes the traits of players."),
    target,
    operator: describe(
      z.enum(["set", "add", "remove"]),
      "`add` gives one trait, `remove` takes one away, `set` replaces all traits with `value`.",
    ),
    value: describe(
      z.union([scalar(), z.array(scalar())]),
      "A trait key (or a list of them for `set`). Adding or removing applies the trait's modifiers (docs/engine.md, Traits at run time).",
    ),
  }),
  "`player-traits`: gives or takes traits.",
);
export const KnownEntitySetEffect = describe(
  z.object({
    type: kind(z.literal("known-entity"), "Marks an entity known or unknown."),
    entity: describe(z.string(), "The key of an NPC, location, region, realm or faction."),
    operator: describe(z.literal("set"), "`set` to `value`."),
    value: describe(z.boolean(), "true: known; false: unknown."),
  }),
  "`known-entity` with `set`: marks an entity known or unknown.",
);
export const KnownEntityToggleEffect = describe(
  z.object({
    type: kind(z.literal("known-entity"), "Flips whether an entity is known."),
    entity: describe(z.string(), "The key of an NPC, location, region, realm or faction."),
    operator: describe(z.literal("toggle"), "`toggle` flips it."),
    value: describe(z.boolean().optional(), "Ignored by `toggle`. Optional."),
  }),
  "`known-entity` with `toggle`: flips whether an entity is known.",
);
export const WriteStringEffect = describe(
  z.object({
    type: kind(z.literal("write-string"), "Writes a string to storage."),
    key,
    operator: set,
    value: describe(z.string(), "The string. At most 100 characters (limit/effect-value)."),
  }),
  "`write-string`: stores a string.",
);
export const WriteNumberEffect = describe(
  z.object({
    type: kind(z.literal("write-number"), "Writes a number to storage."),
    key,
    operator: arithmetic,
    value: describe(z.number(), "The number (a missing or non-number stored value counts as 0)."),
  }),
  "`write-number`: stores a number, or does arithmetic on the stored one.",
);
export const WriteBooleanEffect = describe(
  z.object({
    type: kind(z.literal("write-boolean"), "Writes a boolean to storage."),
    key,
    operator: describe(z.enum(["set", "toggle"]), "`set` to `value`, or `toggle` the stored value."),
    value: describe(z.boolean().optional(), "The boolean; required for `set`, ignored by `toggle`."),
  }),
  "`write-boolean`: stores true or false, or flips the stored value.",
);
export const WriteArraySetEffect = describe(
  z.object({
    type: kind(z.literal("write-array"), "Writes a list to storage."),
    key,
    operator: describe(z.literal("set"), "`set` replaces the stored list."),
    value: describe(z.array(scalar()), "The list of strings, numbers or booleans."),
  }),
  "`write-array` with `set`: stores a list.",
);
export const WriteArrayElementEffect = describe(
  z.object({
    type: kind(z.literal("write-array"), "Adds to or removes from a stored list."),
    key,
    operator: describe(z.enum(["add", "remove"]), "`add` appends `value`; `remove` removes it."),
    value: describe(scalar(), "One string, number or boolean."),
  }),
  "`write-array` with `add` or `remove`: appends or removes one element.",
);

export const EFFECT_SCHEMAS = {
  story: [StoryEffect],
  "quest-init": [QuestInitEffect],
  "quest-progress": [QuestEffect],
  "quest-complete": [QuestEffect],
  "quest-objective-reveal": [ObjectiveEffect],
  "quest-objective-complete": [ObjectiveEffect],
  "quest-next-step-set": [QuestNextStepSetEffect],
  "quest-next-step-clear": [QuestEffect],
  "party-next-step-set": [PartyNextStepSetEffect],
  "party-next-step-clear": [PartyNextStepClearEffect],
  "narrative-event-start": [EventStartEffect],
  "party-realm": [PartyMoveEffect],
  "party-region": [PartyMoveEffect],
  "party-location": [PartyMoveEffect],
  "party-area": [PartyMoveEffect],
  "player-resource": [PlayerResourceEffect],
  "player-traits": [PlayerTraitsEffect],
  "known-entity": [KnownEntitySetEffect, KnownEntityToggleEffect],
  "write-string": [WriteStringEffect],
  "write-number": [WriteNumberEffect],
  "write-boolean": [WriteBooleanEffect],
  "write-array": [WriteArraySetEffect, WriteArrayElementEffect],
} as const satisfies Record<string, readonly z.ZodObject[]>;

export type EffectType = keyof typeof EFFECT_SCHEMAS;
export const EFFECT_TYPE_NAMES = Object.keys(EFFECT_SCHEMAS) as EffectType[];

export function isEffectType(type: unknown): type is EffectType {
  return typeof type === "string" && Object.hasOwn(EFFECT_SCHEMAS, type);
}

export const Effect = describe(
  z.union([
    StoryEffect,
    QuestInitEffect,
    QuestEffect,
    ObjectiveEffect,
    QuestNextStepSetEffect,
    PartyNextStepSetEffect,
    PartyNextStepClearEffect,
    EventStartEffect,
    PartyMoveEffect,
    PlayerResourceEffect,
    PlayerTraitsEffect,
    KnownEntitySetEffect,
    KnownEntityToggleEffect,
    WriteStringEffect,
    WriteNumberEffect,
    WriteBooleanEffect,
    WriteArraySetEffect,
    WriteArrayElementEffect,
  ]),
  "An effect: what a trigger does when it fires. Every effect has a `type`; the kinds are below. Malformed effects are dropped, and at most 5 valid effects of a trigger apply (limit/effects-per-trigger).",
);
export type Effect = z.infer<typeof Effect>;

/**
 * Checks one effect against the schemas of its own type. Used by the validator
 * and by the engine, which silently drops effects that fail (spec 2.2).
 */
export function parseEffect(
  value: unknown,
): { ok: true; effect: Effect } | { ok: false; issues: z.core.$ZodIssue[] } {
  const type = (value as { type?: unknown } | null)?.type;
  if (!isEffectType(type)) {
    return {
      ok: false,
      issues: [
        {
          code: "custom",
          message: `unknown effect type ${JSON.stringify(type)}`,
          path: ["type"],
          input: type,
        },
      ],
    };
  }
  let issues: z.core.$ZodIssue[] = [];
  for (const schema of EFFECT_SCHEMAS[type]) {
    const result = schema.safeParse(value);
    if (result.success) return { ok: true, effect: value as Effect };
    // Report the variant that got furthest: the one whose operator matched, if any.
    if (issues.length === 0 || !result.error.issues.some((i) => i.path[0] === "operator")) {
      issues = result.error.issues;
    }
  }
  return { ok: false, issues };
}
