import type { z } from "zod";
import type { PlayerSpec, SessionState } from "../engine/index.ts";
import { readSave } from "../engine/index.ts";
import { type PartingStep, partBranches } from "../host/branch-parting.ts";
import { cleanBranchName, MAX_NAME } from "../host/history.ts";
import { readLine, replyOf, replyProblem } from "../host/offers.ts";
import { PartyControls } from "../host/party-controls.ts";
import { diffForParty, diffWorld } from "../host/world-diff.ts";
import type { World } from "../world/schema/index.ts";
import { hashToken, newId, newInviteCode, newToken } from "./auth.ts";
import { ApiError } from "./errors.ts";
import { gameEvents } from "./events.ts";
import type { Logger } from "./logger.ts";
import { lookalikeOf } from "./names.ts";
import { partyDecides, type QuestAnswer, type QuestAnswerOutcome, questKey } from "./quests.ts";
import { MinuteWindows } from "./rate-keys.ts";
import { asApiError, type Runner } from "./runner.ts";
import {
  type ControlsPatch,
  type CreateGame as CreateGameBody,
  type JoinGame as JoinGameBody,
  MAX_PLAYERS,
  type SubmitAction,
} from "./schemas.ts";
import { eventIdText, type Game, type Player, type Store } from "./store/store.ts";
import { playerState, unclaimed } from "./views.ts";
import {
  type Asker,
  type ControlAsk,
  type ControlResult,
  controlsOf,
  isVoteSettled,
  mayOf,
  openVoteView,
  PartyVotes,
} from "./votes.ts";
import type { WorldCache } from "./worlds.ts";

export interface CoreDeps {
  store: Store;
  worlds: WorldCache;
  /** Runs the steps that change a game's state (the opening, a turn, a quest answer) on a claim. */
  runner: Runner;
  /** New submissions per player token per minute (a retry of a stored key is not one). */
  actionsPerMinute: number;
  log: Logger;
  /** Epoch milliseconds for the party votes' times (default Date.now; tests move it on instead of waiting). */
  now?: () => number;
}

/** A game's last committed state, read and parsed once for the step that needs it. */
interface Loaded {
  world: World;
  /** The game's seq when the state was read: a claim taken at the same seq finds it unchanged. */
  seq: number;
  state: SessionState | null;
}

export type StatusAction = "pause" | "resume" | "end";

const STATUS_CHANGES: Record<StatusAction, { from: Game["status"][]; to: Game["status"] }> = {
  pause: { from: ["running"], to: "paused" },
  resume: { from: ["paused"], to: "running" },
  end: { from: ["lobby", "running", "paused"], to: "ended" },
};

/**
 * The one home of a game's actions: one entry per action (create, join, start, pause/resume/end,
 * kick, submit, force, answer, and the story controls: undo, retry, alter, rewind, switchBranch, with
 * the reads branches and diff), each in the shape of boardgame.io's master `onUpdate`: read
 * the game (and its save, parsed once, only when the action needs it), check the action against
 * it, apply it (a store write with its event in one transaction, or a step on the game's claim,
 * which the runner holds), and wake the runner when a turn may have become due. The HTTP routes are
 * thin: they check the request and the caller and call one entry.
 */
export class GameCore {
  /** New submissions per player (so per player token) in the last minute. */
  private readonly actions = new MinuteWindows();
  /** The party votes on the story controls: they apply a passed control through `apply`. */
  private readonly votes: PartyVotes;
  constructor(private readonly deps: CoreDeps) {
    this.votes = new PartyVotes(
      { store: deps.store, log: deps.log, now: deps.now ?? Date.now },
      { apply: (...args) => this.apply(...args) },
    );
  }

  /** Creates a game in the lobby: its host token and invite code. */
  async create(body: z.infer<typeof CreateGameBody>, creator: string) {
    const { store, worlds } = this.deps;
    const world = await worlds.get(body.world);
    if (body.storyStart !== undefined && !Object.hasOwn(world.storyStarts, body.storyStart))
      throw new ApiError(
        "world/unknown-name",
        "story-start",
        { storyStart: body.storyStart, world: body.world },
        { storyStart: body.storyStart },
      );
    const modes = Object.values(world.gameModes).map((m) => m.name);
    if (body.gameMode != null && !modes.includes(body.gameMode))
      throw new ApiError(
        "world/unknown-name",
        "game-mode",
        { gameMode: body.gameMode, modes: modes.join(", ") || "none" },
        { gameMode: body.gameMode },
      );
    const hostToken = newToken("host");
    const now = Date.now();
    const game: Game = {
      id: newId(),
      event_seq: 0,
      world_hash: body.world,
      status: "lobby",
      host_token_hash: hashToken(hostToken),
      invite_code: newInviteCode(),
      seed: body.seed ?? Math.floor(Math.random() * 0x100000000),
      story_start: body.storyStart ?? null,
      game_mode: body.gameMode ?? null,
      narrator: body.narrator ?? "server",
      seq: 0,
      tick: 0,
      forced_tick: null,
      turn_timeout_ms: body.turnTimeoutSeconds !== undefined ? body.turnTimeoutSeconds * 1000 : null,
      turn_opened_at: null,
      lease_owner: null,
      lease_until: null,
      created_at: now,
      updated_at: now,
      // Its maker, for the fair share of step slots: many games of one client share one part.
      creator,
      controls: body.controls ? JSON.stringify(PartyControls.parse(body.controls)) : null,
    };
    await store.createGame(game);
    return { id: game.id, hostToken, invite: game.invite_code };
  }

