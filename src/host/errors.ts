import { type ErrorInfo, errorMessage, type MessageIdOf } from "../world/error-table.ts";

/**
 * The errors of the host's game (src/host/game.ts) beyond the engine's: the
 * story controls (issue 33) refused on the game as it stands. The text lives
 * only here, as templates: a raise site names the code, a message id and its
 * data. A refused control changes nothing. docs/errors.md is generated from
 * this table with the others.
 */
export const HOST_ERRORS = {
  "history/refused": {
    description:
      "A story control (retry, undo, alter, rewind, branches, diff) cannot be used on the game as it stands.",
    messages: {
      "retry-none": "There is no turn to retry: the last step is {what}. Play a turn first.",
      "retry-answer": "The last step is a quest answer, not a turn: undo it first, then retry the turn.",
      "alter-none": "There is no narration to alter: the last step is {what}.",
      "alter-later":
        "Turn {turn} has later turns in the story (on this branch or another): only the last turn of a branch can be altered.",
      "alter-empty": "The new text of the narration is empty: write what the story should say.",
      "alter-long": "The new text of the narration is {length} characters long; at most {max} are kept.",
      "rewind-none": "Turn {turn} is not on this branch: it goes from turn {first} to turn {last}.",
      "rewind-here": "The game is at turn {turn} already.",
      branch: "{reason}",
      point: "{reason}",
      "bad-state": "The saved history's state at turn {turn} does not load: {reason}",
    },
  },
} as const satisfies Record<string, Required<ErrorInfo>>;

export type HostErrorCode = keyof typeof HOST_ERRORS;

type HostErrorArgs = {
  [C in HostErrorCode]: [
    code: C,
    messageId: MessageIdOf<typeof HOST_ERRORS, C>,
    data?: Record<string, string | number>,
    details?: Record<string, unknown>,
  ];
}[HostErrorCode];

export class HostError extends Error {
  readonly code: HostErrorCode;
  readonly details: Record<string, unknown>;

  /** The message is the table's template `messageId` of `code`, filled with `data`. */
  constructor(...[code, messageId, data = {}, details = {}]: HostErrorArgs) {
    super(errorMessage(HOST_ERRORS, code, messageId, data));
    this.name = "HostError";
    this.code = code;
    this.details = details;
  }
}

export function isHostError(error: unknown): error is HostError {
  return error instanceof HostError;
}
