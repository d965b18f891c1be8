import { fileURLToPath } from "node:url";
import {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type CassetteData,
  type CassetteEntry,
} from "../../src/ai/cassette.ts";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import { recordProvider } from "../../src/ai/recorded.ts";
import { worldHash } from "../../src/engine/index.ts";
import type { ScriptRunner } from "../../src/engine/ports.ts";
import { Game, type GameInput, type GameSetup } from "../../src/host/game.ts";
import { readCheckedWorld } from "../../src/world/checked-file.ts";
import type { World } from "../../src/world/schema/index.ts";
import { runnableWorld } from "../../src/world/validate.ts";

export const EXAMPLE_WORLD = fileURLToPath(new URL("../../examples/harbor.world.json", import.meta.url));

/** A world file as play and the play-tests run it. */
export async function worldAt(path: string): Promise<World> {
  const read = await readCheckedWorld(path);
  if (!read.ok) throw new Error(`cannot read ${path}`);
  const world = runnableWorld(read.loaded, read.checked);
  if (!world) throw new Error(`${path} cannot run`);
  return world;
}

/**
 * Thirty turns of the example world, played as a player would: the main quest's walkthrough with the
 * quest accepted, a side trip, an undo, and the epilogue. Quest answers are inputs of their own.
 */
export const THIRTY_TURNS: GameInput[] = [
  "walk to the Gutted Eel",
  { answer: "accept", quest: "The Keeper's Debt" },
  "talk to Mara Venn",
  "look around the tavern",
  "travel to the Old Lighthouse",
  "climb the stairwell",
  "go up to the Lamp Room",
  "read the keeper's logbook",
  "look out of the window",
  { undo: true },
  "travel to the Counting House",
  "confront Corvin Slade about the keeper's debt",
  "travel to the Old Lighthouse",
  "climb the stairwell",
  "go up to the Lamp Room",
  "light the lighthouse lamp",
  "wait for dawn",
  "wait for dawn",
  "travel to Brinewick Docks",
  "walk to the Gutted Eel",
  "talk to Mara Venn",
  "rest by the hearth",
  "travel to the Old Lighthouse",
  "search the rocks",
  "travel to the Barrow",
  "look around",
  "travel to Brinewick Docks",
  "walk to the Gutted Eel",
  "sleep",
  "wait",
  "travel to the Counting House",
  "talk to Corvin Slade",
  "wait",
].map((x): GameInput => {
  if (typeof x === "string") return { type: "turn", actions: [{ player: "Isobel Carrow", text: x }] };
  if ("undo" in x) return { type: "undo" };
  return { type: "answer", quest: x.quest, answer: x.answer as "accept" };
});

/** Plays `inputs` with the offline provider, recording a cassette as `taleforge play --record` does. */
export async function recordGame(
  world: World,
  inputs: readonly GameInput[],
  scripts: ScriptRunner | undefined,
  setup: GameSetup = {
    seed: 7,
    gameMode: null,
    storyStart: "Dawn at the Docks",
    players: [{ premade: "Isobel Carrow" }],
  },
): Promise<{ cassette: CassetteData; game: Game }> {
  const entries: CassetteEntry[] = [];
  const inner = createOfflineProvider(world);
  const provider = recordProvider(inner, { write: (e) => entries.push(e) });
  const header = {
    format: CASSETTE_FORMAT,
    version: CASSETTE_VERSION,
    provider: provider.name,
    model: provider.model,
    embeddings: false,
    setup: { worldHash: worldHash(world), ...(JSON.parse(JSON.stringify(setup)) as Record<string, never>) },
  };
  const game = await Game.start(world, { ai: provider, scripts }, setup, provider);
  for (const input of inputs) {
    try {
      await game.apply(input);
    } catch {
      // A refused input changes nothing, as in play.
    }
  }
  return { cassette: { header: header as CassetteData["header"], entries }, game };
}