  /** A player joins by invite: a premade or a new character before the start, an unclaimed one after it. */
  async join(body: z.infer<typeof JoinGameBody>) {
    const { store } = this.deps;
    const game = await store.gameByInvite(body.invite.trim().toUpperCase());
    if (!game) throw new ApiError("game/invite-unknown", "no-invite");
    if (game.status === "ended") throw new ApiError("game/state", "ended");
    const players = await store.players(game.id);
    if (players.length >= MAX_PLAYERS)
      throw new ApiError("game/state", "full", { max: MAX_PLAYERS }, { limit: MAX_PLAYERS });
    const spec = body.character as PlayerSpec;
    const name = "premade" in spec ? spec.premade : spec.name;
    const { world, state } = await this.load(game, game.status !== "lobby");
    if ("premade" in spec && !world.premadeCharacters.some((p) => p.name === spec.premade))
      throw new ApiError("world/unknown-name", "premade", { premade: spec.premade, world: game.world_hash });
    if (game.status !== "lobby") {
      // After the start the party is fixed: a player claims a character nobody plays (an imported game's).
      const party = state?.party ?? [];
      if (!party.some((c) => c.kind === "player" && c.name === name)) {
        // Only the characters nobody plays: a kicked player's stays theirs (their seat is not reopened).
        const claimable = unclaimed(party, players);
        if (claimable.length === 0) throw new ApiError("game/state", "join-all-played", {}, { claimable });
        throw new ApiError("game/state", "join-started", { characters: claimable.join(", ") }, { claimable });
      }
    }
    // A seat the host freed: the one who joins as its character takes it (the same player, its history).
    const reopened = await takeOpenSeat(store, game.id, name);
    if (reopened) return reopened;
    if (players.some((p) => p.name === name))
      throw new ApiError("game/name-taken", "taken", { name }, { name });
    // A name only a close look tells apart from a player's ("Іsobel" with a Cyrillic І, "ａda") would let
    // one player pass for another in the story and the party list.
    const other = lookalikeOf(
      name,
      players.map((p) => p.name),
    );
    if (other !== undefined)
      throw new ApiError("game/name-confusable", "lookalike", { name, other }, { name, other });
    const token = newToken("player");
    const id = newId();
    try {
      await store.addPlayer(
        {
          id,
          game_id: game.id,
          name,
          spec: JSON.stringify(spec),
          token_hash: hashToken(token),
          status: "active",
          joined_at: Date.now(),
        },
        gameEvents.playerJoined({ player: id, name }),
      );
    } catch (error) {
      if (/unique|duplicate/i.test(String((error as Error).message))) {
        // Another join took this name, or one that looks like it, meanwhile.
        const now = (await store.players(game.id)).map((p) => p.name);
        const like = now.includes(name) ? undefined : lookalikeOf(name, now);
        if (like !== undefined)
          throw new ApiError(
            "game/name-confusable",
            "lookalike",
            { name, other: like },
            { name, other: like },
          );
        throw new ApiError("game/name-taken", "taken", { name }, { name });
      }
      throw error;
    }
    return { gameId: game.id, playerId: id, name, token };
  }

  /** The game as a member sees it: status, players and who has submitted, the party's state. */
  async view(game: Game, you: { player: Player } | { host: true }) {
    const { store } = this.deps;
    // The newest event first: whatever is read after it is at least as new, so a client that applies
    // the events after this id (the stream's `?after=`) misses none (one it already has is ignored).
    const eventId = eventIdText(await store.newestEventId(game.id));
    // An open vote that is decided, out of time or stale closes first (whoever reads it first).
    const fresh = await this.votes.settle((await store.game(game.id)) ?? game);
    const players = await store.players(fresh.id);
    const submitted = new Set((await store.submissions(fresh.id, fresh.tick + 1)).map((s) => s.player_id));
    const { world, state } = await this.load(fresh, true);
    const host = "host" in you;
    return {
      id: fresh.id,
      status: fresh.status,
      tick: fresh.tick,
      seq: fresh.seq,
      world: fresh.world_hash,
      storyStart: fresh.story_start,
      eventId,
      ...(host ? { invite: fresh.invite_code, seed: fresh.seed } : {}),
      you: host ? { host: true as const } : { playerId: you.player.id, name: you.player.name },
      players: players.map((p) => ({
        id: p.id,
        name: p.name,
        status: p.status,
        submitted: submitted.has(p.id),
      })),
      state: state ? playerState(state, world) : null,
      controls: controlsOf(fresh),
      vote: openVoteView(fresh, players),
      may: mayOf(
        controlsOf(fresh),
        host ? { host: true } : { player: players.find((p) => p.id === you.player.id) ?? you.player },
        players,
      ),
    };
  }

