import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { basicQuest, HOSTILE_NAMES, harbor, tinyWorld, trigger } from "../../../test/helpers/author.ts";
import { byClass, child, findAll, parseXml, textOf } from "../../../test/helpers/xml.ts";
import { bundleEdges } from "./bundle.ts";
import { buildGraph } from "./model.ts";
import { toSvg } from "./svg.ts";

describe("graph svg", () => {
  const graph = buildGraph(harbor());
  const text = toSvg(graph);
  const svg = parseXml(text);

  test("is a well-formed standalone SVG with a size", () => {
    assert.equal(svg.name, "svg");
    assert.equal(svg.attributes.xmlns, "http://www.w3.org/2000/svg");
    const width = Number(svg.attributes.width);
    const height = Number(svg.attributes.height);
    assert.ok(width > 0 && height > 0);
    assert.equal(svg.attributes.viewBox, `0 0 ${width} ${height}`);
  });

  test("one node group per node, with its key, kind, phase and marks", () => {
    const nodes = byClass(svg, "node");
    assert.equal(nodes.length, graph.nodes.length);
    assert.deepEqual(
      nodes.map((n) => n.attributes["data-key"]),
      graph.nodes.map((n) => n.key),
    );
    const byKey = (key: string) => nodes.find((n) => n.attributes["data-key"] === key)!;
    assert.equal(byKey("meet_mara").attributes.class, "node trigger planning");
    assert.equal(byKey("count_lighthouse_visits").attributes.class, "node trigger state recurring scripted");
    assert.equal(byKey("The Tongueless Bell_objective").attributes.class, "node trigger state engine-made");
    assert.equal(byKey("The Keeper's Debt").attributes.class, "node quest");
    assert.equal(byKey("Storm Night").attributes.class, "node event");
    assert.equal(byKey("lighthouse_visits").attributes.class, "node storage");
    assert.equal(textOf(child(byKey("keeper_rumour"), "title")!), "keeper_rumour (state)");
    const texts = findAll(byKey("keeper_rumour"), (e) => e.name === "text").map(textOf);
    assert.deepEqual(texts, ["keeper_rumour", "state"]);
  });

  test("one edge group per bundle, with a path, an arrow and its label", () => {
    const edges = byClass(svg, "edge");
    const bundles = bundleEdges(graph);
    assert.equal(edges.length, bundles.length);
    const rumour = edges.find((e) => e.attributes["data-from"] === "trigger:keeper_rumour")!;
    assert.equal(rumour.attributes["data-to"], "quest:The Keeper's Debt");
    assert.equal(rumour.attributes.class, "edge effect");
    assert.equal(textOf(child(rumour, "text")!), "init, reveal find_mara");
    assert.equal(child(rumour, "path")!.attributes["marker-end"], "url(#arrow)");
    assert.match(child(rumour, "path")!.attributes.d!, /^M[\d.]+,[\d.]+( C[\d., ]+)+$/);
    const script = edges.find(
      (e) =>
        e.attributes["data-from"] === "trigger:count_lighthouse_visits" &&
        e.attributes["data-to"] === "storage:lighthouse_visits",
    )!;
    assert.equal(script.attributes.class, "edge effect script");
    assert.equal(textOf(child(script, "text")!), "write (script)");
  });

  test("node boxes do not overlap and stay inside the picture", () => {
    const width = Number(svg.attributes.width);
    const height = Number(svg.attributes.height);
    const boxes = byClass(svg, "node").map((n) => {
      const shape = n.children.find((c) => typeof c !== "string" && (c.name === "rect" || c.name === "path"));
      assert.ok(shape && typeof shape !== "string");
      const text = findAll(n, (e) => e.name === "text")[0]!;
      return { key: n.attributes["data-key"], x: Number(text.attributes.x), y: Number(text.attributes.y) };
    });
    const rects = byClass(svg, "node")
      .map((n) => child(n, "rect"))
      .filter((r) => r !== undefined)
      .map((r) => ({
        x: Number(r.attributes.x),
        y: Number(r.attributes.y),
        w: Number(r.attributes.width),
        h: Number(r.attributes.height),
      }));
    for (const r of rects) assert.ok(r.x >= 0 && r.y >= 0 && r.x + r.w <= width && r.y + r.h <= height);
    for (let i = 0; i < rects.length; i++)
      for (let j = i + 1; j < rects.length; j++) {
        const a = rects[i]!;
        const b = rects[j]!;
        const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
        assert.ok(!overlap, `boxes ${i} and ${j} overlap`);
      }
    assert.equal(
      new Set(boxes.map((b) => `${b.x},${b.y}`)).size,
      boxes.length,
      "every node has its own place",
    );
  });

  test("deterministic: the same world gives the same bytes", () => {
    assert.equal(toSvg(buildGraph(harbor())), text);
  });

  test("hostile names: still well-formed XML, and the keys come back intact", () => {
    const quests = Object.fromEntries(HOSTILE_NAMES.map((n) => [n, basicQuest(n)]));
    const triggers = Object.fromEntries(
      HOSTILE_NAMES.map((n) => [n, trigger(n, [], [{ type: "quest-init", operator: "set", value: n }])]),
    );
    const hostile = parseXml(toSvg(buildGraph(tinyWorld({ quests, triggers }))));
    const keys = byClass(hostile, "node").map((n) => n.attributes["data-key"]);
    for (const name of HOSTILE_NAMES)
      assert.equal(keys.filter((k) => k === name).length, 2, JSON.stringify(name));
    const titles = byClass(hostile, "edge").map((e) => textOf(child(e, "title")!));
    assert.ok(titles.includes(`${HOSTILE_NAMES[2]} → ${HOSTILE_NAMES[2]}: init`));
  });

  test("control characters, which XML cannot hold, become U+FFFD; long names are shortened on the box only", () => {
    const long = `quest_${"x".repeat(80)}`;
    const world = tinyWorld({ quests: { "bell\u0007": basicQuest("bell\u0007"), [long]: basicQuest(long) } });
    const parsed = parseXml(toSvg(buildGraph(world)));
    const keys = byClass(parsed, "node").map((n) => n.attributes["data-key"]);
    assert.deepEqual(keys, ["bell\ufffd", long]);
    const longNode = byClass(parsed, "node")[1]!;
    assert.match(textOf(findAll(longNode, (e) => e.name === "text")[0]!), /^quest_x+…$/);
  });

  test("an empty graph is a valid picture with only the legend", () => {
    const empty = parseXml(toSvg({ nodes: [], edges: [] }));
    assert.equal(byClass(empty, "node").length, 0);
    assert.equal(byClass(empty, "legend").length, 1);
  });
});
