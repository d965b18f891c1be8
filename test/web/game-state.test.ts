import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { GameEvent, GameView, PartyState } from "../../web/src/api.ts";
import { applyEvent, EMPTY, type GameModel, markSubmitted } from "../../web/src/game-state.ts";

/** The play page's model of a game, kept by the typed events (web/src/game-state.ts). */
const STATE = {
  tick: 0,
  position: { realm: "r", region: "g", location: "l", area: "a" },
  party: [],
  quests: [],
  nextStep: null,
} as unknown as PartyState;

function lobby(): GameModel {
  const game: GameView = {
    id: "g",
    status: "lobby",
    tick: 0,
    seq: 0,
    world: "w",
    storyStart: null,
    eventId: "2",
    you: { playerId: "p1", name: "Ann" },
    players: [{ id: "p1", name: "Ann", status: "active", submitted: false }],
    state: null,
  };
  return { ...EMPTY, game };
}

function turn(seq: number, tick: number, story: string): GameEvent {
  return {
    kind: "turn",
    data: {
      seq,
      tick,
      story,
      intent: null,
      fired: [],
      prompts: [],
      changes: [],
      tip: null,
      next: null,
      actions: tick === 0 ? [] : [{ player: "Ann", text: "look" }],
      state: { ...STATE, tick } as never,
      notes: tick === 2 ? [{ tick, event: "The Storm", status: "active" }] : [],
    },
  };
}

function apply(model: GameModel, ...events: GameEvent[]): GameModel {
  for (const event of events) {
    const next = applyEvent(model, event);
    assert.notEqual(next, "resync", `${event.kind} applies`);
    model = next as GameModel;
  }
  return model;
}