  /** The host sets who may use the story controls (any rules left out stay as they were). */
  async setControls(gameId: string, patch: z.infer<typeof ControlsPatch>) {
    const game = await this.game(gameId);
    const controls = PartyControls.parse({ ...controlsOf(game), ...patch });
    await this.deps.store.setControls(
      game.id,
      JSON.stringify(controls),
      gameEvents.controlsChanged({ controls, by: "the host" }),
    );
    return { controls };
  }

  /**
   * A request for a story control by the host or a player, decided by the game's rules (votes.ts):
   * applied at once, put to a party vote, or refused.
   */
  ask(gameId: string, asker: Asker, ask: ControlAsk, expected?: number) {
    return this.votes.ask(gameId, asker, ask, expected);
  }

  /** A player's ballot on the game's open vote; a ballot that passes it applies the control. */
  castVote(gameId: string, player: Player, vote: string, yes: boolean) {
    return this.votes.cast(gameId, player, vote, yes);
  }

  /** Closes the open votes whose time is up or whose game moved on (the sweeper's part). */
  settleVotes(): Promise<void> {
    return this.votes.settleDue();
  }

  /**
   * Applies a story control (the host's request, an allowed player's, a passed vote's) on the game's
   * claim; `first` runs on the claim before it (a passed vote closes there).
   */
  apply(
    gameId: string,
    ask: ControlAsk,
    by: string,
    expected: number | undefined,
    first?: (game: Game) => Promise<void>,
  ): Promise<ControlResult> {
    switch (ask.control) {
      case "undo":
        return this.undo(gameId, expected, first);
      case "retry":
        return this.retry(gameId, expected, first);
      case "alter":
        return this.alter(gameId, ask.text, by, expected, first);
      case "rewind":
        return this.rewind(gameId, ask.tick, expected, first);
      case "switch":
        return this.switchBranch(gameId, ask.branch, expected, first);
      case "name":
        return this.nameBranch(gameId, ask.branch, ask.name, expected, first);
      case "delete":
        return this.deleteBranch(gameId, ask.branch, expected, first);
    }
  }

  /** Starts the game: its opening is one step (state row 0). */
  async start(gameId: string) {
    const { store, runner } = this.deps;
    const game = await this.game(gameId);
    if (game.status !== "lobby") throw new ApiError("game/state", "start-not-lobby", { status: game.status });
    const players = (await store.players(game.id)).filter((p) => p.status === "active");
    if (players.length === 0) throw new ApiError("game/no-players", "no-players");
    const opening = await runner
      .open(
        game,
        players.map((p) => JSON.parse(p.spec) as PlayerSpec),
      )
      .catch((error) => Promise.reject(asApiError(error)));
    return { status: "running" as const, tick: 0, story: opening.story };
  }

  /** Pauses, resumes or ends the game. */
  async setStatus(gameId: string, action: StatusAction) {
    const { store } = this.deps;
    const { from, to } = STATUS_CHANGES[action];
    const changed = await store.setStatus(
      gameId,
      from,
      to,
      gameEvents.status({ status: to }),
      to === "running" ? { turn_opened_at: Date.now() } : {},
    );
    if (!changed) {
      const game = await this.game(gameId);
      if (game.status === to)
        throw new ApiError("game/state", "already", { status: game.status }, { status: game.status });
      throw new ApiError(
        "game/state",
        "cannot-change",
        { status: game.status, action },
        { status: game.status },
      );
    }
    if (to === "running") this.wake(gameId, false);
    return { status: to };
  }

  /** Removes a player: their token stops working, and a turn no longer waits for them. */
  async kick(gameId: string, playerId: string) {
    const kicked = await this.deps.store.kick(
      gameId,
      playerId,
      gameEvents.playerKicked({ player: playerId }),
    );
    if (!kicked) throw new ApiError("player/not-found", "not-active", {}, { player: playerId });
    this.wake(gameId, false);
    return { kicked: playerId };
  }

