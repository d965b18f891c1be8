import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { json } from "../engine/save-schema.ts";
import { AiError } from "./errors.ts";

/**
 * A cassette: everything that crossed the AI boundary in one game, in order,
 * plus the host's own inputs (actions, quest answers, undo), so that a game
 * can be replayed exactly: for bug reports and play-tests. The file is JSON
 * Lines: a header line, then one line per entry, appended as the game goes,
 * so a crash loses at most the entry being written and a long game never
 * rewrites the file.
 */
export const CASSETTE_FORMAT = "taleforge-cassette";
export const CASSETTE_VERSION = 1;

const usage = z.object({ calls: z.number(), promptTokens: z.number(), completionTokens: z.number() });

export const CassetteHeader = z.object({
  format: z.literal(CASSETTE_FORMAT),
  version: z.number().int(),
  /** The recorded provider's name and model. */
  provider: z.string(),
  model: z.string(),
  /** Whether the recorded provider had embeddings (the replay offers them only then). */
  embeddings: z.boolean(),
  /** Whatever the host needs to start the same game again (world hash, seed, players...). */
  setup: z.record(z.string(), json),
  /**
   * How the recorded provider sampled (issue 19 item 6): temperatures, top-p,
   * token and length limits, context window. For the record: a replay answers
   * from the tape whatever these say.
   */
  sampling: z.record(z.string(), json).optional(),
});
export type CassetteHeader = z.infer<typeof CassetteHeader>;

const CALLS = ["classify", "narrate", "judge", "embed", "summarise"] as const;
export type CallName = (typeof CALLS)[number];

export const CallEntry = z.object({
  call: z.enum(CALLS),
  request: json,
  /** The answer; absent when the call failed. */
  answer: json.optional(),
  /** The streamed chunks of a narration, in order. */
  chunks: z.array(z.string()).optional(),
  /** A failed call: the error the provider threw. */
  error: z.object({ kind: z.string(), message: z.string() }).optional(),
  usage: usage.optional(),
});
export type CallEntry = z.infer<typeof CallEntry>;

export const InputEntry = z.object({ input: json });
export type InputEntry = z.infer<typeof InputEntry>;

export type CassetteEntry = CallEntry | InputEntry;

const Entry = z.union([CallEntry, InputEntry]);

export interface CassetteData {
  header: CassetteHeader;
  entries: CassetteEntry[];
}

/** Where a recording provider writes: entries in order. */
export interface TapeSink {
  write(entry: CassetteEntry): void;
  /**
   * When given, entries arrive here instead, as their JSON text (what `JSON.stringify` of the entry
   * `write` would get gives): a sink that keeps text need not have each entry's values copied first.
   */
  writeJson?(text: string): void;
}

/** A cassette file being recorded. The header is written at once; entries are appended. */
export function openCassetteWriter(path: string, header: CassetteHeader): TapeSink {
  try {
    writeFileSync(path, `${JSON.stringify(header)}\n`);
  } catch (error) {
    throw AiError.of("cassette", "unwritable", { path, reason: (error as Error).message });
  }
  return {
    write(entry) {
      appendFileSync(path, `${JSON.stringify(entry)}\n`);
    },
  };
}

/** Reads a cassette file; a missing, damaged or foreign file is an AiError "cassette" naming the line. */
export function readCassette(path: string): CassetteData {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw AiError.of("cassette", code === "ENOENT" ? "missing" : "unreadable", {
      path,
      reason: (error as Error).message,
    });
  }
  return parseCassette(text, path);
}

export function parseCassette(text: string, name = "<cassette>"): CassetteData {
  const lines = text.split("\n");
  const parsed = (at: number): unknown => {
    try {
      return JSON.parse(lines[at]!);
    } catch {
      throw AiError.of("cassette", "not-json", { name, line: at + 1 });
    }
  };
  if ((lines[0] ?? "").trim() === "") throw AiError.of("cassette", "empty", { name });
  const first = parsed(0);
  const claimed = (first as { format?: unknown; version?: unknown } | null) ?? {};
  if (claimed.format === CASSETTE_FORMAT && claimed.version !== CASSETTE_VERSION)
    throw AiError.of("cassette", "version", {
      name,
      version: String(claimed.version),
      supported: CASSETTE_VERSION,
    });
  const header = CassetteHeader.safeParse(first);
  if (!header.success)
    throw AiError.of("cassette", "bad-header", {
      name,
      reason: header.error.issues[0]?.message ?? "invalid",
    });
  const entries: CassetteEntry[] = [];
  for (let at = 1; at < lines.length; at++) {
    if (lines[at]!.trim() === "") continue;
    const value = parsed(at);
    const entry = Entry.safeParse(value);
    if (!entry.success)
      throw AiError.of("cassette", "bad-entry", {
        name,
        line: at + 1,
        reason: String(entry.error.issues[0]?.message),
      });
    entries.push(entry.data as CassetteEntry);
  }
  return { header: header.data, entries };
}

export function isCallEntry(entry: CassetteEntry): entry is CallEntry {
  return "call" in entry;
}
