import { formatMessage } from "./rule.ts";

/**
 * One code of an error table (the engine's, the play-tests', the AI layer's,
 * the server's), in the shape of the rules catalogue (rule.ts's CodeInfo):
 * what the code means, and the message templates with `{named}` placeholders
 * when the table holds the text. A table is a record from code to entry, so
 * the code is written once and its type is the table's keys.
 * docs/errors.md is generated from the tables (scripts/errors-doc.ts).
 */
export interface ErrorInfo<M extends string = string> {
  /** One sentence: when the code is raised. */
  description: string;
  /**
   * Message templates with `{named}` placeholders, each saying what to do.
   * Absent where the message is still worded where the error is raised.
   */
  messages?: Record<M, string>;
}

export type ErrorTable = Readonly<Record<string, ErrorInfo>>;

/** The message ids of one code of a table whose entries hold their templates. */
export type MessageIdOf<
  T extends Record<string, { messages: Record<string, string> }>,
  C extends keyof T,
> = Extract<keyof T[C]["messages"], string>;

/** A table's message for a code: its template filled with data (an unknown id is a bug of ours). */
export function errorMessage(
  table: ErrorTable,
  code: string,
  messageId: string,
  data: Record<string, string | number> = {},
): string {
  const template = table[code]?.messages?.[messageId];
  if (template === undefined) throw new Error(`${code}: unknown message id ${messageId}`);
  return formatMessage(template, data);
}
