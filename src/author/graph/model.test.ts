import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { basicQuest, harbor, tinyWorld, trigger } from "../../../test/helpers/author.ts";
import { bundleEdges } from "./bundle.ts";
import { buildGraph, type GraphEdge, nodeId, triggerTags, type WorldGraph } from "./model.ts";

const T = (key: string) => nodeId("trigger", key);
const Q = (key: string) => nodeId("quest", key);
const E = (key: string) => nodeId("event", key);
const S = (key: string) => nodeId("storage", key);

function edgesBetween(graph: WorldGraph, from: string, to: string): GraphEdge[] {
  return graph.edges.filter((e) => e.from === from && e.to === to);
}

function hasEdge(
  graph: WorldGraph,
  from: string,
  to: string,
  kind: string,
  label?: string,
  viaScript = false,
) {
  return edgesBetween(graph, from, to).some(
    (e) => e.kind === kind && (label === undefined || e.label === label) && e.viaScript === viaScript,
  );
}

describe("graph model of the example world", () => {
  const graph = buildGraph(harbor());
  const node = (id: string) => graph.nodes.find((n) => n.id === id);

  test("has a node for every trigger, quest, event and storage key, engine-made triggers last among triggers", () => {
    const world = harbor();
    const triggers = graph.nodes.filter((n) => n.kind === "trigger").map((n) => n.key);
    assert.deepEqual(triggers.slice(0, Object.keys(world.triggers).length), Object.keys(world.triggers));
    assert.deepEqual(triggers.slice(Object.keys(world.triggers).length), [
      "The Tongueless Bell_objective",
      "Names on the Cairn_objective",
    ]);
    assert.deepEqual(
      graph.nodes.filter((n) => n.kind === "quest").map((n) => n.key),
      Object.keys(world.quests),
    );
    assert.deepEqual(
      graph.nodes.filter((n) => n.kind === "event").map((n) => n.key),
      ["Storm Night"],
    );
    assert.ok(
      graph.nodes.every((n) => !n.missing),
      "the example world names nothing it does not define",
    );
  });

  test("keeper_rumour inits The Keeper's Debt and reveals its first objective", () => {
    assert.ok(hasEdge(graph, T("keeper_rumour"), Q("The Keeper's Debt"), "quest-init", "init"));
    assert.ok(
      hasEdge(graph, T("keeper_rumour"), Q("The Keeper's Debt"), "objective-reveal", "reveal find_mara"),
    );
  });

  test("count_lighthouse_visits writes lighthouse_visits from its script, and keeper_ghost reads it", () => {
    assert.ok(hasEdge(graph, T("count_lighthouse_visits"), S("lighthouse_visits"), "write", "write", true));
    assert.ok(hasEdge(graph, S("lighthouse_visits"), T("keeper_ghost"), "read", "read"));
    // The script reads its own counters too.
    assert.ok(hasEdge(graph, S("lighthouse_last_tick"), T("count_lighthouse_visits"), "read", "read", true));
  });

  test("storage flags chain the main quest's steps", () => {
    assert.ok(hasEdge(graph, T("meet_mara"), S("met_mara"), "write"));
    assert.ok(hasEdge(graph, S("met_mara"), T("arrive_lighthouse"), "read"));
    assert.ok(
      hasEdge(graph, T("light_the_beacon"), Q("The Keeper's Debt"), "quest-complete", "complete quest"),
    );
    assert.ok(
      hasEdge(graph, T("confront_slade"), Q("The Keeper's Debt"), "next-step", "next step"),
      "quest-next-step-set touches the quest",
    );
  });

  test("quest-status conditions are edges from the quest", () => {
    assert.ok(hasEdge(graph, Q("The Keeper's Debt"), T("meet_mara"), "quest-status", "is not hidden"));
    assert.ok(hasEdge(graph, Q("The Tongueless Bell"), T("find_clapper"), "quest-status", "is not hidden"));
  });

  test("events: started by a trigger, waited on by another, writing storage when they complete", () => {
    assert.ok(hasEdge(graph, T("storm_rises"), E("Storm Night"), "event-start", "start"));
    assert.ok(hasEdge(graph, E("Storm Night"), T("mara_at_dawn"), "event-status", "is completed"));
    assert.ok(hasEdge(graph, E("Storm Night"), S("storm_weathered"), "write"));
    assert.ok(hasEdge(graph, S("storm_weathered"), T("wreckers_scatter"), "read"));
  });

  test("engine-made objective triggers: gated by acceptance, marking progress", () => {
    const made = "The Tongueless Bell_objective";
    assert.equal(node(T(made))?.trigger?.engineMade, true);
    assert.equal(node(T(made))?.trigger?.aiJudged, true);
    assert.ok(hasEdge(graph, T(made), Q("The Tongueless Bell"), "quest-progress", "progress"));
    assert.ok(hasEdge(graph, Q("The Tongueless Bell"), T(made), "quest-status", "is accepted"));
    assert.equal(
      node(T("The Keeper's Debt_objective")),
      undefined,
      "a basic quest gets no objective trigger",
    );
  });

  test("trigger marks: phase, recurring, script, AI-judged, player scope", () => {
    assert.deepEqual(triggerTags(node(T("meet_mara"))!.trigger!), ["planning"]);
    assert.deepEqual(triggerTags(node(T("read_logbook"))!.trigger!), ["planning", "AI-judged"]);
    assert.deepEqual(triggerTags(node(T("count_lighthouse_visits"))!.trigger!), [
      "state",
      "recurring",
      "script",
    ]);
    assert.deepEqual(triggerTags(node(T("temple_heal"))!.trigger!), ["state", "recurring", "player scope"]);
    assert.deepEqual(triggerTags(node(T("keeper_rumour"))!.trigger!), ["state"]);
  });

  test("no two edges are the same, and bundles merge the edges between two nodes", () => {
    const keys = graph.edges.map((e) => JSON.stringify(e));
    assert.equal(new Set(keys).size, keys.length);
    const bundle = bundleEdges(graph).find(
      (b) => b.from === T("meet_mara") && b.to === Q("The Keeper's Debt"),
    );
    assert.equal(bundle?.label, "complete find_mara, reveal reach_lighthouse");
    assert.equal(bundle?.role, "effect");
    const read = bundleEdges(graph).find((b) => b.from === S("met_mara"));
    assert.equal(read?.role, "condition");
  });

  test("the same world gives the same graph", () => {
    assert.deepEqual(buildGraph(harbor()), graph);
  });
});