  /**
   * A player's action for the next turn, stored (with its event) before it is acknowledged; the turn
   * runs once it is due. A bare "y" or "no" while a quest is on offer answers it instead, as at the
   * terminal's prompt (host/offers.ts). `game` is the game as the request's authorization read it:
   * the submission is stored only while the game is still running at that tick with no turn holding
   * it, so a newer state refuses it.
   */
  async submit(game: Game, player: Player, body: z.infer<typeof SubmitAction>) {
    const { store, actionsPerMinute } = this.deps;
    // A key already used answers its submission: looked up only when this one cannot be stored
    // (a repeat is rare; the store refuses it by its unique key), not before every submission.
    const earlier = () => store.submissionByKey(game.id, player.id, body.idempotencyKey);
    if (game.status !== "running") {
      const existing = await earlier();
      if (existing) return repeated(existing, body.text);
      throw new ApiError("game/state", "act-not-running", { status: game.status }, { status: game.status });
    }
    if (replyOf(body.text) !== null) {
      const loaded = await this.load(game, true);
      if (loaded.state) {
        const meaning = readLine(body.text, loaded.state);
        if (meaning.type === "answer") {
          const done = await this.answer(game.id, player, meaning.quest, meaning.answer, loaded);
          return { answered: { ...done, answer: meaning.answer } };
        }
        if (meaning.type !== "action") {
          const reason = replyProblem(meaning, {
            list: "The journal lists your quests.",
            answer: "answer with the Accept or Reject button of the one you mean.",
          });
          throw new ApiError("engine/refused", "engine-refused", { reason }, { reason: meaning.type });
        }
      }
    }
    // The action limit counts new submissions only: a retry of a stored key (a client that lost the
    // answer) is answered as before, never counted or refused.
    const quota = this.actions.peek(player.id, actionsPerMinute);
    if (!quota.ok) {
      const existing = await earlier();
      if (existing) return repeated(existing, body.text);
      throw new ApiError(
        "rate/limited",
        "actions",
        { max: actionsPerMinute, seconds: quota.retryAfterSeconds },
        {
          limit: actionsPerMinute,
          retryAfterSeconds: quota.retryAfterSeconds,
          per: "token",
          counts: "actions",
        },
      );
    }
    const tick = game.tick + 1;
    const row = {
      id: newId(),
      game_id: game.id,
      player_id: player.id,
      tick,
      idempotency_key: body.idempotencyKey,
      text: body.text,
      created_at: Date.now(),
    };
    const stored = await store.addSubmission(
      row,
      gameEvents.submission({ player: player.id, name: player.name, tick }),
    );
    if (stored !== "ok") {
      const existing = await earlier();
      if (existing) return repeated(existing, body.text);
      if (stored === "busy") throw new ApiError("game/busy", "turn-moved", {}, { tick });
      throw new ApiError("submission/conflict", "submitted", {}, { tick });
    }
    this.actions.add(player.id);
    this.wake(game.id, false);
    return { submission: row.id, tick, duplicate: false };
  }

  /** The host runs the turn now, with the actions submitted so far (at least one). */
  async force(gameId: string) {
    const { store } = this.deps;
    const game = await this.game(gameId);
    if (game.status !== "running")
      throw new ApiError("game/state", "turn-not-running", { status: game.status });
    const submitted = await store.submissions(game.id, game.tick + 1);
    if (submitted.length === 0) throw new ApiError("turn/no-actions", "force-empty");
    await store.forceTick(game.id, game.tick + 1);
    this.wake(game.id, true);
    return { tick: game.tick + 1, turn: "running" as const };
  }

  /**
   * A player's answer to a quest offer (or an abandon), on a claim of the game (one step at a time,
   * across processes): when another step runs, the answer waits for it (at most the runner's
   * `answerWaitMs`) and is judged on the state that step left. An answer that does not decide the
   * party's answer (quests.ts `partyDecides`) is stored with its event; the one that decides is
   * stored with the step that applies it, in one transaction. So an answer is refused with nothing
   * stored, or stored, announced and (when it decides) applied. `known`: the state the caller read
   * already, used when the claim finds the game at the same seq (the save is parsed once).
   */
  async answer(
    gameId: string,
    player: Player,
    quest: string,
    answer: QuestAnswer,
    known?: Loaded,
  ): Promise<QuestAnswerOutcome> {
    const { store, runner } = this.deps;
    try {
      const { game, owner } = await runner.claimForAnswer(gameId);
      let released = false;
      try {
        const { world, state } = known?.seq === game.seq ? known : await this.load(game, true);
        const key = questKey(Object.keys(world.quests), quest);
        const before = state?.quests[key]?.status ?? "hidden";
        // A hidden quest is answered as one the world does not have: players must not learn it exists.
        if (before === "hidden") throw new ApiError("engine/refused", "unknown-quest", { quest }, { quest });
        const from = answer === "abandon" ? "accepted" : "available";
        if (before !== from)
          throw new ApiError(
            "engine/refused",
            from === "available" ? "quest-not-offered" : "quest-not-accepted",
            { quest: key, status: before },
            { quest: key, status: before },
          );
        const row = {
          game_id: game.id,
          quest: key,
          player_id: player.id,
          answer,
          tick: game.tick,
          created_at: Date.now(),
        };
        const announced = gameEvents.questAnswer({
          player: player.id,
          name: player.name,
          quest: key,
          answer,
        });
        const active = (await store.players(game.id)).filter((p) => p.status === "active");
        const latest = new Map((await store.questAnswers(game.id, key)).map((a) => [a.player_id, a.answer]));
        latest.set(player.id, answer);
        if (
          !partyDecides(
            answer,
            latest,
            active.map((p) => p.id),
          )
        ) {
          await store.setQuestAnswer(row, announced);
          released = true;
          // The answer is stored: a claim not released expires (the sweeper takes the game over then).
          await runner.releaseClaim(game.id, owner).catch(() => {});
          const waitingFor = active.filter((p) => latest.get(p.id) !== answer).map((p) => p.name);
          return { quest: key, answer, status: before, waitingFor };
        }
        // The step releases the claim, committed or not.
        released = true;
        const done = await runner.answer(game, owner, player.name, key, answer, row, announced);
        return { quest: key, answer, status: done.status, waitingFor: [] };
      } finally {
        if (!released) await runner.releaseClaim(game.id, owner).catch(() => {});
      }
    } finally {
      // A turn that became due while the answer held the game runs now.
      this.wake(gameId, false);
    }
  }

