import type { Game, Player, Turn, World } from "../../src/server/store/store.ts";

/**
 * Rows the store tests write themselves, below the API: each is a plain, valid row of the store's
 * schema (schema.ts), with the fields a test cares about given by it.
 */

/** The world "w": an empty file, no warnings. */
export function worldRow(now: number): Omit<World, "uploader"> {
  return { hash: "w", name: "w", text: "{}", bytes: 2, warnings: "[]", created_at: now };
}

/** The game "g1" of the world "w": running at tick 0, seed 1, unclaimed, no step yet; `fields` change it. */
export function gameRow(now: number, fields: Partial<Omit<Game, "event_seq">> = {}): Omit<Game, "event_seq"> {
  return {
    id: "g1",
    world_hash: "w",
    status: "running",
    host_token_hash: "h",
    invite_code: "i",
    seed: 1,
    story_start: null,
    game_mode: null,
    narrator: "offline",
    seq: 0,
    tick: 0,
    forced_tick: null,
    turn_timeout_ms: null,
    turn_opened_at: null,
    lease_owner: null,
    lease_until: null,
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

/** A turn of the game "g1": step `seq`, played from `parent` to `tick`, its state and narration named by its seq. */
export function turnRow(now: number, seq: number, parent: number | null, tick: number): Turn {
  return {
    game_id: "g1",
    seq,
    parent,
    kind: "turn",
    tick,
    state: `state ${seq}`,
    inputs: "{}",
    cassette: "[]",
    trace: seq === 0 ? null : "{}",
    result: "{}",
    narration: `narration ${seq}`,
    created_at: now,
  };
}

/** The active player `id` ("p1", "Ann") of the game "g1", token hash "t", joined at `now`; `fields` change it. */
export function playerRow(
  now: number,
  fields: Partial<Omit<Player, "name_key">> = {},
): Omit<Player, "name_key"> {
  return {
    id: "p1",
    game_id: "g1",
    name: "Ann",
    spec: "{}",
    token_hash: "t",
    status: "active",
    joined_at: now,
    ...fields,
  };
}
