import type { IntentRequest, MoveRefusal, NarrationRequest, Outcome } from "../../src/engine/ports.ts";
import type { QuestStatus } from "../../src/engine/state.ts";
import type { World } from "../../src/world/schema/index.ts";
import { harbor } from "../helpers/author.ts";

/** The example world, parsed (the offline provider only reads it). */
export const HARBOR = harbor();

/** Where the party is and who is there, as the engine would put it in an IntentRequest (scene.ts placesFor). */
export function intentRequest(
  text: string,
  location = "Brinewick Docks",
  area?: string,
  world: World = HARBOR,
): IntentRequest {
  const areas = Object.keys(world.locations[location]?.areas ?? {});
  const here = area ?? areas[0] ?? "";
  const npcsPresent = Object.entries(world.npcs)
    .filter(([, npc]) => npc.currentLocation === location && npc.currentArea === here)
    .map(([name]) => name);
  return {
    tick: 1,
    player: "Isobel Carrow",
    text,
    places: [
      ...areas.map((name) => ({ name, kind: "area" as const })),
      ...Object.keys(world.locations).map((name) => ({ name, kind: "location" as const })),
      ...Object.keys(world.regions).map((name) => ({ name, kind: "region" as const })),
    ],
    position: {
      realm: "Brine Reach",
      region: world.locations[location]?.region ?? "",
      location,
      area: here,
    },
    npcsPresent,
    recentStory: "",
  };
}

/** A narration request for a turn at a place of the example world; fields may be overridden. */
export function narrationRequest(
  overrides: Partial<NarrationRequest> = {},
  location = "The Gutted Eel",
  area = "Hearth Room",
): NarrationRequest {
  const loc = HARBOR.locations[location];
  const npcsPresent = Object.entries(HARBOR.npcs)
    .filter(([, npc]) => npc.currentLocation === location && npc.currentArea === area)
    .map(([name, npc]) => ({ name, info: npc.basicInfo ?? "" }));
  return {
    tick: 2,
    opening: false,
    actions: [{ player: "Isobel Carrow", text: "look around" }],
    intent: { intent: "other" },
    instructions: [],
    event: null,
    scene: {
      position: { realm: "Brine Reach", region: loc?.region ?? "", location, area },
      locationInfo: loc?.basicInfo ?? "",
      areaDescription: loc?.areas?.[area]?.description ?? "",
      npcsPresent,
      party: [{ name: "Isobel Carrow", level: 1, resources: { health: 30, resolve: 10 }, traits: [] }],
      recentStory: [],
    },
    outcomes: [],
    summary: "",
    summarise: null,
    journal: [],
    partyNextStep: null,
    ...overrides,
  };
}

/** The instruction of a `story` effect of a trigger of the example world. */
export function storyOf(trigger: string): string {
  const effect = HARBOR.triggers[trigger]!.effects.find((e) => e.type === "story") as
    | { instruction: string }
    | undefined;
  return effect!.instruction;
}

/** Outcomes as the engine reports them (src/engine/outcome.ts), for requests built by hand. */
export const outcome = {
  travelled: (location: string, area = ""): Outcome => ({
    type: "moved",
    actor: null,
    how: "travelled",
    location,
    area,
  }),
  area: (area: string, location = ""): Outcome => ({
    type: "moved",
    actor: null,
    how: "area",
    location,
    area,
  }),
  refused: (refusal: MoveRefusal): Outcome => ({
    type: "refused",
    actor: null,
    act: "move",
    target: refusal.why === "no-area" ? refusal.area : refusal.place,
    ...refusal,
  }),
  objective: (quest: string, text: string, change: "revealed" | "completed" = "completed"): Outcome => ({
    type: "objective",
    actor: null,
    quest,
    text,
    change,
  }),
  quest: (quest: string, status: QuestStatus, from: QuestStatus = "hidden"): Outcome => ({
    type: "quest",
    actor: null,
    quest,
    from,
    status,
  }),
  event: (key: string, change: "began" | "completed"): Outcome => ({
    type: "event",
    actor: null,
    key,
    change,
  }),
};
