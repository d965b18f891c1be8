import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HOSTILE_NAMES, harbor, tinyWorld } from "../../../test/helpers/author.ts";
import { byClass, child, findAll, parseXml, textOf, type XmlElement } from "../../../test/helpers/xml.ts";
import { buildRealmMap } from "./model.ts";
import { realmMapSvg } from "./svg.ts";

const n = (value: string | undefined) => Number(value);

/** The cell rectangle of a region group. */
function cellOf(group: XmlElement) {
  const rect = child(group, "rect")!;
  return { x: n(rect.attributes.x), y: n(rect.attributes.y), size: n(rect.attributes.width) };
}

describe("realm map svg of the example world", () => {
  const world = harbor();
  const map = buildRealmMap(world, "Brine Reach");
  const svg = parseXml(realmMapSvg(map));
  const regions = byClass(svg, "region");
  const region = (key: string) => regions.find((g) => g.attributes["data-region"] === key)!;

  test("well-formed, titled with the realm, sized in pixels over a viewBox in world units", () => {
    assert.equal(svg.name, "svg");
    assert.equal(textOf(byClass(svg, "realm-name")[0]!), "Brine Reach");
    const [, , w, h] = svg.attributes.viewBox!.split(" ").map(Number);
    const width = n(svg.attributes.width);
    const height = n(svg.attributes.height);
    assert.ok(Math.abs(width / height - w! / h!) < 0.01, "pixels keep the proportions");
    assert.equal(Math.round((width / w!) * 100), 320, "a region cell is 320 pixels wide");
  });

  test("one square per region, with its name, on the grid: +x east, +y north", () => {
    assert.equal(regions.length, 4);
    for (const g of regions) {
      const key = g.attributes["data-region"]!;
      const cell = cellOf(g);
      assert.equal(cell.size, 100);
      assert.equal(n(child(g, "rect")!.attributes.height), 100);
      assert.equal(textOf(byClass(g, "region-name")[0]!), key);
      assert.equal(n(g.attributes["data-x"]), world.regions[key]!.x);
      assert.equal(n(g.attributes["data-y"]), world.regions[key]!.y);
    }
    const centre = cellOf(region("Brinewick"));
    assert.deepEqual(cellOf(region("Gull Coast")), { ...centre, x: centre.x + 100 }, "east is to the right");
    assert.deepEqual(cellOf(region("Fenmoor Downs")), { ...centre, y: centre.y - 100 }, "north is up");
    assert.deepEqual(cellOf(region("Drowned Flats")), { ...centre, y: centre.y + 100 });
  });

  test("the empty cells of the rectangle are random terrain", () => {
    const terrain = byClass(svg, "terrain");
    assert.deepEqual(
      terrain.map((g) => [g.attributes["data-x"], g.attributes["data-y"]]),
      [
        ["1", "1"],
        ["1", "-1"],
      ],
    );
    const centre = cellOf(region("Brinewick"));
    const rect = child(terrain[0]!, "rect")!;
    assert.deepEqual([n(rect.attributes.x), n(rect.attributes.y)], [centre.x + 100, centre.y - 100]);
    assert.equal(rect.attributes.fill, "url(#terrain)");
  });

  test("one circle per location, its radius, at its region's centre plus its offset", () => {
    const locations = byClass(svg, "location");
    assert.equal(locations.length, Object.keys(world.locations).length);
    for (const g of locations) {
      const key = g.attributes["data-location"]!;
      const record = world.locations[key]!;
      assert.equal(g.attributes["data-region"], record.region);
      const cell = cellOf(region(record.region));
      const circle = child(g, "circle")!;
      assert.equal(n(circle.attributes.r), record.radius, `${key} radius`);
      assert.equal(n(circle.attributes.cx), cell.x + 50 + record.x, `${key} cx`);
      assert.equal(n(circle.attributes.cy), cell.y + 50 - record.y, `${key} cy`);
      assert.equal(textOf(byClass(g, "location-name")[0]!), key);
      assert.equal(g.attributes.class, "location known");
    }
    const docks = locations.find((g) => g.attributes["data-location"] === "Brinewick Docks")!;
    assert.equal(textOf(byClass(docks, "areas")[0]!), "Pier End · Fish Market · Net Lofts");
  });

  test("no party marker without a save; a legend and axis labels", () => {
    assert.equal(byClass(svg, "party").length, 0);
    assert.equal(byClass(svg, "legend").length, 1);
    const axes = findAll(byClass(svg, "axes")[0]!, (e) => e.name === "text").map(textOf);
    assert.deepEqual(axes, ["x = 0", "x = 1", "y = -1", "y = 0", "y = 1"]);
  });

  test("deterministic", () => {
    assert.equal(realmMapSvg(buildRealmMap(harbor(), "Brine Reach")), realmMapSvg(map));
  });
});

