import { z } from "zod";
import type { PlayerSpec, TurnHooks, TurnResult } from "../engine/index.ts";
import { createSession, type QuestAnswerResult, restoreSession, type Session } from "../engine/index.ts";
import type { AiPorts, ScriptRunner } from "../engine/ports.ts";
import type { World } from "../world/schema/index.ts";
import { cleanPorts, cleanText, cleanWorld } from "./outside-text.ts";

/**
 * One game as the player sees it: a session plus what a host adds around it
 * (undo, loading a save, and a tape of the player's inputs for cassettes).
 * Every input goes through `apply`, so a recorded game and its replay take
 * exactly the same steps.
 */
export const GameInput = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("turn"),
    actions: z.array(z.object({ player: z.string(), text: z.string() })).min(1),
  }),
  z.object({
    type: z.literal("answer"),
    quest: z.string(),
    answer: z.enum(["accept", "reject", "abandon"]),
    // The player whose answer decided a party's answer (the server's games), named in the log.
    by: z.string().max(200).optional(),
  }),
  z.object({ type: z.literal("undo") }),
  z.object({ type: z.literal("load"), save: z.string() }),
]);
export type GameInput = z.infer<typeof GameInput>;

/** What starts a game; a cassette keeps it in its header so that a replay starts the same game. */
export interface GameSetup {
  seed: number;
  storyStart?: string;
  players?: PlayerSpec[];
  gameMode: string | null;
  /** A save to resume instead of starting anew. */
  load?: string;
}

/** How many turns /undo can go back. */
export const UNDO_DEPTH = 50;

export type Outcome =
  | { type: "turn"; result: TurnResult }
  | { type: "answer"; result: QuestAnswerResult }
  | { type: "undo"; undone: boolean }
  | { type: "load" };

export class Game {
  private undoStack: string[] = [];
  /** The last turn played (for /trace); null after the opening, an undo or a load. */
  last: TurnResult | null;

  private constructor(
    private readonly world: World,
    private readonly ports: { ai: AiPorts; scripts: ScriptRunner | undefined },
    public session: Session,
    private readonly tape: { input(value: unknown): void } | undefined,
  ) {
    this.last = null;
  }

  /** Starts (or resumes, with `setup.load`) a game. The world must have passed validateWorld. */
  static async start(
    world: World,
    ports: { ai: AiPorts; scripts: ScriptRunner | undefined },
    setup: GameSetup,
    tape?: { input(value: unknown): void },
    hooks: TurnHooks = {},
  ): Promise<Game> {
    // What the narrator answers (the model's text, the world's text it tells) is cleaned as it enters,
    // and so is the world's own text (names, descriptions) for what is shown of it beside the story.
    ports = { ...ports, ai: cleanPorts(ports.ai) };
    world = cleanWorld(world);
    const session =
      setup.load !== undefined
        ? await restoreSession(world, setup.load, { ...ports, validate: false })
        : await createSession(
            world,
            {
              ...ports,
              validate: false,
              seed: setup.seed,
              ...(setup.storyStart !== undefined ? { storyStart: setup.storyStart } : {}),
              ...(setup.players !== undefined ? { players: setup.players } : {}),
            },
            hooks,
          );
    return new Game(world, ports, session, tape);
  }

  get players(): string[] {
    return this.session.state.party.filter((c) => c.kind === "player").map((c) => c.name);
  }

  /** Applies one input; the session is unchanged when it throws (an engine or AI error). */
  async apply(input: GameInput, hooks: TurnHooks = {}): Promise<Outcome> {
    this.tape?.input(input);
    switch (input.type) {
      case "turn": {
        const before = this.session.save();
        // A player's text is outside text too: no control character reaches the story or a prompt.
        const actions = input.actions.map((a) => ({ player: a.player, text: cleanText(a.text) }));
        const result = await this.session.turn({ actions }, hooks);
        this.undoStack.push(before);
        if (this.undoStack.length > UNDO_DEPTH) this.undoStack.shift();
        this.last = result;
        return { type: "turn", result };
      }
      case "answer": {
        const before = this.session.save();
        const result =
          input.answer === "accept"
            ? this.session.acceptQuest(input.quest, input.by)
            : input.answer === "reject"
              ? this.session.rejectQuest(input.quest, input.by)
              : this.session.abandonQuest(input.quest, input.by);
        this.undoStack.push(before);
        return { type: "answer", result };
      }
      case "undo": {
        const previous = this.undoStack.pop();
        if (previous === undefined) return { type: "undo", undone: false };
        this.session = await restoreSession(this.world, previous, { ...this.ports, validate: false });
        this.last = null;
        return { type: "undo", undone: true };
      }
      case "load": {
        this.session = await restoreSession(this.world, input.save, { ...this.ports, validate: false });
        this.undoStack = [];
        this.last = null;
        return { type: "load" };
      }
    }
  }

  save(): string {
    return this.session.save();
  }
}
