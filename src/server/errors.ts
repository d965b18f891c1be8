import type { ErrorInfo } from "../world/error-table.ts";

/**
 * Every error the server answers with: a stable code, its HTTP status and
 * what it means. Responses are `{"error": {"code", "message", "details"}}`;
 * the message says what to do. docs/server.md lists this table (a test keeps
 * the two in step); docs/errors.md is generated from it with the other error tables.
 */
export const SERVER_ERRORS = {
  "request/invalid": {
    status: 400,
    description: "The body, path or query does not match the route's schema.",
  },
  "request/malformed-json": { status: 400, description: "The body is not valid JSON." },
  "request/too-large": { status: 413, description: "The body is larger than the route's limit." },
  "request/unsupported-type": { status: 415, description: "The body is not application/json." },
  "route/not-found": { status: 404, description: "No such route." },
  "rate/limited": {
    status: 429,
    description: "Too many requests from this token or address; wait and retry.",
  },
  "auth/missing": { status: 401, description: "The route needs an `Authorization: Bearer <token>` header." },
  "auth/invalid": {
    status: 401,
    description: "The token is not one this server issued (or the game was deleted).",
  },
  "auth/host-only": { status: 403, description: "Only the game's host token may use this route." },
  "auth/player-only": {
    status: 403,
    description: "This route acts as a player's character: use that player's token.",
  },
  "auth/other-game": { status: 403, description: "The token belongs to another game." },
  "auth/kicked": { status: 403, description: "The host removed this player from the game." },
  "world/not-found": { status: 404, description: "No world with this hash was uploaded." },
  "world/invalid": { status: 422, description: "The world has errors; details holds the check report." },
  "world/unknown-name": {
    status: 400,
    description: "A story start, premade, realm or game mode the world does not have.",
  },
  "game/not-found": { status: 404, description: "No game with this id." },
  "game/invite-unknown": { status: 404, description: "No game has this invite code." },
  "game/state": {
    status: 409,
    description: "The game's status does not allow this (not started, paused, ended...).",
  },
  "game/name-taken": { status: 409, description: "Another player of this game already has this character." },
  "game/no-players": { status: 409, description: "The game has no player yet." },
  "game/busy": { status: 409, description: "Another step of this game is running; retry when it ends." },
  "player/not-found": { status: 404, description: "No such player in this game." },
  "submission/conflict": {
    status: 409,
    description: "This player already submitted another action for this turn.",
  },
  "submission/key-reused": {
    status: 409,
    description: "This idempotency key was used for a different action.",
  },
  "turn/no-actions": { status: 409, description: "No player has submitted an action for this turn." },
  "turn/failed": {
    status: 502,
    description:
      "The turn failed (the narrator or a script); the game stayed at its previous turn and can run again.",
  },
  "engine/refused": {
    status: 422,
    description: "The engine refused the input (an unknown quest, a quest not on offer...).",
  },
  "save/invalid": { status: 422, description: "The save file cannot be read or belongs to another world." },
  "sse/too-many": { status: 429, description: "Too many event streams open for this token." },
  "store/locked": { status: 503, description: "The SQLite data folder is used by another process." },
  "store/migration": { status: 503, description: "The store could not be migrated." },
  "store/config": { status: 400, description: "The store configuration is invalid." },
  "store/unreadable": {
    status: 503,
    description: "The SQLite database file cannot be opened (damaged, not a database, or no permission).",
  },
  "store/full": {
    status: 507,
    description: "The disk of the SQLite data folder is full; nothing of the request was stored.",
  },
  "store/stopped": {
    status: 503,
    description: "The SQLite store's thread stopped (the server is shutting down, or it failed).",
  },
  "server/unavailable": {
    status: 503,
    description: "The server is shutting down or its store is unreachable.",
  },
  "server/internal": {
    status: 500,
    description: "An unexpected error; the server log has the details (never the response).",
  },
} as const satisfies Record<string, ErrorInfo & { status: number }>;

export type ServerErrorCode = keyof typeof SERVER_ERRORS;

export class ApiError extends Error {
  readonly code: ServerErrorCode;
  readonly details: Record<string, unknown>;
  constructor(code: ServerErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.details = details;
  }
  get status(): number {
    return SERVER_ERRORS[this.code].status;
  }
  toJSON() {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