  // Story controls (issue 33; docs/server.md "Story controls"). Each runs on the game's claim, so of two
  // at once (two clients, two processes) one applies and the other is refused with game/busy; `expected`
  // (the head the caller saw) refuses one that comes after another already moved the game.

  /**
   * Takes back the last turn of the current branch (and the quest answers after it): the game goes to
   * the step before it. The undone step stays in the tree (a branch switch brings it back). Its actions
   * return to the players' input boxes: the `head-moved` event carries them, and every submission for a
   * later turn is dropped (so nothing runs by itself).
   */
  async undo(gameId: string, expected?: number, first?: (game: Game) => Promise<void>) {
    return this.control(gameId, expected, first, async (game, owner, world) => {
      const path = await this.pathSteps(game.id);
      const turnAt = path.findLastIndex((s) => s.kind === "turn");
      if (turnAt <= 0) throw new ApiError("game/state", "undo-none");
      const undone = path[turnAt]!;
      const to = path[turnAt - 1]!;
      const stored = await this.deps.store.turn(game.id, undone.seq);
      const actions =
        (JSON.parse(stored?.inputs ?? "{}") as { actions?: { player: string; text: string }[] }).actions ??
        [];
      await this.moveHead(game, owner, world, to, "undo", actions);
      return { control: "undo" as const, seq: to.seq, tick: to.tick, undone: undone.seq, actions };
    });
  }

  /** Goes back to turn `tick` of the current branch: play goes on from there as a new branch; the old one stays. */
  async rewind(gameId: string, tick: number, expected?: number, first?: (game: Game) => Promise<void>) {
    return this.control(gameId, expected, first, async (game, owner, world) => {
      const path = await this.pathSteps(game.id);
      const head = path.at(-1)!;
      // The last step of that turn: after the quest answers given in it.
      const to = path.findLast((s) => s.tick === tick);
      if (!to)
        throw new ApiError(
          "game/state",
          "rewind-none",
          { tick, first: path[0]!.tick, last: head.tick },
          { tick },
        );
      if (to.seq === head.seq) throw new ApiError("game/state", "rewind-here", { tick }, { tick });
      await this.moveHead(game, owner, world, to, "rewind", []);
      return { control: "rewind" as const, seq: to.seq, tick: to.tick, from: head.seq };
    });
  }

  /** Goes to the branch that ends at step `seq` (any stored step: GET /games/:id/history/branches lists the branches' tips). */
  async switchBranch(gameId: string, seq: number, expected?: number, first?: (game: Game) => Promise<void>) {
    return this.control(gameId, expected, first, async (game, owner, world) => {
      const to = await this.deps.store.stepState(game.id, seq);
      if (!to) throw new ApiError("game/state", "no-step", { seq }, { seq });
      if (Number(game.head) === seq) throw new ApiError("game/state", "switch-here", { seq }, { seq });
      await this.moveHead(game, owner, world, to, "switch", []);
      return { control: "switch" as const, seq, tick: Number(to.tick), from: Number(game.head) };
    });
  }

  /**
   * Runs the last turn again from the step before it, with the same actions and a new draw of the
   * narrator; the first draw stays as a sibling branch. Triggers run again: the answer says what fired
   * differently.
   */
  async retry(gameId: string, expected?: number, first?: (game: Game) => Promise<void>) {
    return this.control(gameId, expected, first, async (game, owner) => {
      const head = await this.deps.store.turn(game.id, Number(game.head));
      if (!head) throw new ApiError("game/state", "not-started");
      if (head.kind !== "turn")
        throw new ApiError("game/state", "retry-none", { what: stepWords(head.kind) });
      const parent = head.parent === null ? null : Number(head.parent);
      // The next draw of these actions there: one past every draw of them on the server's tree (a save's
      // own history knows only the draws on its way, not a sibling left by a switch).
      const actions = JSON.stringify((JSON.parse(head.inputs) as { actions?: unknown }).actions ?? []);
      let draw = 0;
      for (const step of await this.deps.store.children(game.id, parent)) {
        if (step.kind !== "turn") continue;
        const inputs = JSON.parse(step.inputs) as { actions?: unknown; draw?: number };
        if (JSON.stringify(inputs.actions ?? []) === actions) draw = Math.max(draw, inputs.draw ?? 0);
      }
      return this.deps.runner.retry(game, owner, { seq: Number(head.seq), parent }, draw + 1);
    });
  }

