import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { basicQuest, HOSTILE_NAMES, harbor, tinyWorld, trigger } from "../../../test/helpers/author.ts";
import { oneLine } from "../text.ts";
import { bundleEdges } from "./bundle.ts";
import { escapeDot, toDot } from "./dot.ts";
import { buildGraph } from "./model.ts";

/**
 * Reads the statements of our DOT output: `id [attr=value, …];` and
 * `id -> id [attr=value, …];`, with DOT's quoted strings (backslash escapes).
 * Fails on anything else, so a name that breaks out of its string fails.
 */
function parseDot(text: string) {
  const lines = text.split("\n");
  assert.equal(lines[0], "digraph world {");
  assert.equal(lines.at(-2), "}");
  assert.equal(lines.at(-1), "");
  const nodes = new Map<string, Record<string, string>>();
  const edges: { from: string; to: string; attributes: Record<string, string> }[] = [];
  for (const line of lines.slice(1, -2)) {
    if (/^ {2}(rankdir=LR|graph|node|edge)\b/.test(line)) continue;
    const match = /^ {2}([tqes]\d+)(?: -> ([tqes]\d+))? \[(.*)\];$/.exec(line);
    assert.ok(match, `not a statement: ${JSON.stringify(line)}`);
    const attributes = parseAttributes(match[3]!);
    if (match[2]) edges.push({ from: match[1]!, to: match[2], attributes });
    else nodes.set(match[1]!, attributes);
  }
  return { nodes, edges };
}

function parseAttributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  let at = 0;
  while (at < text.length) {
    const name = /^(\w+)=/.exec(text.slice(at));
    assert.ok(name, `attribute name at ${text.slice(at)}`);
    at += name[0].length;
    let value = "";
    if (text[at] === '"') {
      at++;
      while (text[at] !== '"') {
        assert.ok(at < text.length, "unclosed string");
        if (text[at] === "\\") {
          const next = text[at + 1]!;
          value += next === "n" ? "\n" : next;
          at += 2;
        } else value += text[at++];
      }
      at++;
    } else {
      const bare = /^[\w.#]+/.exec(text.slice(at));
      assert.ok(bare, `value at ${text.slice(at)}`);
      value = bare[0];
      at += value.length;
    }
    out[name[1]!] = value.replace(/&amp;/g, "&");
    if (text.startsWith(", ", at)) at += 2;
    else assert.equal(at, text.length, `junk after a value: ${text.slice(at)}`);
  }
  return out;
}

describe("dot", () => {
  test("the example world: a digraph with every node and bundle", () => {
    const graph = buildGraph(harbor());
    const text = toDot(graph);
    const { nodes, edges } = parseDot(text);
    assert.equal(nodes.size, graph.nodes.length);
    assert.equal(edges.length, bundleEdges(graph).length);
    const rumour = [...nodes.entries()].find(([, a]) => a.tooltip === "keeper_rumour");
    assert.equal(rumour?.[1].label, "keeper_rumour\nstate");
    const init = edges.find((e) => e.from === rumour?.[0]);
    assert.equal(init?.attributes.label, "init, reveal find_mara");
    assert.equal(nodes.get(init!.to)?.tooltip, "The Keeper's Debt");
    assert.ok(
      edges.some((e) => e.attributes.style === "dashed"),
      "conditions are dashed",
    );
  });

  test("hostile names stay inside their strings and come back intact", () => {
    const quests = Object.fromEntries(HOSTILE_NAMES.map((n) => [n, basicQuest(n)]));
    const triggers = {
      t: trigger(
        "t",
        HOSTILE_NAMES.map((n) => ({ type: "read-boolean", key: n, operator: "equals", value: true })),
        HOSTILE_NAMES.map((n) => ({ type: "quest-complete", questId: n })),
      ),
    };
    const { nodes } = parseDot(toDot(buildGraph(tinyWorld({ quests, triggers }))));
    const tooltips = [...nodes.values()].map((a) => a.tooltip);
    for (const name of HOSTILE_NAMES) assert.ok(tooltips.includes(oneLine(name)), JSON.stringify(name));
  });

  test("escapeDot", () => {
    assert.equal(escapeDot('a"b\\c'), 'a\\"b\\\\c');
    assert.equal(escapeDot("x\ny"), "x y");
    assert.equal(escapeDot("&lt;"), "&amp;lt;", "Graphviz would expand the entity");
  });

  test("an empty graph is an empty digraph", () => {
    const { nodes, edges } = parseDot(toDot({ nodes: [], edges: [] }));
    assert.equal(nodes.size + edges.length, 0);
  });
});
