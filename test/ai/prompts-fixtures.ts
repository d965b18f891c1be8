import { generateWorld } from "../../bench/generate-world.ts";
import { type ChatMessage, promptChars } from "../../src/ai/prompts/index.ts";
import type {
  IntentRequest,
  JudgeRequest,
  NarrationRequest,
  SceneView,
  StoryLine,
  SummaryRequest,
} from "../../src/engine/ports.ts";
import type { World } from "../../src/world/schema/index.ts";

/**
 * Fixed requests for the prompt tests: hand-written, so that a snapshot
 * changes only when a builder does (not when the engine's scene code does).
 * The scene is derived from the world the way src/engine/scene.ts does it:
 * NPCs whose authored place is the party's, with their basicInfo only.
 */

let atCap: World | undefined;
/** The at-cap benchmark world (bench/generate-world.ts, scale 1), generated once per test file. */
export function atCapWorld(): World {
  atCap ??= generateWorld(1) as unknown as World;
  return atCap;
}

/** Characters of a prompt's messages (what PROMPT_BUDGETS counts). */
export const size = (messages: ChatMessage[]): number => promptChars(messages);
/** A prompt's messages as one text, for searching. */
export const all = (messages: ChatMessage[]): string => messages.map((m) => m.content).join("\n");

export type Member = SceneView["party"][number];

export function sceneAt(
  world: World,
  location: string,
  area: string,
  party: Member[],
  recentStory: string[],
  openingText?: string,
): SceneView {
  const loc = world.locations[location]!;
  const region = world.regions[loc.region]!;
  const scene: SceneView = {
    position: { realm: region.realm ?? "", region: loc.region, location, area },
    locationInfo: loc.basicInfo,
    areaDescription: loc.areas?.[area]?.description ?? "",
    npcsPresent: Object.entries(world.npcs)
      .filter(([, n]) => n.currentLocation === location && n.currentArea === area)
      .map(([name, n]) => ({ name, info: n.basicInfo ?? "" })),
    party,
    recentStory,
  };
  if (openingText !== undefined) scene.openingText = openingText;
  return scene;
}

/** Places as the engine offers them (scene.ts placesFor): areas here, then locations, then regions. */
export function placesAt(world: World, location: string): IntentRequest["places"] {
  return [
    ...Object.keys(world.locations[location]?.areas ?? {}).map((name) => ({ name, kind: "area" as const })),
    ...Object.keys(world.locations).map((name) => ({ name, kind: "location" as const })),
    ...Object.keys(world.regions).map((name) => ({ name, kind: "region" as const })),
  ];
}

const ISOBEL: Member = {
  name: "Isobel Carrow",
  level: 2,
  resources: { health: 27, resolve: 8 },
  traits: ["Dockborn", "Blessed"],
};
const TOMAS: Member = {
  name: "Tomas Reed",
  level: 1,
  resources: { health: 30, resolve: 10 },
  traits: ["Outlander"],
};

const OPENING = (world: World) => world.storyStarts["Dawn at the Docks"]!.storyStart;

const TURN_1 =
  "You follow the quay to the Gutted Eel. Inside, peat smoke and wet wool; a fire that sulks more than it burns. " +
  "A woman with tar-black fingers sits alone by the hearth, a cold cup in front of her, watching the door as if " +
  "it owes her an answer.";

const TURN_2 =
  "Mara Venn tells it flat, the way people tell things they have told too often. Her father went up to the lamp " +
  "the night of the first gale and did not come down. The Wardens laughed. The Sisters prayed. Nobody climbed.";

function base(scene: SceneView): NarrationRequest {
  return {
    tick: 3,
    opening: false,
    actions: [],
    intent: null,
    instructions: [],
    event: null,
    scene,
    outcomes: [],
    summary: "",
    summarise: null,
    journal: [],
    partyNextStep: null,
  };
}

/** A quiet turn at the Gutted Eel: two players, a pending instruction, a quest in the journal. */
export function exampleTurn(world: World): NarrationRequest {
  return {
    ...base(sceneAt(world, "The Gutted Eel", "Hearth Room", [ISOBEL, TOMAS], [OPENING(world), TURN_1])),
    actions: [
      {
        player: "Isobel Carrow",
        text: "I sit down across from the woman and ask if she is the keeper's daughter.",
      },
      { player: "Tomas Reed", text: "I buy a round for the room and listen for talk of the lighthouse." },
    ],
    intent: { intent: "interactNPC", target: "", confidence: 0.92 },
    instructions: [
      world.triggers.keeper_rumour!.effects.find((e) => e.type === "story")!.instruction as string,
    ],
    journal: [
      { quest: "The Keeper's Debt", status: "available", nextStep: "Find Mara Venn at the Gutted Eel." },
    ],
    partyNextStep: "Find Mara Venn at the Gutted Eel.",
  };
}

