import { type ErrorInfo, errorMessage, type MessageIdOf } from "../world/error-table.ts";

/**
 * Every error the server answers with: a stable code, its HTTP status and
 * what it means. Responses are `{"error": {"code", "message", "details"}}`;
 * the message says what to do. The text lives only here, as templates with
 * `{named}` placeholders: a raise site names a code, a message id and its data
 * (`new ApiError("game/state", "ended")`). docs/server.md lists the codes (a
 * test keeps the two in step); docs/errors.md is generated from this table
 * with the other error tables.
 */
export const SERVER_ERRORS = {
  "request/invalid": {
    status: 400,
    description: "The body, path or query does not match the route's schema.",
    messages: {
      schema: "The request {where} is not valid at {at}: {issue}. /openapi.json describes every route.",
      "schema-whole": "The request {where} is not valid. /openapi.json describes every route.",
      url: "The URL cannot be read: check its encoding and length.",
      "no-world": "Send the world file as the body, with Content-Type: application/json.",
      other: "The request is not valid; /openapi.json describes every route.",
      unreadable: "The request cannot be read as HTTP/1.1; send a well-formed request.",
      "too-slow": "The request did not arrive in time; send it again.",
    },
  },
  "request/malformed-json": {
    status: 400,
    description: "The body is not valid JSON.",
    messages: {
      json: "The body is not valid JSON; send a JSON document.",
      "json-at":
        "The body is not valid JSON: it goes wrong at line {line}, column {column} (names and strings in double quotes, no trailing commas); send a JSON document.",
    },
  },
  "request/too-large": {
    status: 413,
    description: "The body is larger than the route's limit.",
    messages: {
      "too-large": "The body is larger than this route accepts (at most {limit}); send a smaller one.",
    },
  },
  "request/headers-too-large": {
    status: 431,
    description: "The request's headers (the URL included) are larger than the server reads.",
    messages: {
      "header-overflow":
        "The request's headers, the URL included, are larger than this server reads (16 KiB); send a shorter URL or fewer headers.",
    },
  },
  "request/unsupported-type": {
    status: 415,
    description: "The body is not application/json.",
    messages: { "not-json": "Send the body as application/json." },
  },
  "route/not-found": {
    status: 404,
    description: "No such route.",
    messages: {
      "no-route": "No route {method} {path}; /openapi.json lists them.",
      "no-file": "No such file of the browser app; open / for the app.",
    },
  },
  "route/method-not-allowed": {
    status: 405,
    description: "The path exists, but not with this method; the Allow header names the methods it takes.",
    messages: {
      "other-method": "{path} takes {methods}, not {method}; /openapi.json lists the routes.",
    },
  },
  "rate/limited": {
    status: 429,
    description: "Too many requests from this token or address; wait and retry.",
    messages: {
      "per-token":
        "Too many requests with this token: at most {max} per minute per token. Retry in {seconds} s.",
      "per-address":
        "Too many requests from this address: at most {max} per minute per address for requests without a game's token. Retry in {seconds} s.",
      actions: "Too many actions with this token: at most {max} per minute. Retry in {seconds} s.",
      "address-all":
        "Too many requests from this address: at most {max} per minute from one address, over all its tokens. Retry in {seconds} s.",
      "wait-a-minute": "Too many requests; wait a minute and retry.",
    },
  },
  "auth/missing": {
    status: 401,
    description: "The route needs an `Authorization: Bearer <token>` header.",
    messages: {
      "no-header": "Send the game's token as `Authorization: Bearer <token>`.",
      "other-scheme":
        "The Authorization header must be `Bearer <token>`, with the game's host token or your player token; it uses another scheme.",
      empty:
        "The Authorization header says `Bearer` but holds no token after it (is the shell variable meant to hold it empty?); send `Authorization: Bearer <token>`.",
      "no-token":
        "This route needs a game token: send the host token or your player token as `Authorization: Bearer <token>`.",
      "upload-token":
        "Uploading a world needs a token: the operator's upload token (taleforge serve --upload-token), or the host token of a game on this server (create a game, then upload with its hostToken). The operator may open uploads to everyone with --open-uploads.",
    },
  },
  "auth/invalid": {
    status: 401,
    description: "The token is not one this server issued (or the game was deleted).",
    messages: {
      "not-issued": "This token is not one this server issued; create or join a game for one.",
      malformed:
        "The token after `Bearer` cannot be one of this server's: its tokens are tfh_ (host) or tfp_ (player) and 43 letters, digits, - or _. Send it without quotes or spaces.",
    },
  },
  "auth/host-only": {
    status: 403,
    description: "Only the game's host token may use this route.",
    messages: { "host-only": "Only the game's host may do this; use the host token." },
  },
  "auth/player-only": {
    status: 403,
    description: "This route acts as a player's character: use that player's token.",
    messages: { "player-only": "This route acts as a player's character; use that player's token." },
  },
  "auth/other-game": {
    status: 403,
    description: "The token belongs to another game.",
    messages: {
      "other-game":
        "This token belongs to another game; use the token you got for this game (its host token or your player token), or check the game id in the URL.",
    },
  },
  "auth/kicked": {
    status: 403,
    description: "The host removed this player from the game.",
    messages: {
      kicked:
        "The host removed you from this game, so this token no longer works for it; to play again, ask a host for the invite of another game.",
    },
  },
  "world/not-found": {
    status: 404,
    description: "No world with this hash was uploaded.",
    messages: { "no-world": "No world {hash}; upload it with POST /worlds." },
  },
  "world/quota": {
    status: 403,
    description:
      "The uploader (a host token, or an address when uploads are open) or the server has stored as many worlds as it may.",
    messages: {
      uploader:
        "This token has stored {count} worlds, the most one uploader may ({max}); nothing was stored. Play one of them, or ask the server's operator to upload it.",
      total:
        "The server stores no more uploaded worlds (at most {max} of them); nothing was stored. Ask the server's operator.",
    },
  },
  "world/invalid": {
    status: 422,
    description: "The world has errors; details holds the check report.",
    messages: {
      "has-errors":
        "The world has {count} error(s); fix them (taleforge check shows them with their lines) and upload it again.",
    },
  },
  "world/unknown-name": {
    status: 400,
    description: "A story start, premade, realm or game mode the world does not have.",
    messages: {
      "story-start": 'No story start "{storyStart}"; GET /worlds/{world}/starts lists them.',
      "game-mode": 'No game mode "{gameMode}"; the world has {modes}.',
      premade: 'No premade character "{premade}"; GET /worlds/{world}/premades lists them.',
      realm:
        'No realm "{realm}" in this world; leave out ?realm= for its first realm, or name one of its realms by key (GET /worlds/{world} lists them).',
      "no-realm":
        'This world has no realm, so it has no map to draw; add a realm to the world\'s "realms" (docs/format.md) and upload it again.',
    },
  },
  "game/invite-unknown": {
    status: 404,
    description: "No game has this invite code.",
    messages: { "no-invite": "No game has this invite code; ask the host for it again." },
  },
  "game/state": {
    status: 409,
    description: "The game's status does not allow this (not started, paused, ended...).",
    messages: {
      ended:
        "This game has ended; its host can still read its transcript and export its save. Create a new game to play on.",
      full: "This game is full (at most {max} players); ask its host to start another game for you.",
      "join-started":
        'The game has started; join as one of its characters nobody plays yet, with {"character": {"name": "<name>"}}: {characters}.',
      "join-all-played":
        "The game has started and every character of its party has a player; ask its host to start another game for you.",
      "start-not-lobby":
        "The game is {status}; only a game in the lobby starts (a paused game resumes with POST /games/:id/resume; an ended one stays ended).",
      already: "The game is already {status}; GET /games/:id shows its status.",
      "cannot-change":
        "The game is {status}, so it cannot {action}: a game in the lobby starts, a running one pauses or ends, a paused one resumes or ends, an ended one stays ended. GET /games/:id shows its status.",
      "act-not-running":
        "The game is {status}; actions are taken only while it runs. Wait for the host to start it (lobby) or resume it (paused); an ended game takes none.",
      "turn-not-running":
        "The game is {status}; turns run only while it runs. Start it (lobby) or resume it (paused) first.",
      "not-running":
        "The game is {status}; quest answers are taken only while it runs. Wait for the host to start or resume it.",
      "not-started": "The game has not started; the host starts it.",
      "no-save": "The game has not started; there is nothing to save yet.",
      "no-trace":
        "Step {seq} has no trace (not played yet, or a quest answer or an import); GET /games/:id/transcript lists the steps with their seq and kind, and GET /games/:id/trace without ?seq= gives the last turn's.",
      "no-replay": "The game has not started; there is nothing to replay.",
      "no-playtest":
        "The game cannot be exported as a play-test: {reason} GET /games/:id/cassette still gives its recording.",
      "no-map": "The game has not started; GET /worlds/:hash/map.svg draws its world.",
      "no-storage": "The game has not started; there is no storage yet.",
      "head-moved":
        "The game is at step {head} now, not at step {expected} you saw: someone else moved it first. Read the game (GET /games/:id/history/branches) and decide again.",
      "undo-none":
        "There is no turn to take back on this branch (only the opening or an import). Rewind or switch branches instead.",
      "retry-none":
        "The game's last step is {what}, not a turn: only a turn runs again. Undo or rewind to a turn first.",
      "alter-none":
        "The game's last step is {what}, which has no narration to alter; alter the narration of a turn or the opening.",
      "alter-empty": "The altered narration is empty; send the text the story should have.",
      "rewind-none":
        "This branch has no step at turn {tick} (it goes from turn {first} to turn {last}); GET /games/:id/transcript lists its steps.",
      "rewind-here": "The game is at turn {tick} already.",
      "no-step":
        "The game has no step {seq}; GET /games/:id/history/branches lists its branches and GET /games/:id/transcript the steps of the current one.",
      "switch-here": "The game is on that branch already (step {seq}).",
    },
  },
  "game/control-denied": {
    status: 403,
    description: "The game's rules (PUT /games/:id/controls) do not let the caller use this story control.",
    messages: {
      "host-only":
        'Only the host may {control} in this game (its rule for {rule} is "host"); ask the host, who sets the rules with PUT /games/:id/controls.',
      "not-active": "Only an active player of this game (or its host) may {control}.",
    },
  },
  "game/vote-open": {
    status: 409,
    description: "A party vote is open in this game already: one at a time.",
    messages: {
      open: "A vote is open in this game already (to {control}, asked by {by}); vote on it with POST /games/:id/history/vote, or wait until it closes (GET /games/:id shows it as `vote`).",
    },
  },
  "game/vote-closed": {
    status: 409,
    description: "No such vote is open in this game (it closed, or it never was this game's latest).",
    messages: {
      closed:
        "The vote {vote} is not open in this game (it closed, or it is not this game's); GET /games/:id shows the open vote as `vote`.",
    },
  },
  "game/playtest-too-long": {
    status: 422,
    description:
      "The game has more turns than GET /games/:id/playtest replays inside a request (the server's playtestMaxTurns, default 500).",
    messages: {
      "too-long":
        "The game has {turns} turns; the server exports at most {max} as a play-test, since it replays them inside the request. Download GET /games/:id/cassette and run `taleforge export-test <file>` on it (--from-turn/--to-turn export a slice).",
    },
  },
  "game/name-taken": {
    status: 409,
    description: "Another player of this game already has this character.",
    messages: { taken: '"{name}" is already played in this game; choose another character.' },
  },
  "game/name-confusable": {
    status: 409,
    description:
      "The name looks like the name of another player of this game (the same letters in another script, case or width).",
    messages: {
      lookalike:
        '"{name}" looks like "{other}", who already plays in this game; choose a name nobody could mistake for theirs.',
    },
  },
  "game/no-players": {
    status: 409,
    description: "The game has no player yet.",
    messages: { "no-players": "No player has joined; share the invite code first." },
  },
  "game/busy": {
    status: 409,
    description: "Another step of this game is running; retry when it ends.",
    messages: {
      leased: "Another step of this game is running; its result arrives as an event.",
      "taken-over":
        "This step took longer than its claim and another process took the game over; nothing was committed. Its result arrives as an event; read the game before you retry.",
      "turn-moved": "The turn is running or the game moved on; read the game and submit for its new turn.",
      "answer-waited":
        "A turn of this game was still running after {seconds} s; your answer was not stored. Answer again when its result arrives.",
    },
  },
  "player/not-found": {
    status: 404,
    description: "No such player in this game.",
    messages: {
      "not-active":
        "No active player with this id in this game (never joined, or already kicked); GET /games/:id lists the players with their ids and status.",
    },
  },
  "host/no-offer": {
    status: 409,
    description: "The host role was not handed to this player, or they already took it.",
    messages: {
      "not-offered":
        "The host role is not waiting for you: the host has not handed it to you, or you have already taken it. Ask the host to hand it to you again.",
    },
  },
  "submission/conflict": {
    status: 409,
    description: "This player already submitted another action for this turn.",
    messages: { submitted: "You already submitted an action for this turn; wait for it to run." },
  },
  "submission/key-reused": {
    status: 409,
    description: "This idempotency key was used for a different action.",
    messages: {
      "key-reused": "This idempotency key was used for a different action; use a new key for a new action.",
    },
  },
  "turn/no-actions": {
    status: 409,
    description: "No player has submitted an action for this turn.",
    messages: {
      "force-empty":
        "No player has submitted an action for this turn yet; run it once one has (a `submission` event says so).",
      "run-empty": "No player has submitted an action for this turn yet; wait for one.",
    },
  },
  "turn/failed": {
    status: 502,
    description:
      "The turn failed (the narrator or a script); the game stayed at its previous turn and can run again.",
    messages: {
      "engine-failed":
        "The turn failed and was not applied: {reason}. The game stayed at its previous turn; the host runs it again with POST /games/:id/turn.",
      "narrator-failed":
        "The narrator failed ({kind}); the game stayed at its previous turn. The host runs it again with POST /games/:id/turn.",
    },
  },
  "engine/refused": {
    status: 422,
    description: "The engine refused the input (an unknown quest, a quest not on offer...).",
    messages: {
      "engine-refused": "{reason}",
      "quest-not-offered": 'Quest "{quest}" is {status}; only a quest on offer is accepted or rejected.',
      "quest-not-accepted": 'Quest "{quest}" is {status}; only an accepted quest is abandoned.',
      "unknown-quest":
        'No quest "{quest}" in this world; GET /games/:id lists the party\'s quests (state.quests) by their names.',
    },
  },
  "save/invalid": {
    status: 422,
    description: "The save file cannot be read or belongs to another world.",
    messages: {
      "cannot-load": "The save cannot be loaded on this world: {reason}",
      "too-many-players":
        "The save's party has {count} player characters; a game on this server has at most {max}. Remove characters from state.party, or play it with taleforge play --load.",
      "storage-too-large":
        "The save's scripts' storage holds {chars} characters of JSON, more than the {max} scripts may keep. Shrink state.storage, or play it with taleforge play --load.",
      "max-judged":
        "The save's settings.maxJudged is {value}; a game on this server judges at most {max} triggers per phase. Set settings.maxJudged to a whole number from 0 to {max}, or play it with taleforge play --load.",
      "too-deep":
        "The save nests arrays or objects more than {limit} levels deep (at character {offset}); a game's save never needs more than a few dozen. Export the save again from its game, or repair the file there.",
      "too-long":
        "Reading this save took longer than {seconds} s, the server's limit; no game was made. Export the save again from its game, or play it with taleforge play --load.",
      "unreadable-name":
        "The save's {at} holds control, bidirectional or zero-width characters or a line break, which names on this server may not (they could drive a terminal, reorder what is shown or pass for another player). Rename the character in the save with visible characters only.",
    },
  },
  "sse/too-many": {
    status: 429,
    description: "Too many event streams open for this token, or from this address.",
    messages: {
      "per-token": "At most {max} event streams per token; close one first.",
      "per-address":
        "At most {max} event streams from one address, over all its games and tokens; close one first (a browser tab that follows a game holds one).",
    },
  },
  "store/locked": {
    status: 503,
    description: "The SQLite data folder is used by another process.",
    messages: {
      "in-use":
        "The data folder {folder} is in use by another taleforge serve (pid {pid}). SQLite mode serves from one process: stop that one, use another --data folder, or share a PostgreSQL database (--database) to run several.",
      "lock-failed": "Could not lock the data folder {folder}; try again.",
    },
  },
  "store/migration": {
    status: 503,
    description: "The store could not be migrated.",
    messages: {
      "migration-failed":
        "Migrating the store failed at {migration}: {reason}. The store was left at the last migration that succeeded.",
    },
  },
  "store/unreachable": {
    status: 503,
    description:
      "The PostgreSQL server of --database cannot be reached or opened (not running there, no such database, a refused login).",
    messages: {
      "no-database":
        'PostgreSQL at {server} has no database "{database}": create it (createdb -h {host} -p {port} {database}) or name another one in --database.',
      login:
        "PostgreSQL at {server} refused the login ({reason}); check the user and password in --database.",
      connect:
        "Cannot reach PostgreSQL at {server} ({reason}); check that it runs there and that --database names its host and port.",
      other: "PostgreSQL at {server} could not be opened: {reason}. Check --database.",
    },
  },
  "store/config": {
    status: 400,
    description: "The store configuration is invalid.",
    messages: { "schema-name": 'The schema name "{schema}" must be lower-case letters, digits and _.' },
  },
  "store/unreadable": {
    status: 503,
    description: "The SQLite database file cannot be opened (damaged, not a database, or no permission).",
    messages: {
      "cannot-open":
        'The SQLite database {file} cannot be opened: {reason}. If the file is damaged, restore it from a backup (docs/server.md, "Backup and restore"); otherwise check the folder\'s permissions and free space.',
    },
  },
  "store/full": {
    status: 507,
    description: "The disk of the SQLite data folder is full; nothing of the request was stored.",
    messages: {
      "disk-full":
        "The disk of the data folder is full (or the database reached its size limit); nothing of this request was stored. Free some space and retry.",
    },
  },
  "store/stopped": {
    status: 503,
    description: "The SQLite store's thread stopped (the server is shutting down, or it failed).",
    messages: {
      "thread-failed":
        "The SQLite store's thread failed ({reason}); nothing after its last commit was stored. Restart taleforge serve.",
      "thread-exited":
        "The SQLite store's thread stopped (exit code {code}); nothing after its last commit was stored. Restart taleforge serve.",
      closed: "The store is closed (the server is shutting down); nothing more can be stored.",
    },
  },
  "server/busy": {
    status: 503,
    description:
      "The server's work threads (world checks, imported saves, maps) are all busy and their queue is full; retry after the Retry-After header's seconds.",
    messages: {
      workers:
        "The server is busy checking worlds, reading saves and drawing maps for other requests; nothing was stored. Retry in {seconds} s.",
    },
  },
  "world/check-timeout": {
    status: 422,
    description: "Checking the uploaded world (or drawing its map) took longer than the server allows.",
    messages: {
      "too-long":
        "Checking this world took longer than {seconds} s, the server's limit; nothing was stored. Check it with `taleforge check` and make it smaller.",
    },
  },
  "server/unavailable": {
    status: 503,
    description: "The server is shutting down or its store is unreachable.",
    messages: {
      "shutting-down": "The server is shutting down; retry on another process.",
      "not-ready": "The server is starting or stopping; retry shortly, or on another process.",
      "store-silent":
        "The store does not answer; retry shortly. If it lasts, check the database server (or the data folder's disk).",
      "store-unreachable": "The store is unreachable or busy; nothing was changed. Retry shortly.",
    },
  },
  "server/internal": {
    status: 500,
    description: "An unexpected error; the server log has the details (never the response).",
    messages: { unexpected: "An unexpected error; the server log has the details." },
  },
} as const satisfies Record<string, Required<ErrorInfo> & { status: number }>;

export type ServerErrorCode = keyof typeof SERVER_ERRORS;

/** The message ids of one server error code. */
export type ServerMessageId<C extends ServerErrorCode> = MessageIdOf<typeof SERVER_ERRORS, C>;

/** A code, one of its message ids, the template's data, and the details of the response. */
type ApiErrorArgs = {
  [C in ServerErrorCode]: [
    code: C,
    messageId: ServerMessageId<C>,
    data?: Record<string, string | number>,
    details?: Record<string, unknown>,
  ];
}[ServerErrorCode];

export class ApiError extends Error {
  readonly code: ServerErrorCode;
  readonly details: Record<string, unknown>;
  /** The message is the table's template `messageId` of `code`, filled with `data`. */
  constructor(...[code, messageId, data = {}, details = {}]: ApiErrorArgs) {
    super(errorMessage(SERVER_ERRORS, code, messageId, data));
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
