import { z } from "zod";
import type { LogType } from "../engine/index.ts";
import { ControlRule } from "../host/party-controls.ts";
import { firstControlCharacter } from "../world/terminal-text.ts";

/** The request shapes of the API; route.ts validates with them and openapi.ts documents them. */

export const WorldHash = z
  .string()
  .regex(/^[0-9a-f]{64}$/, "must be a world hash: 64 hex digits, as POST /worlds and GET /worlds give it");
export const Id = z.string().regex(/^[0-9a-f]{32}$/, "must be an id: 32 hex digits, as the API gave it");

/**
 * A whole number in a query (`?after=12`), with one message for every way it can be wrong (not a
 * number, a fraction, out of range, given twice); route.ts adds the value that was sent.
 */
export function queryNumber(min: number, max?: number) {
  const says =
    max === undefined
      ? `must be a whole number, ${min} or more`
      : `must be a whole number from ${min} to ${max}`;
  const n = z.coerce.number({ error: says }).int({ error: says }).min(min, { error: says });
  return max === undefined ? n : n.max(max, { error: says });
}
const Name = z.string().min(1).max(200);

/** Zero-width characters: "Ann" and "Ann\u200b" would be two players nobody can tell apart. */
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]/;

/**
 * Whether a name holds only characters people can see: no control,
 * bidirectional or zero-width characters and no line breaks (as the world
 * format's text/control-characters rule asks of a world's own names), so that
 * no name can drive a terminal, reorder what is shown, or pass for another.
 * Names typed at join and the party names of an imported save are held to it.
 */
export function isReadableName(s: string): boolean {
  return !/[\n\t]/.test(s) && firstControlCharacter(s) === null && !INVISIBLE.test(s);
}

/** A name people read (a new character, an uploaded world): trimmed, and readable (isReadableName). */
const ReadableName = z.string().trim().min(1).max(200).refine(isReadableName, {
  message: "use visible characters only (no control, bidirectional or zero-width characters, no line breaks)",
});

/** Players per game: joins past it are refused, and so is an imported save whose party has more. */
export const MAX_PLAYERS = 16;

export const GameParams = z.object({ id: Id });
export const WorldParams = z.object({ hash: WorldHash });

export const Character = z.union(
  [
    z.strictObject({ premade: Name }),
    z.strictObject({
      name: ReadableName,
      traits: z.array(Name).max(20).optional(),
      attributes: z.record(Name, z.number().int().min(-1000).max(1000)).optional(),
    }),
  ],
  {
    error:
      'must be {"premade": "<name>"} for a premade character (GET /worlds/:hash/premades lists them), or {"name": "<name>"} for a new one, with "traits" and "attributes" if you like',
  },
);

/** Who may use each story control (host/party-controls.ts); a rule left out keeps its value. */
export const ControlsPatch = z.strictObject({
  retry: ControlRule.optional(),
  undo: ControlRule.optional(),
  alter: ControlRule.optional(),
  rewind: ControlRule.optional(),
  branch: ControlRule.optional().describe("Switching branches."),
  voteSeconds: z
    .number()
    .int()
    .min(10)
    .max(600)
    .optional()
    .describe("How long a vote stays open (10 to 600)."),
});

export const CreateGame = z.strictObject({
  world: WorldHash,
  storyStart: Name.optional(),
  seed: z.number().int().min(0).max(0xffffffff).optional(),
  gameMode: Name.nullable().optional(),
  narrator: z.enum(["offline", "server"]).optional(),
  turnTimeoutSeconds: z
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 3600)
    .optional(),
  /** Who may use the story controls (default: retry, undo and rewind by vote, alter and branch by the host). */
  controls: ControlsPatch.optional(),
});

export const JoinGame = z.strictObject({
  invite: z.string().min(4).max(40),
  character: Character,
});

export const SubmitAction = z.strictObject({
  text: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .refine((s) => firstControlCharacter(s) === null, {
      message: "use visible characters, spaces and line breaks only (no control or bidirectional characters)",
    }),
  idempotencyKey: z.string().min(1).max(100),
});

export const ImportGame = z.strictObject({
  world: WorldHash,
  save: z
    .string({
      // A save sent as a JSON object (the file pasted in) rather than as its text.
      error: (iss) =>
        iss.code === "invalid_type" && iss.input !== undefined
          ? "must be the save file's text, as one JSON string (docs/server.md puts it there with jq --rawfile)"
          : undefined,
    })
    .min(2)
    .max(8 * 1024 * 1024),
  narrator: z.enum(["offline", "server"]).optional(),
});

/** The `?name=` of a world upload: listed to everyone. */
export const WorldUploadQuery = z.object({
  name: ReadableName.optional(),
  // As `taleforge play --strict`: refuse a world with any error instead of repairing or playing it anyway.
  strict: z.enum(["true", "false"]).optional(),
});

export const QuestAnswer = z.object({
  id: Id,
  quest: Name,
  answer: z.enum(["accept", "reject", "abandon"]),
});

export const LogQuery = z.object({
  tick: queryNumber(0).optional(),
  // The log's types (spec 6): a misspelt one is refused with the list, not answered with no entries.
  type: z.enum(["notice", "script-log", "trigger-script-error"] satisfies LogType[]).optional(),
  trigger: z.string().max(200).optional(),
  limit: queryNumber(1, 5000).optional(),
  // Entries to skip, in the log's order: with the answer's nextOffset, a long log is read page by page.
  offset: queryNumber(0).optional(),
});