/** Storm Night in the Lamp Room, with four older entries to fold into the summary and a failed move. */
export function exampleEventTurn(world: World): NarrationRequest {
  const older: StoryLine[] = [
    { tick: 1, text: OPENING(world) },
    { tick: 2, text: TURN_1 },
    { tick: 3, text: TURN_2 },
    {
      tick: 4,
      text: "The logbook's last pages are written in a shaking hand. Forty silver, borrowed from Corvin Slade. A lamp kept lit against his wishes. Then: Slade's men took the lamp key.",
    },
  ];
  const recent = [
    "Slade slides the brass key across the desk without a word of denial. 'The debt still stands,' he says. 'And there is a storm due tonight.'",
    "You take the causeway at a run while the sky bruises over the Gull Coast. The tower door bangs in the wind.",
    "Up the iron steps, past the tally marks, into the Lamp Room. Rain hammers the glass. Below, lanterns swing on the reef.",
  ];
  return {
    ...base(
      sceneAt(world, "Old Lighthouse", "Lamp Room", [ISOBEL], [...older.map((s) => s.text), ...recent]),
    ),
    tick: 8,
    actions: [
      {
        player: "Isobel Carrow",
        text: "I step out onto the balcony to look for the ship, then light the lamp.",
      },
    ],
    intent: { intent: "move", target: "Balcony", confidence: 0.85 },
    instructions: [],
    event: {
      key: "Storm Night",
      title: "Storm Night",
      beats: world.narrativeEvents!["Storm Night"]!.beats,
      activeTurns: 1,
    },
    outcomes: [
      {
        type: "refused",
        actor: "Isobel Carrow",
        act: "move",
        target: "Balcony",
        why: "no-area",
        place: "Old Lighthouse",
        area: "Balcony",
      },
    ],
    summary:
      "Isobel Carrow, a net-mender's daughter, arrived on Brinewick's docks at dawn to find the Old Lighthouse dark. She owes nobody yet.",
    summarise: older,
    journal: [
      {
        quest: "The Keeper's Debt",
        status: "accepted",
        nextStep: "Return to the tower and light the lamp before the storm.",
      },
    ],
    partyNextStep: "Return to the tower and light the lamp before the storm.",
  };
}

/** The opening of "Dawn at the Docks". */
export function exampleOpening(world: World): NarrationRequest {
  return {
    ...base(sceneAt(world, "Brinewick Docks", "Pier End", [ISOBEL], [], OPENING(world))),
    tick: 0,
    opening: true,
  };
}

export function exampleIntent(world: World): IntentRequest {
  return {
    tick: 1,
    player: "Isobel Carrow",
    text: "I head down the pier to the fish market and ask who has been up the lighthouse lately.",
    places: placesAt(world, "Brinewick Docks"),
    position: { realm: "Brine Reach", region: "Brinewick", location: "Brinewick Docks", area: "Pier End" },
    npcsPresent: [],
    recentStory: OPENING(world),
  };
}

export function exampleJudge(world: World): JudgeRequest {
  const query = (trigger: string) => {
    const condition = world.triggers[trigger]!.conditions.find(
      (c) => c.type === "story" || c.type === "action",
    );
    return (condition as { query: string }).query;
  };
  return {
    phase: "planning",
    tick: 6,
    questions: [
      { trigger: "read_logbook", conditionIndex: 2, kind: "action", query: query("read_logbook") },
      { trigger: "light_the_beacon", conditionIndex: 1, kind: "action", query: query("light_the_beacon") },
      { trigger: "slade_threatens", conditionIndex: 1, kind: "story", query: query("slade_threatens") },
    ],
    storyText: TURN_2,
    actions: [
      { player: "Isobel Carrow", text: "I open the logbook on the desk and read the last pages aloud." },
      { player: "Tomas Reed", text: "I keep watch on the stairs." },
    ],
    players: ["Isobel Carrow", "Tomas Reed"],
    history: {
      summary: "Isobel Carrow arrived on Brinewick's docks at dawn to find the Old Lighthouse dark.",
      entries: [
        { tick: 4, text: TURN_1 },
        { tick: 5, text: TURN_2 },
      ],
    },
    scene: {
      position: { realm: "Brine Reach", region: "Brinewick", location: "Old Lighthouse", area: "Lamp Room" },
      npcsPresent: ["Corvin Slade"],
    },
  };
}