  /**
   * Replaces the text of the last narration (the head's: a turn or the opening). The altered text is what
   * later conditions and the narrator's history see; the original step stays as a sibling, and the
   * host's log says who altered it.
   */
  async alter(
    gameId: string,
    text: string,
    by: string,
    expected?: number,
    first?: (game: Game) => Promise<void>,
  ) {
    return this.control(gameId, expected, first, async (game, owner) => {
      const head = await this.deps.store.turn(game.id, Number(game.head));
      if (!head) throw new ApiError("game/state", "not-started");
      if (head.kind !== "turn" && head.kind !== "opening")
        throw new ApiError("game/state", "alter-none", { what: stepWords(head.kind) });
      if (text.trim() === "") throw new ApiError("game/state", "alter-empty");
      return this.deps.runner.alter(
        game,
        owner,
        { ...head, seq: Number(head.seq), parent: head.parent === null ? null : Number(head.parent) },
        text,
        by,
      );
    });
  }

  /**
   * The game's branches: every step no other step was played from (a tip), and the step the game is at.
   * Each with where it splits from the current branch, its turns and a title (its first words after the split).
   */
  async branches(gameId: string) {
    const game = await this.game(gameId);
    const steps = await this.deps.store.tree(game.id);
    const bySeq = new Map(steps.map((s) => [s.seq, s]));
    const lineOf = (seq: number) => {
      const line: number[] = [];
      for (let at = bySeq.get(seq); at; at = at.parent === null ? undefined : bySeq.get(at.parent))
        line.unshift(at.seq);
      return line;
    };
    const head = game.head == null ? null : Number(game.head);
    const current = new Set(head === null ? [] : lineOf(head));
    const parents = new Set(steps.flatMap((s) => (s.parent === null ? [] : [s.parent])));
    const tips = steps.map((s) => s.seq).filter((seq) => !parents.has(seq) || seq === head);
    const listed = tips.slice(-MAX_BRANCHES).map((tip) => {
      const line = lineOf(tip);
      const split = line.findLastIndex((seq) => current.has(seq));
      // The title: the first words after the split (the tip's own, for the current branch).
      return { tip, line, split, titled: line[Math.min(line.length - 1, split + 1)]! };
    });
    // Only the rows a title or a time is read from: a step's row holds its save (tens of KB).
    const rows = new Map(
      (await this.deps.store.narrations(game.id, [...new Set(listed.flatMap((b) => [b.tip, b.titled]))])).map(
        (r) => [Number(r.seq), r],
      ),
    );
    const names = await this.deps.store.branchNames(game.id);
    const branches = listed.map(({ tip, line, split, titled }) => {
      const words = (rows.get(titled)?.narration || rows.get(tip)?.narration || "")
        .replace(/\s+/g, " ")
        .trim();
      return {
        tip,
        tick: bySeq.get(tip)!.tick,
        steps: line.length,
        turns: line.filter((seq) => bySeq.get(seq)?.kind === "turn").length,
        splitAt: split >= 0 ? line[split]! : null,
        splitTick: split >= 0 ? bySeq.get(line[split]!)!.tick : null,
        current: tip === head,
        title: words.length > TITLE_LENGTH ? `${words.slice(0, TITLE_LENGTH - 1)}…` : words,
        name: names.get(tip) ?? null,
        at: Number(rows.get(tip)?.created_at ?? 0),
      };
    });
    const partings = await this.partings(
      game.id,
      branches,
      listed.map((b) => b.line.slice(b.split + 1)),
    );
    return {
      head,
      branches: branches.map((b, i) => ({ ...b, parting: partings[i]! })),
      ...(tips.length > listed.length ? { more: tips.length - listed.length } : {}),
    };
  }

  /**
   * Where branches that a list shows alike (the same name or title, turns and split) part
   * (host/branch-parting.ts), from their own steps (`own`, by seq: those after the split). The
   * steps' inputs and narrations are read only when some branches list alike.
   */
  private async partings(
    gameId: string,
    branches: readonly {
      name: string | null;
      title: string;
      turns: number;
      tick: number;
      splitTick: number | null;
      current: boolean;
    }[],
    own: readonly number[][],
  ) {
    const keys = branches.map((b) =>
      JSON.stringify([b.name, b.title, b.turns, b.tick, b.current ? "current" : b.splitTick]),
    );
    if (new Set(keys).size === keys.length) return branches.map(() => null);
    const steps = new Map<number, PartingStep>();
    for (const row of await this.deps.store.steps(gameId)) {
      const inputs = readInputs(row.inputs) as {
        actions?: { text?: unknown }[];
        quest?: unknown;
        answer?: unknown;
        draw?: unknown;
      };
      const action = Array.isArray(inputs.actions)
        ? inputs.actions.map((a) => String(a?.text ?? "")).join(" / ")
        : typeof inputs.quest === "string" && typeof inputs.answer === "string"
          ? `${inputs.answer} ${inputs.quest}`
          : null;
      steps.set(Number(row.seq), {
        tick: Number(row.tick),
        action,
        draw: typeof inputs.draw === "number" ? inputs.draw : 0,
        story: row.narration || null,
      });
    }
    return partBranches(
      keys.map((key, i) => ({
        key,
        steps: own[i]!.flatMap((seq) => {
          const step = steps.get(seq);
          return step ? [step] : [];
        }),
      })),
    );
  }

