import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import type { World } from "../../src/world/schema/index.ts";
import { HARBOR, intentRequest, narrationRequest } from "./offline-helpers.ts";

/**
 * Issue 35, 7: movement phrased with a direction, a road, "home", "back" or a word of a place's
 * name either moves the party or says plainly why not; it never claims a move that did not happen.
 */

const ai = createOfflineProvider(HARBOR);

/** A location's point on the realm's map: its region's cell (100 units) plus its own offset. */
function point(world: World, location: string): { x: number; y: number } {
  const loc = world.locations[location]!;
  const region = world.regions[loc.region]!;
  return { x: region.x * 100 + (loc.x ?? 0), y: region.y * 100 + (loc.y ?? 0) };
}

const WAYS: Record<string, [number, number]> = {
  north: [0, 1],
  south: [0, -1],
  east: [1, 0],
  west: [-1, 0],
  "north-east": [1, 1],
  "south-west": [-1, -1],
};

/** The locations within 45 degrees of a way from `from`, nearest first. */
function toward(world: World, from: string, [wx, wy]: [number, number]): string[] {
  const here = point(world, from);
  const length = Math.hypot(wx, wy);
  return Object.keys(world.locations)
    .filter((name) => name !== from)
    .map((name) => {
      const there = point(world, name);
      const dx = there.x - here.x;
      const dy = there.y - here.y;
      return {
        name,
        along: (dx * wx + dy * wy) / length,
        across: Math.abs(dx * wy - dy * wx) / length,
        distance: Math.hypot(dx, dy),
      };
    })
    .filter((p) => p.along > 0 && p.across <= p.along)
    .sort((a, b) => a.distance - b.distance)
    .map((p) => p.name);
}

const narrate = async (text: string, where: [string, string], world: World = HARBOR) =>
  (
    await createOfflineProvider(world).narrate(
      narrationRequest(
        { actions: [{ player: "Isobel Carrow", text }], intent: { intent: "other" } },
        ...where,
      ),
    )
  ).text.split("\n\n")[0]!;

describe("offline movement: compass directions follow the world's map", () => {
  it("from every location, every way: the nearest location that way, or no move", async () => {
    let moved = 0;
    let stayed = 0;
    for (const from of Object.keys(HARBOR.locations))
      for (const [way, vector] of Object.entries(WAYS)) {
        const answer = await ai.classify(intentRequest(`walk ${way} along the road`, from));
        const expected = toward(HARBOR, from, vector)[0];
        if (expected === undefined) {
          stayed++;
          assert.notEqual(answer.intent, "travel", `${way} of ${from}: nothing lies there`);
        } else {
          moved++;
          assert.deepEqual([answer.intent, answer.target], ["travel", expected], `${way} of ${from}`);
        }
      }
    // The example's map has both: places that way, and edges with nothing beyond.
    assert.ok(moved > 0 && stayed > 0, `${moved} moved, ${stayed} stayed`);
  });

  it("a way with nothing known that way is told as staying, naming the way, never the road", async () => {
    const from = Object.keys(HARBOR.locations).find((l) => toward(HARBOR, l, WAYS.north!).length === 0)!;
    const area = Object.keys(HARBOR.locations[from]!.areas ?? {})[0]!;
    const told = await narrate("walk north along the road", [from, area]);
    assert.match(told, /^You stay where you are: you know of no place north of here\./);
    assert.doesNotMatch(told, /along the road|You walk/);
  });

  it("a way followed toward a direction is a journey that way too", async () => {
    for (const text of ["follow the road north", "take the path north"]) {
      const answer = await ai.classify(intentRequest(text, "Brinewick Docks"));
      const expected = toward(HARBOR, "Brinewick Docks", WAYS.north!)[0];
      assert.deepEqual([answer.intent, answer.target], ["travel", expected], text);
    }
    // A person followed is no journey.
    assert.notEqual(
      (await ai.classify(intentRequest("follow Mara north", "Brinewick Docks"))).intent,
      "travel",
    );
  });

  it("a place named after the way is the end, whichever way it lies", async () => {
    const answer = await ai.classify(intentRequest("walk east to the tavern", "Saltlight Temple"));
    assert.deepEqual([answer.intent, answer.target], ["travel", "The Gutted Eel"]);
  });

  it("a road walked along is the way, not a place looked for by name", async () => {
    const told = await narrate("walk along the road", ["Brinewick Docks", "Pier End"]);
    assert.doesNotMatch(told, /you know of no/);
  });
});

describe("offline movement: home, back and a word of several names", () => {
  it('"go home" goes to the one place named home, else says no home is known', async () => {
    const request = intentRequest("go home", "Brinewick Docks");
    const none = await ai.classify(request);
    assert.notEqual(none.intent, "travel");
    assert.match(
      await narrate("go home", ["Brinewick Docks", "Pier End"]),
      /^You stay where you are: you know of no home of yours/,
    );
    const withHome = await ai.classify({
      ...request,
      places: [...request.places, { name: "Ada's Homestead", kind: "location" }],
    });
    assert.deepEqual([withHome.intent, withHome.target], ["travel", "Ada's Homestead"]);
  });

  it('"go back" asks where to, and moves nobody', async () => {
    const answer = await ai.classify(intentRequest("go back", "Brinewick Docks"));
    assert.notEqual(answer.intent, "travel");
    assert.match(
      await narrate("go back", ["Brinewick Docks", "Pier End"]),
      /^You stay where you are: say where/,
    );
  });

  it('"back the way we came" asks where to as well', async () => {
    assert.match(
      await narrate("we head back the way we came", ["Brinewick Docks", "Pier End"]),
      /^You stay where you are: say where/,
    );
  });

  it("a word of a region's name asks whether the region is meant, and moves nobody", async () => {
    assert.match(
      await narrate("walk to the coast", ["Brinewick Docks", "Pier End"]),
      /^You stay where you are: do you mean Gull Coast\?/,
    );
  });

  it("a word of two places' names: the one at hand, else both named", async () => {
    const world = structuredClone(HARBOR);
    const temple = world.locations["Saltlight Temple"]!;
    temple.areas = { ...temple.areas, "The Hall Gardens": { ...temple.areas!.Nave!, paths: ["Nave"] } };
    const provider = createOfflineProvider(world);
    // At the temple, "the hall" is its own Hall Gardens (Ledger Hall is the Counting House's).
    const here = await provider.classify(intentRequest("go to the hall", "Saltlight Temple", "Nave", world));
    assert.deepEqual([here.intent, here.target], ["move", "The Hall Gardens"]);
    // On the pier, it could be either: the story names both and moves nobody.
    const pier = await provider.classify(
      intentRequest("go to the hall", "Brinewick Docks", "Pier End", world),
    );
    assert.notEqual(pier.intent, "travel");
    assert.notEqual(pier.intent, "move");
    const told = await narrate("go to the hall", ["Brinewick Docks", "Pier End"], world);
    assert.match(
      told,
      /could be (?:Ledger Hall or The Hall Gardens|The Hall Gardens or Ledger Hall)\. Name the one/,
    );
  });
});