/** The summary call of the event turn: the four older entries folded into the summary so far. */
export function exampleSummary(world: World): SummaryRequest {
  const turn = exampleEventTurn(world);
  return { tick: turn.tick, summary: turn.summary, entries: turn.summarise! };
}

// ---------------------------------------------------------------------------
// The at-cap world, with the largest requests the engine can make
// ---------------------------------------------------------------------------

/** A story entry of realistic length (about 1,200 characters: a long turn). */
export function storyEntry(i: number): string {
  const sentence = `Turn ${i}: the road bends past the ford, rain ticks on the stones, and somebody ahead is singing. `;
  return sentence.repeat(Math.ceil(1200 / sentence.length)).slice(0, 1200);
}

function capScene(world: World, openingText?: string): SceneView {
  // The location with the most NPCs present, so the scene is as full as the world allows.
  const counts = new Map<string, number>();
  for (const n of Object.values(world.npcs)) {
    const at = `${n.currentLocation}\u0000${n.currentArea}`;
    counts.set(at, (counts.get(at) ?? 0) + 1);
  }
  const [busiest] = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
  const [location, area] = busiest.split("\u0000") as [string, string];
  const party: Member[] = [1, 2, 3, 4].map((i) => ({
    name: `Player ${i}`,
    level: 12,
    resources: { health: 80, stamina: 40, mana: 25 },
    traits: Object.keys(world.traits).slice(i * 3, i * 3 + 3),
  }));
  return sceneAt(
    world,
    location,
    area,
    party,
    Array.from({ length: 15 }, (_, i) => storyEntry(i + 1)),
    openingText,
  );
}

/** The engine's largest turn: 15 recent entries, 12 to summarise, a full summary, an event, 4 players. */
export function atCapTurn(world: World): NarrationRequest {
  const scene = capScene(world);
  const summarise = scene.recentStory.slice(0, 12).map((text, i) => ({ tick: i + 1, text }));
  const event = Object.entries(world.narrativeEvents ?? {})[0]!;
  return {
    ...base(scene),
    tick: 40,
    actions: scene.party.map((m) => ({
      player: m.name,
      text: `${m.name} searches the room for the hidden door.`,
    })),
    intent: { intent: "other", target: "", confidence: 0.7 },
    instructions: ["A bell rings somewhere below.", "The wind changes."],
    event: { key: event[0], title: event[1].title, beats: event[1].beats, activeTurns: 3 },
    outcomes: [{ type: "moved", actor: null, how: "travelled", location: "somewhere", area: "" }],
    summary: "Long ago and far away. ".repeat(200).slice(0, 4000),
    summarise,
    journal: Object.keys(world.quests)
      .slice(0, 8)
      .map((quest) => ({ quest, status: "accepted", nextStep: "Go on." })),
    partyNextStep: "Go on.",
  };
}

export function atCapOpening(world: World): NarrationRequest {
  const start = Object.values(world.storyStarts)[0]!;
  return { ...base(capScene(world, start.storyStart)), tick: 0, opening: true };
}

export function atCapIntent(world: World): IntentRequest {
  const scene = capScene(world);
  return {
    tick: 40,
    player: "Player 1",
    text: "We set off for the next town before the light goes.",
    places: placesAt(world, scene.position.location),
    position: scene.position,
    npcsPresent: scene.npcsPresent.map((n) => n.name),
    recentStory: scene.recentStory.slice(-3).join("\n\n"),
  };
}

export function atCapJudge(world: World): JudgeRequest {
  // The engine sends at most 20 candidate triggers a phase (the default), with all their judged conditions.
  const questions: JudgeRequest["questions"] = [];
  let triggers = 0;
  for (const [trigger, t] of Object.entries(world.triggers)) {
    const judged = t.conditions.filter((c) => c.type === "story" || c.type === "action");
    if (judged.length === 0 || triggers === 20) continue;
    triggers++;
    t.conditions.forEach((c, conditionIndex) => {
      if (c.type === "story" || c.type === "action")
        questions.push({
          trigger,
          conditionIndex,
          kind: c.type,
          query: String((c as { query: string }).query),
        });
    });
  }
  return {
    phase: "state",
    tick: 40,
    questions,
    storyText: storyEntry(40),
    actions: [1, 2, 3, 4].map((i) => ({
      player: `Player ${i}`,
      text: "I search the room for the hidden door.",
    })),
    players: ["Player 1", "Player 2", "Player 3", "Player 4"],
  };
}