describe("realm map svg: known, unknown, party, odd input", () => {
  test("unknown regions and locations get their class and a marked name; the party gets a marker", () => {
    const map = buildRealmMap(harbor(), "Brine Reach", {
      known: { "Old Lighthouse": false, "Fenmoor Downs": false },
      party: {
        realm: "Brine Reach",
        region: "Brinewick",
        location: "Brinewick Docks",
        area: "Pier End",
        x: 10,
        y: -30,
      },
    });
    const svg = parseXml(realmMapSvg(map));
    const unknownRegions = byClass(svg, "region", "unknown").map((g) => g.attributes["data-region"]);
    assert.deepEqual(unknownRegions, ["Fenmoor Downs"]);
    assert.equal(byClass(svg, "region", "known").length, 3);
    const lighthouse = byClass(svg, "location", "unknown");
    assert.deepEqual(
      lighthouse.map((g) => g.attributes["data-location"]),
      ["Old Lighthouse"],
    );
    assert.equal(textOf(byClass(lighthouse[0]!, "location-name")[0]!), "Old Lighthouse (unknown)");
    assert.equal(child(lighthouse[0]!, "circle")!.attributes["stroke-dasharray"], "2 1.5");
    const party = byClass(svg, "party");
    assert.equal(party.length, 1);
    assert.equal(party[0]!.attributes["data-location"], "Brinewick Docks");
    // The marker is centred on the docks' centre: region centre + (10, -30).
    const docks = byClass(svg, "location").find((g) => g.attributes["data-location"] === "Brinewick Docks")!;
    const circle = child(docks, "circle")!;
    const d = child(party[0]!, "path")!.attributes.d!;
    const [top] = d.slice(1).split(" ");
    assert.equal(n(top!.split(",")[0]), n(circle.attributes.cx));
  });

  test("hostile names are escaped; the map is still well-formed XML", () => {
    const regions: Record<string, unknown> = {};
    const locations: Record<string, unknown> = {};
    HOSTILE_NAMES.forEach((name, i) => {
      regions[name] = { name, basicInfo: "", x: i, y: 0, realm: "<R&D>" };
      locations[`${name}!`] = {
        name: `${name}!`,
        basicInfo: "",
        x: 0,
        y: 0,
        radius: 5,
        region: name,
        complexityType: "simple",
        detailType: "basic",
        areas: { [name]: { description: "", paths: [] } },
      };
    });
    const world = tinyWorld({
      realms: { "<R&D>": { name: "<R&D>", basicInfo: "" } },
      regions,
      locations,
    } as never);
    const svg = parseXml(realmMapSvg(buildRealmMap(world, "<R&D>")));
    assert.equal(textOf(byClass(svg, "realm-name")[0]!), "<R&D>");
    assert.deepEqual(
      byClass(svg, "region").map((g) => g.attributes["data-region"]),
      HOSTILE_NAMES,
    );
    assert.deepEqual(
      byClass(svg, "location").map((g) => g.attributes["data-location"]),
      HOSTILE_NAMES.map((name) => `${name}!`),
    );
  });

  test("an empty realm still draws a titled picture that says so", () => {
    const world = tinyWorld({ realms: { Void: { name: "Void", basicInfo: "" } } });
    const svg = parseXml(realmMapSvg(buildRealmMap(world, "Void")));
    assert.equal(byClass(svg, "region").length, 0);
    assert.match(textOf(byClass(svg, "empty")[0]!), /No region is in realm "Void"/);
  });

  test("a huge sparse grid stays under 4096 pixels and draws one terrain backdrop", () => {
    const world = tinyWorld({
      realms: { A: { name: "A", basicInfo: "" } },
      regions: {
        W: { name: "W", basicInfo: "", x: -500, y: 0, realm: "A" },
        E: { name: "E", basicInfo: "", x: 500, y: 20, realm: "A" },
      },
    });
    const svg = parseXml(realmMapSvg(buildRealmMap(world, "A")));
    assert.ok(n(svg.attributes.width) <= 4096 && n(svg.attributes.height) <= 4096);
    assert.equal(byClass(svg, "terrain", "backdrop").length, 1);
    assert.equal(byClass(svg, "axes").length, 0, "no coordinate labels on so large a grid");
  });

  test("no layer that could crash the PNG renderer: no opacity attribute, no marker", () => {
    const text = realmMapSvg(buildRealmMap(harbor(), "Brine Reach"));
    assert.doesNotMatch(text, /\sopacity=|marker/);
  });
});
