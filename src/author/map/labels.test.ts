import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { harbor, tinyWorld } from "../../../test/helpers/author.ts";
import { findAll, parseXml, textOf, type XmlElement } from "../../../test/helpers/xml.ts";
import type { World } from "../../world/schema/index.ts";
import { type Anchor, type Box, overlaps, textBox } from "./labels.ts";
import { buildRealmMap } from "./model.ts";
import { realmMapSvg } from "./svg.ts";

/** Rounding of coordinates in the SVG (two decimals). */
const EPSILON = 0.02;

/** A crowded realm: 13 regions on a 5 × 3 grid, 174 locations with long names and long area names. */
function crowdedWorld(): World {
  let seed = 18;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const words = ["Ashen", "Whispering", "Gilded", "Drowned", "Forgotten", "Ironbound", "Moonlit", "Saltworn"];
  const nouns = [
    "Cartographers' Guildhall",
    "Lantern Market",
    "Weir",
    "Abbey of the Seventh Bell",
    "Mill",
    "Quay",
  ];
  const regions: Record<string, unknown> = {};
  const locations: Record<string, unknown> = {};
  const cells = [...Array(15).keys()].filter((i) => i !== 6 && i !== 12).slice(0, 13);
  cells.forEach((cell, r) => {
    const name = `The Windswept Marches of ${words[r % words.length]} Aldermere Beyond the Pale ${r}`;
    regions[name] = { name, basicInfo: "", x: cell % 5, y: Math.floor(cell / 5), realm: "Long Realm" };
    const count = r < 5 ? 14 : 13;
    for (let i = 0; i < count; i++) {
      const key = `${words[(i + r) % words.length]} ${nouns[i % nouns.length]} ${r}-${i}`;
      const areas: Record<string, unknown> = {};
      for (let a = 0; a < 1 + (i % 4); a++)
        areas[`The Exceedingly Long Hall Number ${a} of ${nouns[(a + i) % nouns.length]}`] = {
          description: "",
          paths: [],
        };
      locations[key] = {
        name: key,
        basicInfo: "",
        x: Math.round((random() - 0.5) * 90),
        y: Math.round((random() - 0.5) * 90),
        radius: 2 + Math.round(random() * 12),
        region: name,
        complexityType: "simple",
        detailType: "basic",
        areas,
      };
    }
  });
  return tinyWorld({
    realms: { "Long Realm": { name: "Long Realm", basicInfo: "" } },
    regions,
    locations,
  } as never);
}

const ANCHORS = new Set(["start", "middle", "end"]);

/** The box of every text element, estimated as the layout estimates it. */
function textBoxes(svg: XmlElement): { text: string; box: Box }[] {
  return findAll(svg, (e) => e.name === "text").map((e) => {
    const a = e.attributes;
    assert.ok(
      a.x !== undefined && a.y !== undefined && a["font-size"] !== undefined,
      `text "${textOf(e)}" is positioned`,
    );
    const anchor = (a["text-anchor"] ?? "start") as Anchor;
    assert.ok(ANCHORS.has(anchor));
    const spec = {
      text: textOf(e),
      x: Number(a.x),
      y: Number(a.y),
      size: Number(a["font-size"]),
      anchor,
      bold: a["font-weight"] === "bold",
    };
    return { text: spec.text, box: textBox(spec) };
  });
}

function checkLayout(svgText: string): { texts: number } {
  const svg = parseXml(svgText);
  const [vx, vy, vw, vh] = svg.attributes.viewBox!.split(" ").map(Number) as [number, number, number, number];
  // Text drawn in a translated group would escape this check.
  assert.equal(
    findAll(
      svg,
      (e) => e.attributes.transform !== undefined && findAll(e, (t) => t.name === "text").length > 0,
    ).length,
    0,
  );
  const boxes = textBoxes(svg);
  for (const { text, box } of boxes) {
    assert.ok(
      box.x0 >= vx - EPSILON &&
        box.y0 >= vy - EPSILON &&
        box.x1 <= vx + vw + EPSILON &&
        box.y1 <= vy + vh + EPSILON,
      `"${text}" lies inside the picture: ${JSON.stringify(box)} in ${svg.attributes.viewBox}`,
    );
  }
  const shrunk = boxes.map(({ text, box }) => ({
    text,
    box: { x0: box.x0 + EPSILON, y0: box.y0 + EPSILON, x1: box.x1 - EPSILON, y1: box.y1 - EPSILON },
  }));
  for (let i = 0; i < shrunk.length; i++)
    for (let j = i + 1; j < shrunk.length; j++)
      assert.ok(
        !overlaps(shrunk[i]!.box, shrunk[j]!.box),
        `"${shrunk[i]!.text}" overprints "${shrunk[j]!.text}"`,
      );
  return { texts: boxes.length };
}

describe("realm map labels", () => {
  test("a crowded realm: no two texts overlap, none leaves the picture, most locations keep a name", () => {
    const world = crowdedWorld();
    const map = buildRealmMap(world, "Long Realm");
    assert.equal(map.regions.length, 13);
    assert.equal(map.locations.length, 174);
    const svg = realmMapSvg(map);
    checkLayout(svg);
    const names = findAll(parseXml(svg), (e) => e.attributes.class === "location-name");
    assert.ok(names.length >= 174 * 0.6, `${names.length} of 174 locations are labelled`);
  });

  test("the example world keeps every name and its areas", () => {
    const map = buildRealmMap(harbor(), "Brine Reach", {
      party: {
        realm: "Brine Reach",
        region: "Brinewick",
        location: "Brinewick Docks",
        area: "Pier End",
        x: 10,
        y: -30,
      },
    });
    const svg = realmMapSvg(map);
    checkLayout(svg);
    const doc = parseXml(svg);
    const names = findAll(doc, (e) => e.attributes.class === "location-name").map(textOf);
    assert.deepEqual(names.sort(), map.locations.map((l) => l.key).sort());
  });

  test("a party at the east edge keeps its word inside the picture", () => {
    const map = buildRealmMap(harbor(), "Brine Reach", {
      party: { realm: "Brine Reach", region: "Gull Coast", location: "", area: "", x: 50, y: 0 },
    });
    checkLayout(realmMapSvg(map));
  });

  test("a long realm, region and location name on a one-cell realm stay inside the picture", () => {
    const long = "An Extraordinarily Long Name That Would Never Fit On Any Reasonable Map At All".repeat(2);
    const world = tinyWorld({
      realms: { [long]: { name: long, basicInfo: "" } },
      regions: { [long]: { name: long, basicInfo: "", x: 0, y: 0, realm: long } },
      locations: {
        [long]: {
          name: long,
          basicInfo: "",
          x: 49,
          y: -49,
          radius: 3,
          region: long,
          complexityType: "simple",
          detailType: "basic",
          areas: { [long]: { description: "", paths: [] } },
        },
      },
    } as never);
    checkLayout(realmMapSvg(buildRealmMap(world, long)));
  });
});