  /**
   * Names the branch that ends at step `tip` (a tip of the branch list); an empty name takes its name
   * away. The name is cleaned as the terminal's (host/history.ts cleanBranchName) and unique in the
   * game (case-insensitive). It stays with the branch as play goes on from its tip.
   */
  async nameBranch(
    gameId: string,
    tip: number,
    name: string,
    expected?: number,
    first?: (game: Game) => Promise<void>,
  ) {
    return this.control(gameId, expected, first, async (game, owner) => {
      const cleaned = cleanBranchName(name);
      if ("problem" in cleaned)
        throw new ApiError("branch/name-invalid", cleaned.problem, { max: MAX_NAME }, { max: MAX_NAME });
      const { tips } = treeOf(await this.deps.store.tree(game.id), Number(game.head));
      if (!tips.has(tip)) throw new ApiError("game/state", "no-branch", { seq: tip }, { seq: tip });
      const key = cleaned.name.toLowerCase();
      if (key !== "")
        for (const [seq, other] of await this.deps.store.branchNames(game.id))
          if (seq !== tip && tips.has(seq) && other.toLowerCase() === key)
            throw new ApiError("branch/name-taken", "taken", { tip: seq, name: other }, { tip: seq });
      const kept = cleaned.name === "" ? null : cleaned.name;
      const named = await this.deps.store.nameBranch(
        game.id,
        owner,
        tip,
        kept === null ? null : { name: kept, key },
        gameEvents.branchNamed({ tip, name: kept }),
      );
      await this.deps.runner.releaseClaim(game.id, owner).catch(() => {});
      if (!named) throw new ApiError("game/busy", "taken-over", {}, { game: game.id });
      return { tip, name: kept };
    });
  }

  /**
   * Deletes the branch that ends at step `tip`: its own steps, up to the last one it shares with
   * another branch or the current one, in one transaction. The current branch is refused, and so is a
   * step another branch's replay needs (the first draw of a retry, the original of an alteration).
   */
  async deleteBranch(gameId: string, tip: number, expected?: number, first?: (game: Game) => Promise<void>) {
    return this.control(gameId, expected, first, async (game, owner) => {
      const head = Number(game.head);
      if (tip === head) throw new ApiError("game/state", "delete-current", { seq: tip }, { seq: tip });
      const steps = await this.deps.store.steps(game.id);
      const tree = treeOf(
        steps.map((s) => ({ seq: Number(s.seq), parent: s.parent === null ? null : Number(s.parent) })),
        head,
      );
      if (!tree.tips.has(tip)) throw new ApiError("game/state", "no-branch", { seq: tip }, { seq: tip });
      // The steps a retry or an alteration replaced, by the step that replaced them (a replay plays both).
      const replacedBy = new Map<number, number[]>();
      for (const step of steps) {
        const inputs = JSON.parse(step.inputs) as { retryOf?: number; altered?: { from: number } };
        const from = inputs.altered?.from ?? inputs.retryOf;
        if (from !== undefined) replacedBy.set(from, [...(replacedBy.get(from) ?? []), Number(step.seq)]);
      }
      const doomed: number[] = [];
      const below = new Set<number>();
      for (let at: number | null = tip; at !== null; ) {
        const parent: number | null = tree.parentOf.get(at) ?? null;
        // Shared: on the current branch, another branch goes on from it, a kept step replays it, or it is a root.
        if (tree.current.has(at) || parent === null) break;
        if ((tree.children.get(at) ?? []).some((c) => !below.has(c))) break;
        if ((replacedBy.get(at) ?? []).some((r) => !below.has(r))) break;
        doomed.push(at);
        below.add(at);
        at = parent;
      }
      if (doomed.length === 0) throw new ApiError("game/state", "delete-kept", { seq: tip }, { seq: tip });
      const deleted = await this.deps.store.deleteSteps(
        game.id,
        owner,
        doomed,
        gameEvents.branchDeleted({ tip, steps: doomed.toSorted((a, b) => a - b) }),
      );
      await this.deps.runner.releaseClaim(game.id, owner).catch(() => {});
      if (!deleted) throw new ApiError("game/busy", "taken-over", {}, { game: game.id });
      return { tip, steps: doomed.toSorted((a, b) => a - b) };
    });
  }

  /**
   * What differs in the world between two stored steps (any branches): host Game's world diff; a
   * player (`scope` "party") is shown only what the party sees (`diffForParty`).
   */
  async diff(gameId: string, a: number, b: number, scope: "host" | "party" = "host") {
    const game = await this.game(gameId);
    const world = await this.deps.worlds.get(game.world_hash);
    const stateAt = async (seq: number) => {
      const row = await this.deps.store.stepState(game.id, seq);
      if (!row) throw new ApiError("game/state", "no-step", { seq }, { seq });
      return readSave(world, row.state).state;
    };
    const whole = diffWorld(await stateAt(a), await stateAt(b));
    const diff = scope === "host" ? whole : diffForParty(whole);
    return { a, b, from: diff.from, to: diff.to, scope, changes: diff.changes };
  }