describe("graph model on small worlds", () => {
  test("quest chains: quests-completed and quest-status lead from one quest to the next", () => {
    const graph = buildGraph(
      tinyWorld({
        quests: { First: basicQuest("First"), Second: basicQuest("Second") },
        triggers: {
          open: trigger("open", [], [{ type: "quest-init", operator: "set", value: "First" }]),
          next: trigger(
            "next",
            [{ type: "quests-completed", operator: "contains", value: "First" }],
            [{ type: "quest-init", operator: "set", value: "Second" }],
          ),
          sulk: trigger("sulk", [{ type: "quests-completed", operator: "notContains", value: "First" }]),
          gone: trigger("gone", [
            { type: "quest-status", questId: "Second", operator: "equals", value: "expired" },
          ]),
        },
      }),
    );
    assert.ok(hasEdge(graph, Q("First"), T("next"), "quests-completed", "completed"));
    assert.ok(hasEdge(graph, T("next"), Q("Second"), "quest-init"));
    assert.ok(hasEdge(graph, Q("First"), T("sulk"), "quests-completed", "not completed"));
    assert.ok(hasEdge(graph, Q("Second"), T("gone"), "quest-status", "is expired"));
  });

  test("names that the world does not define become nodes marked missing", () => {
    const graph = buildGraph(
      tinyWorld({
        triggers: {
          t: trigger(
            "t",
            [{ type: "narrative-event-status", eventId: "Ghost", operator: "equals", value: "active" }],
            [
              { type: "quest-init", operator: "set", value: "Nowhere" },
              { type: "narrative-event-start", eventId: "Ghost" },
            ],
          ),
        },
      }),
    );
    const missing = graph.nodes.filter((n) => n.missing).map((n) => n.id);
    assert.deepEqual(
      missing,
      [E("Ghost"), Q("Nowhere")],
      "in order of first mention: conditions, then effects",
    );
  });

  test("script quest-inits and storage are read from the script; a broken script adds nothing", () => {
    const graph = buildGraph(
      tinyWorld({
        quests: { Hunt: basicQuest("Hunt") },
        triggers: {
          s: trigger("s", [], [], {
            script:
              'if (storage.wolves > 2) effects.push({ type: "quest-init", operator: "set", value: "Hunt" });\nstorage.seen = true;',
          }),
          broken: trigger("broken", [], [], { script: "storage.x = (" }),
        },
      }),
    );
    assert.ok(hasEdge(graph, T("s"), Q("Hunt"), "quest-init", "init", true));
    assert.ok(hasEdge(graph, S("wolves"), T("s"), "read", "read", true));
    assert.ok(hasEdge(graph, T("s"), S("seen"), "write", "write", true));
    assert.equal(graph.edges.filter((e) => e.from === T("broken") || e.to === T("broken")).length, 0);
    assert.equal(graph.nodes.find((n) => n.id === T("s"))?.trigger?.scripted, true);
  });

  test("malformed conditions and effects are skipped, not trusted", () => {
    const graph = buildGraph(
      tinyWorld({
        triggers: {
          odd: trigger(
            "odd",
            [
              { type: "read-number", key: 7, operator: "equals", value: 1 },
              { type: "quest-status", operator: "equals", value: "accepted" },
              { type: "action-text", operator: "contains", value: "x" },
            ],
            [
              { type: "write-string", key: ["a"], operator: "set", value: "b" },
              { type: "quest-init", operator: "set", value: 3 },
              { type: "no-such-effect", key: "k" },
            ],
            { conditions: "not a list" },
          ),
          mixed: trigger("mixed", [null as never, { type: "action", query: "?" }]),
        },
      }),
    );
    assert.deepEqual(graph.edges, []);
    assert.equal(graph.nodes.find((n) => n.id === T("odd"))?.trigger?.phase, "state");
    assert.equal(graph.nodes.find((n) => n.id === T("mixed"))?.trigger?.phase, "planning");
  });

  test("a narrative event may start itself on completion (a self-loop)", () => {
    const graph = buildGraph(
      tinyWorld({
        narrativeEvents: {
          Loop: {
            title: "Loop",
            beats: "again",
            onCompleteEffects: [{ type: "narrative-event-start", eventId: "Loop" }],
          },
        },
      }),
    );
    assert.ok(hasEdge(graph, E("Loop"), E("Loop"), "event-start"));
  });

  test("an empty world gives an empty graph", () => {
    assert.deepEqual(buildGraph(tinyWorld({})), { nodes: [], edges: [] });
  });
});
