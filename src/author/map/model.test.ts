import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { harbor, tinyWorld } from "../../../test/helpers/author.ts";
import type { World } from "../../world/schema/index.ts";
import { suggest } from "../../world/suggest.ts";
import { buildRealmMap, chooseRealm, MAX_TERRAIN_CELLS } from "./model.ts";

const realm = (name: string, known?: boolean) => ({
  name,
  basicInfo: "",
  ...(known === undefined ? {} : { known }),
});
const region = (
  name: string,
  x: number,
  y: number,
  realmName?: string,
  extra: Record<string, unknown> = {},
) => ({
  name,
  basicInfo: "",
  x,
  y,
  ...(realmName === undefined ? {} : { realm: realmName }),
  ...extra,
});
const location = (name: string, regionName: string, x: number, y: number, radius = 5, extra = {}) => ({
  name,
  basicInfo: "",
  x,
  y,
  radius,
  region: regionName,
  complexityType: "simple" as const,
  detailType: "basic" as const,
  ...extra,
});

describe("choosing the realm", () => {
  const world = tinyWorld({ realms: { "Brine Reach": realm("Brine Reach"), Underdark: realm("Underdark") } });

  test("the first realm by default, a named one exactly or by case", () => {
    assert.deepEqual(chooseRealm(world), { ok: true, realm: "Brine Reach" });
    assert.deepEqual(chooseRealm(world, "Underdark"), { ok: true, realm: "Underdark" });
    assert.deepEqual(chooseRealm(world, " underdark "), { ok: true, realm: "Underdark" });
  });

  test("an unknown name gets a suggestion; a world without realms says so", () => {
    // The suggestion `taleforge map` gives (didYouMean) is made from the realms of the answer.
    const choose = (name: string) => {
      const choice = chooseRealm(world, name);
      return choice.ok === false && choice.problem === "unknown-realm"
        ? { ...choice, suggestion: suggest(name, choice.realms) }
        : choice;
    };
    assert.deepEqual(choose("Brine Rech"), {
      ok: false,
      problem: "unknown-realm",
      realms: ["Brine Reach", "Underdark"],
      suggestion: "Brine Reach",
    });
    const far = choose("Elsewhere entirely");
    assert.equal(far.ok === false && far.problem === "unknown-realm" && far.suggestion, undefined);
    assert.deepEqual(chooseRealm(tinyWorld({})), { ok: false, problem: "no-realms" });
    assert.deepEqual(chooseRealm(tinyWorld({}), "Any"), { ok: false, problem: "no-realms" });
  });
});

describe("the realm map of the example world", () => {
  const map = buildRealmMap(harbor(), "Brine Reach");

  test("four regions on a 2 × 3 grid, the two empty cells as random terrain", () => {
    assert.deepEqual(
      map.regions.map((r) => [r.key, r.x, r.y, r.known]),
      [
        ["Brinewick", 0, 0, true],
        ["Gull Coast", 1, 0, true],
        ["Fenmoor Downs", 0, 1, true],
        ["Drowned Flats", 0, -1, true],
      ],
    );
    assert.deepEqual(map.bounds, { minX: 0, maxX: 1, minY: -1, maxY: 1 });
    assert.deepEqual(map.terrain, [
      { x: 1, y: 1 },
      { x: 1, y: -1 },
    ]);
    assert.equal(map.regionSize, 100);
    assert.deepEqual(map.regionsWithoutRealm, []);
  });

  test("locations at their region's centre plus their offset, north up", () => {
    assert.equal(map.locations.length, 10);
    const lighthouse = map.locations.find((l) => l.key === "Old Lighthouse")!;
    assert.deepEqual(
      {
        east: lighthouse.east,
        north: lighthouse.north,
        radius: lighthouse.radius,
        region: lighthouse.region,
      },
      { east: 130, north: -5, radius: 3, region: "Gull Coast" },
    );
    const barrow = map.locations.find((l) => l.key === "Crookback Barrow")!;
    assert.deepEqual([barrow.east, barrow.north], [-20, 125]);
    assert.deepEqual(map.locations.find((l) => l.key === "Brinewick Docks")!.areas, [
      "Pier End",
      "Fish Market",
      "Net Lofts",
    ]);
    assert.deepEqual(map.locationsOutsideCell, []);
  });

  test("a save's known flags override the world's, and its party position is placed", () => {
    const saved = buildRealmMap(harbor(), "Brine Reach", {
      known: { "Old Lighthouse": false, "Fenmoor Downs": false },
      party: {
        realm: "Brine Reach",
        region: "Gull Coast",
        location: "Old Lighthouse",
        area: "",
        x: 28,
        y: -4,
      },
    });
    assert.equal(saved.locations.find((l) => l.key === "Old Lighthouse")!.known, false);
    assert.equal(saved.regions.find((r) => r.key === "Fenmoor Downs")!.known, false);
    assert.equal(saved.regions.find((r) => r.key === "Brinewick")!.known, true);
    assert.deepEqual(saved.party, {
      region: "Gull Coast",
      location: "Old Lighthouse",
      area: "",
      east: 128,
      north: -4,
    });
    const elsewhere = buildRealmMap(harbor(), "Brine Reach", {
      party: { realm: "Other", region: "Nowhere", location: "", area: "", x: 0, y: 0 },
    });
    assert.equal(elsewhere.party, null);
  });
});

describe("realm maps of odd worlds", () => {
  test("regions without a realm are listed, not drawn; known defaults follow the resolutions", () => {
    const world = tinyWorld({
      realms: { A: realm("A", false) },
      regions: {
        R: region("R", 0, 0, "A", { known: false }),
        Free: region("Free", 5, 5),
        Blank: region("Blank", 1, 0, ""),
        Other: region("Other", 0, 1, "B"),
      },
      locations: {
        Hidden: location("Hidden", "R", 0, 0, 4, { known: false }),
        Seen: location("Seen", "R", 10, 10),
        Lost: location("Lost", "Free", 0, 0),
      },
    });
    const map = buildRealmMap(world, "A");
    assert.equal(map.realmKnown, false);
    assert.deepEqual(
      map.regions.map((r) => [r.key, r.known]),
      [["R", false]],
    );
    assert.deepEqual(map.regionsWithoutRealm, ["Free", "Blank"]);
    assert.deepEqual(
      map.locations.map((l) => [l.key, l.known]),
      [
        ["Hidden", false],
        ["Seen", true],
      ],
    );
    assert.deepEqual(map.terrain, []);
  });

  test("an empty realm has no bounds; a location past its cell is flagged", () => {
    const world = tinyWorld({
      realms: { A: realm("A"), Empty: realm("Empty") },
      regions: { R: region("R", 0, 0, "A") },
      locations: { Far: location("Far", "R", 80, 0) },
      locationSettings: { ...tinyWorld({}).locationSettings, regionSize: 0 },
    } as Partial<World>);
    const empty = buildRealmMap(world, "Empty");
    assert.equal(empty.bounds, null);
    assert.deepEqual(empty.regions, []);
    const map = buildRealmMap(world, "A");
    assert.equal(map.regionSize, 100, "a region size that is not positive means the default");
    assert.deepEqual(map.locationsOutsideCell, ["Far"]);
  });

  test("a huge sparse grid does not list its empty cells one by one", () => {
    const world = tinyWorld({
      realms: { A: realm("A") },
      regions: { West: region("West", -1000, 0, "A"), East: region("East", 1000, 1000, "A") },
    });
    const map = buildRealmMap(world, "A");
    assert.equal(map.terrain, null);
    assert.ok(2001 * 1001 > MAX_TERRAIN_CELLS);
  });
});
