import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { basicQuest, HOSTILE_NAMES, harbor, tinyWorld, trigger } from "../../../test/helpers/author.ts";
import { oneLine } from "../text.ts";
import { bundleEdges } from "./bundle.ts";
import { escapeMermaid, toMermaid } from "./mermaid.ts";
import { buildGraph } from "./model.ts";

const ID = "[tqes]\\d+";
const LABEL = '"([^"]*)"';
const NODE = new RegExp(
  `^  (${ID})(?:\\[${LABEL}\\]|\\[\\[${LABEL}\\]\\]|\\(\\[${LABEL}\\]\\)|\\[\\(${LABEL}\\)\\]):::(state|planning|quest|event|storage|missing)$`,
);
const EDGE = new RegExp(`^  (${ID}) (-->|-\\.->)\\|${LABEL}\\| (${ID})$`);
const CLASS_DEF = /^ {2}classDef \w+ [\w#:,. -]+$/;

/** Every line is one flowchart statement; returns the nodes' and edges' decoded labels. */
function parseFlowchart(text: string) {
  const lines = text.split("\n");
  assert.equal(lines[0], "flowchart LR");
  assert.equal(lines.at(-1), "", "ends with a newline");
  const nodes = new Map<string, string>();
  const edges: { from: string; to: string; label: string; arrow: string }[] = [];
  for (const line of lines.slice(1, -1)) {
    const node = NODE.exec(line);
    const edge = EDGE.exec(line);
    if (node) {
      const label = node.slice(2, 6).find((l) => l !== undefined)!;
      assert.ok(!nodes.has(node[1]!), `node ${node[1]} defined once`);
      nodes.set(node[1]!, decode(label));
    } else if (edge) {
      assert.ok(nodes.has(edge[1]!) && nodes.has(edge[4]!), `edge ${line} joins defined nodes`);
      edges.push({ from: edge[1]!, to: edge[4]!, arrow: edge[2]!, label: decode(edge[3]!) });
    } else assert.match(line, CLASS_DEF, `not a flowchart statement: ${JSON.stringify(line)}`);
  }
  return { nodes, edges };
}

/** Mermaid's character references back to characters. */
function decode(label: string): string {
  return label
    .split("<br/>")
    .map((part) => {
      const raw = part.replace(/#\d+;/g, "");
      assert.doesNotMatch(raw, /["<>&|%:;`#\\]/, `raw special character in ${JSON.stringify(label)}`);
      return part.replace(/#(\d+);/g, (_, code) => String.fromCodePoint(Number(code)));
    })
    .join("\n");
}

describe("mermaid", () => {
  test("the example world: one statement per line, every node and every bundle", () => {
    const graph = buildGraph(harbor());
    const { nodes, edges } = parseFlowchart(toMermaid(graph));
    assert.equal(nodes.size, graph.nodes.length);
    assert.equal(edges.length, bundleEdges(graph).length);
    assert.ok([...nodes.values()].includes("keeper_rumour\nstate"));
    assert.ok([...nodes.values()].includes("The Keeper's Debt\nquest"));
    assert.ok([...nodes.values()].includes("count_lighthouse_visits\nstate · recurring · script"));
    const init = edges.find((e) => nodes.get(e.from)?.startsWith("keeper_rumour\n"));
    assert.equal(init?.label, "init, reveal find_mara");
    assert.equal(init?.arrow, "-->");
    const read = edges.find((e) => nodes.get(e.from)?.startsWith("met_mara\n"));
    assert.equal(read?.arrow, "-.->", "conditions are dotted");
  });

  test("hostile names are escaped and survive the round trip", () => {
    const quests = Object.fromEntries(HOSTILE_NAMES.map((n) => [n, basicQuest(n)]));
    const triggers = Object.fromEntries(
      HOSTILE_NAMES.map((n, i) => [
        `t${i} ${n}`,
        trigger(
          `t${i} ${n}`,
          [{ type: "read-string", key: n, operator: "equals", value: "x" }],
          [
            { type: "quest-init", operator: "set", value: n },
            { type: "quest-objective-reveal", questId: n, objectiveId: n },
          ],
        ),
      ]),
    );
    const graph = buildGraph(tinyWorld({ quests, triggers }));
    const { nodes, edges } = parseFlowchart(toMermaid(graph));
    const names = [...nodes.values()].map((label) => label.split("\n")[0]);
    for (const name of HOSTILE_NAMES) {
      const flat = oneLine(name) === "" ? " " : oneLine(name);
      assert.ok(names.includes(flat), `quest ${JSON.stringify(name)} keeps its name`);
      assert.ok(
        edges.some((e) => e.label === `init, reveal ${oneLine(name)}`),
        `edge label for ${JSON.stringify(name)}`,
      );
    }
  });

  test("escapeMermaid: references for the characters Mermaid reads, spaces for line breaks", () => {
    assert.equal(escapeMermaid('a"b'), "a#34;b");
    assert.equal(escapeMermaid("#quot;"), "#35;quot#59;");
    assert.equal(escapeMermaid("<b>&</b>"), "#60;b#62;#38;#60;/b#62;");
    assert.equal(escapeMermaid("x\ny"), "x y");
    assert.equal(escapeMermaid("a\\nb"), "a#92;nb", "a literal backslash-n is not a line break");
    assert.equal(escapeMermaid("[ok] (fine) 'yes' 城"), "[ok] (fine) 'yes' 城");
    assert.equal(escapeMermaid(""), " ", "an empty label would not parse");
  });

  test("an empty graph is a valid empty flowchart", () => {
    const { nodes, edges } = parseFlowchart(toMermaid({ nodes: [], edges: [] }));
    assert.equal(nodes.size + edges.length, 0);
  });
});