describe("web: the game model follows the events without reading the game again", () => {
  it("applies joins, the opening, submissions and turns, with their state and notes", () => {
    let model = apply(
      lobby(),
      { kind: "player-joined", data: { player: "p2", name: "Bo" } },
      { kind: "narration", data: { tick: 0, text: "First ", at: 0 } },
      { kind: "narration", data: { tick: 0, text: "light.", at: 6 } },
    );
    assert.deepEqual(model.live, { tick: 0, text: "First light." });
    // A reconnection replays the text so far from its first character: shown once, not twice.
    model = apply(model, { kind: "narration", data: { tick: 0, text: "First light.", at: 0 } });
    assert.deepEqual(model.live, { tick: 0, text: "First light." });
    model = apply(model, { kind: "game-started", data: { tick: 0 } }, turn(0, 0, "First light."));
    assert.equal(model.game?.status, "running");
    assert.equal(model.live, null, "the step replaces the narration being written");
    assert.deepEqual(
      model.steps.map((s) => [s.seq, s.kind, s.narration]),
      [[0, "opening", "First light."]],
    );
    model = apply(model, { kind: "submission", data: { player: "p2", name: "Bo", tick: 1 } });
    assert.deepEqual(
      model.game?.players.map((p) => [p.name, p.submitted]),
      [
        ["Ann", false],
        ["Bo", true],
      ],
    );
    model = apply(model, turn(1, 1, "You look."), turn(2, 2, "A storm."));
    assert.equal(model.game?.tick, 2);
    assert.equal(model.game?.seq, 3);
    assert.equal(model.game?.state?.tick, 2);
    assert.deepEqual(model.notes, [{ tick: 2, event: "The Storm", status: "active" }]);
    assert.ok(
      model.game?.players.every((p) => !p.submitted),
      "a new turn: nobody has acted",
    );
    // The answer to the action that completed turn 2 may come after turn 2's event: it marks nobody.
    model = apply(model, { kind: "submission", data: { player: "p1", name: "", tick: 2 } });
    assert.ok(
      model.game?.players.every((p) => !p.submitted),
      "a late acknowledgement of the last turn's action",
    );
  });

  it("ignores a step it has (a stream resumed before its view) and resyncs on one it missed", () => {
    const model = apply(lobby(), turn(0, 0, "First light."), turn(1, 1, "You look."));
    assert.equal(applyEvent(model, turn(1, 1, "You look.")), model, "a step shown once");
    assert.equal(applyEvent(model, turn(3, 3, "Later.")), "resync", "seq 2 was missed");
    assert.equal(applyEvent({ ...EMPTY }, turn(0, 0, "x")), "resync", "no game read yet");
  });

  it("a step that ran between reading the game and its transcript is shown once; the game catches up", () => {
    // The page read the game at seq 1, then the transcript after turn 1 ran: the stream replays turn 1.
    const read = apply(lobby(), turn(0, 0, "First light."));
    const transcript = apply(read, turn(1, 1, "You look."), turn(2, 2, "A storm."));
    const model = apply(
      { ...read, steps: transcript.steps, notes: transcript.notes },
      turn(1, 1, "You look."),
    );
    assert.deepEqual(
      model.steps.map((s) => s.seq),
      [0, 1, 2],
    );
    assert.equal(model.game?.seq, 2);
    assert.equal(model.game?.tick, 1);
    const caught = apply(model, turn(2, 2, "A storm."));
    assert.deepEqual(
      caught.steps.map((s) => s.seq),
      [0, 1, 2],
    );
    assert.deepEqual(caught.notes, [{ tick: 2, event: "The Storm", status: "active" }], "notes once");
    assert.equal(caught.game?.seq, 3);
    assert.equal(caught.game?.state?.tick, 2);
  });

  it("a failed turn shows its notice until the turn runs; a late narration piece is not shown", () => {
    let model = apply(
      lobby(),
      turn(0, 0, "First light."),
      { kind: "narration", data: { tick: 1, text: "You lo", at: 0 } },
      { kind: "turn-failed", data: { tick: 1, reason: "r", message: "m", retryAt: null, attempt: 1 } },
    );
    assert.equal(model.failure?.tick, 1);
    assert.equal(model.live, null);
    model = apply(model, turn(1, 1, "You look."), {
      kind: "narration",
      data: { tick: 1, text: "late", at: 6 },
    });
    assert.equal(model.failure, null);
    assert.equal(model.live, null);
  });

  it("an acknowledgement that comes after its turn ran marks nobody as having acted in the next", () => {
    const model = apply(lobby(), turn(0, 0, "First light."));
    const ann = model.game!.players[0]!.id;
    const acted = markSubmitted(model, ann, 1);
    assert.equal(acted.game?.players[0]?.submitted, true, "acknowledged before the turn ran");
    // The turn ran (its event came first), then the answer to the action that completed it arrived.
    const ran = apply(acted, turn(1, 1, "You look."));
    assert.equal(markSubmitted(ran, ann, 1), ran);
    assert.equal(ran.game?.players[0]?.submitted, false);
  });

  it("ends the narration being written when its step arrives after the page read it (a retried turn)", () => {
    let model = apply(lobby(), turn(0, 0, "First light."), turn(1, 1, "You look."));
    // The page read the game again (a story control) and holds step 1 already; a telling is still shown.
    model = { ...model, live: { tick: 1, text: "You look" } };
    const after = apply(model, turn(1, 1, "You look."));
    assert.equal(after.live, null);
    assert.equal(after.steps.length, 2, "the step is not shown twice");
    // A telling of a later turn stays.
    const later = { ...model, live: { tick: 2, text: "You" } };
    assert.deepEqual(apply(later, turn(1, 1, "You look.")).live, { tick: 2, text: "You" });
  });

  it("keeps the party's vote by its events: opened, each ballot's tally, closed with its outcome once", () => {
    const tally = (yes: number, no: number) => ({ yes, no, need: 2, voters: 3 });
    const vote = {
      id: "v1",
      control: "retry" as const,
      argument: {},
      by: "Ann",
      player: "p1",
      seq: 1,
      openedAt: 1000,
      closesAt: 61_000,
      ballots: { p1: true },
      tally: tally(1, 0),
      outcome: "open" as const,
    };
    let model = apply(lobby(), turn(0, 0, "First light."), turn(1, 1, "You look."));
    model = apply(model, { kind: "vote-opened", data: { vote, by: "Ann" } });
    assert.equal(model.game?.vote?.id, "v1");
    model = apply(model, {
      kind: "vote-cast",
      data: { id: "v1", by: "Bo", player: "p2", ballot: "no", tally: tally(1, 1) },
    });
    assert.deepEqual(model.game?.vote?.ballots, { p1: true, p2: false });
    assert.deepEqual(model.game?.vote?.tally, tally(1, 1));
    // A ballot of a vote the page does not hold: it reads the game again.
    assert.equal(
      applyEvent(model, {
        kind: "vote-cast",
        data: { id: "v0", by: "Bo", player: "p2", ballot: "yes", tally: tally(2, 0) },
      }),
      "resync",
    );
    const closed = {
      kind: "vote-closed",
      data: { id: "v1", control: "retry", outcome: "failed", by: "Ann", tally: tally(1, 2) },
    } as const;
    model = apply(model, closed);
    assert.equal(model.game?.vote, null);
    assert.deepEqual(model.voteClosed, { id: "v1", control: "retry", outcome: "failed", by: "Ann" });
    assert.equal(apply(model, closed), model, "a close seen twice (a resumed stream) changes nothing");
    // The next vote's opening ends the line of the last one's outcome.
    const next = apply(model, { kind: "vote-opened", data: { vote: { ...vote, id: "v2" }, by: "Ann" } });
    assert.equal(next.voteClosed, null);
    assert.equal(
      applyEvent(next, { kind: "controls-changed", data: { controls: {} as never, by: "the host" } }),
      "resync",
    );
  });
});