  /**
   * A story control on the game's claim. The move or the step ends the claim when it commits; on any
   * refusal or failure it is ended here too (a release by another owner's name changes nothing).
   */
  private async control<T>(
    gameId: string,
    expected: number | undefined,
    first: ((game: Game) => Promise<void>) | undefined,
    run: (game: Game, owner: string, world: World) => Promise<T>,
  ): Promise<T> {
    const { game, owner } = await this.deps.runner.claimForControl(gameId, expected);
    try {
      await first?.(game);
      return await run(game, owner, await this.deps.worlds.get(game.world_hash));
    } catch (error) {
      await this.deps.runner.releaseClaim(game.id, owner).catch(() => {});
      throw isVoteSettled(error) ? error : asApiError(error);
    } finally {
      // Submissions kept (a retry, an alter) may make the next turn due.
      this.wake(gameId, false);
    }
  }

  /** The steps of the game's current branch, oldest first (seq, parent, kind, tick). */
  private pathSteps(gameId: string) {
    return this.deps.store.pathSteps(gameId);
  }

  /** The game goes to the stored step `to`, with the `head-moved` event. */
  private async moveHead(
    game: Game,
    owner: string,
    world: World,
    to: { seq: number; tick: number },
    control: "undo" | "rewind" | "switch",
    actions: { player: string; text: string }[],
  ) {
    // The state alone: a step's row is mostly its trace and cassette (hundreds of KB on a large world).
    const row = await this.deps.store.stepState(game.id, to.seq);
    if (!row) throw new ApiError("game/state", "no-step", { seq: to.seq }, { seq: to.seq });
    const state = readSave(world, row.state).state;
    await this.deps.runner.moveHead(game, owner, { seq: to.seq, tick: Number(row.tick) }, [
      gameEvents.headMoved({
        control,
        seq: to.seq,
        from: Number(game.head),
        tick: Number(row.tick),
        actions,
        state: playerState(state, world),
      }),
    ]);
  }

  /** The game's row, for a caller already known to belong to it. */
  private async game(gameId: string): Promise<Game> {
    const game = await this.deps.store.game(gameId);
    if (!game) throw new ApiError("game/state", "ended");
    return game;
  }

  /** The game's world and, when `withState`, its last committed state, parsed once. */
  private async load(game: Game, withState: boolean): Promise<Loaded> {
    const world = await this.deps.worlds.get(game.world_hash);
    if (!withState) return { world, seq: game.seq, state: null };
    const last = await this.deps.store.lastTurn(game.id);
    return {
      world,
      seq: game.seq,
      state: last ? readSave(world, last.state).state : null,
    };
  }

  /** Runs the turn if it is due, after the answer: its result arrives as events. */
  private wake(gameId: string, force: boolean): void {
    void this.deps.runner.maybeTurn(gameId, force).catch((error) => {
      const failure = asApiError(error);
      if (failure.code === "server/internal")
        this.deps.log.error({ game: gameId, err: error }, "turn failed");
    });
  }
}

/** The most branches GET /games/:id/history/branches lists (the newest; `more` counts the others). */
/** A step's stored inputs as an object: an unreadable row is read as having none (a list never fails on it). */
function readInputs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export const MAX_BRANCHES = 200;
/** The longest branch title (its first words after the split). */
const TITLE_LENGTH = 80;

/**
 * A tree of steps read once: each step's parent and children, the current branch (the head's path)
 * and the tips (the steps nothing was played from, and the head), as the branch list names branches.
 */
function treeOf(steps: { seq: number; parent: number | null }[], head: number) {
  const parentOf = new Map(steps.map((s) => [s.seq, s.parent]));
  const children = new Map<number, number[]>();
  for (const s of steps)
    if (s.parent !== null) children.set(s.parent, [...(children.get(s.parent) ?? []), s.seq]);
  const current = new Set<number>();
  for (let at: number | null | undefined = head; at != null; at = parentOf.get(at)) current.add(at);
  const tips = new Set(steps.filter((s) => !children.has(s.seq) || s.seq === head).map((s) => s.seq));
  return { parentOf, children, current, tips };
}

/** A step's kind in words, for an error message. */
function stepWords(kind: string): string {
  return kind === "answer" ? "a quest answer" : kind === "import" ? "an imported save" : `the ${kind}`;
}

function repeated(existing: { id: string; tick: number; text: string }, text: string) {
  if (existing.text !== text) throw new ApiError("submission/key-reused", "key-reused");
  return { submission: existing.id, tick: existing.tick, duplicate: true };
}

/**
 * A join as the character of a seat the host freed: the joiner takes the seat (the same player, with
 * its history) with a new token. Undefined when no seat of that name is open.
 */
async function takeOpenSeat(
  store: Store,
  game: string,
  name: string,
): Promise<{ gameId: string; playerId: string; name: string; token: string } | undefined> {
  const token = newToken("player");
  const seat = await store.moveSeat(
    game,
    { name },
    "open",
    { status: "active", tokenHash: hashToken(token) },
    (p) => gameEvents.playerJoined({ player: p.id, name: p.name }),
  );
  return seat ? { gameId: game, playerId: seat.id, name: seat.name, token } : undefined;
}
