import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, test } from "node:test";
import { graph } from "../../src/cli/graph.ts";
import { run } from "../../src/cli/main.ts";
import {
  harbor,
  type Json,
  pngSize,
  SHARED_WORLDS,
  sharedWorldFiles,
  sharedWorldsAbsent,
} from "../helpers/author.ts";
import { byClass, parseXml } from "../helpers/xml.ts";
import {
  assertOneLine,
  captureIo,
  checkedWorld,
  FIXTURES,
  ROOT,
  runWorldCommand,
  scratchDir,
} from "./helpers.ts";

const HARBOR = join(ROOT, "examples/harbor.world.json");
const BROKEN = join(FIXTURES, "broken.world.json");
const scratch = scratchDir();

const runGraph = (file: string, options: Record<string, unknown> = {}, stdin?: string) =>
  runWorldCommand(graph, file, options, stdin);

describe("taleforge graph on the example world", () => {
  test("mermaid on stdout by default, exit 0, nothing on stderr", async () => {
    const { code, stdout, stderr } = await runGraph(HARBOR);
    assert.equal(code, 0);
    assert.equal(stderr, "");
    assert.match(stdout, /^flowchart LR\n/);
    assert.match(stdout, /t\d+\["keeper_rumour<br\/>state"\]:::state/);
  });

  test("--format dot and --format svg", async () => {
    const dot = await runGraph(HARBOR, { format: "dot" });
    assert.equal(dot.code, 0);
    assert.match(dot.stdout, /^digraph world \{\n[\s\S]*\}\n$/);
    const svg = await runGraph(HARBOR, { format: "svg" });
    assert.equal(svg.code, 0);
    const root = parseXml(svg.stdout);
    assert.equal(byClass(root, "node", "trigger").length, 37, "35 triggers and 2 engine-made ones");
  });

  test("through the command line parser, with -f and -o", async () => {
    const out = join(scratch.dir, "harbor.dot");
    const { io, stdout, stderr } = captureIo();
    assert.equal(await run(["graph", HARBOR, "-f", "dot", "-o", out], io), 0);
    assert.equal(stderr(), "");
    assert.equal(
      stdout(),
      `Wrote the graph of 35 triggers (and 2 objective triggers the engine adds), 3 quests, 1 narrative event, 14 storage keys to ${out} (dot).\n`,
    );
    assert.match(readFileSync(out, "utf8"), /^digraph world/);
  });

  test("the output file's extension picks the format when --format is left at its default", async () => {
    const svg = join(scratch.dir, "graph.svg");
    assert.equal((await runGraph(HARBOR, { format: "mermaid", output: svg })).code, 0);
    assert.doesNotThrow(() => parseXml(readFileSync(svg, "utf8")));
    const gv = join(scratch.dir, "graph.gv");
    assert.equal((await runGraph(HARBOR, { output: gv })).code, 0);
    assert.match(readFileSync(gv, "utf8"), /^digraph/);
    const other = join(scratch.dir, "graph.txt");
    assert.equal((await runGraph(HARBOR, { output: other })).code, 0);
    assert.match(readFileSync(other, "utf8"), /^flowchart LR/);
  });

  test("-o graph.png renders the SVG to a PNG of the same size", async () => {
    const png = join(scratch.dir, "graph.png");
    const { code, stdout } = await runGraph(HARBOR, { output: png });
    assert.equal(code, 0);
    const svg = parseXml((await runGraph(HARBOR, { format: "svg" })).stdout);
    const size = pngSize(readFileSync(png));
    assert.deepEqual(size, { width: Number(svg.attributes.width), height: Number(svg.attributes.height) });
    assert.match(stdout, new RegExp(`\\(png, ${size.width} × ${size.height} px\\)\\.\\n$`));
  });
});

describe("taleforge graph: worlds with problems", () => {
  test("a world with errors: the graph of what is valid, exit 1, a summary on stderr", async () => {
    const { code, stdout, stderr } = await runGraph(BROKEN);
    assert.equal(code, 1);
    assert.match(stdout, /^flowchart LR\n/);
    assert.match(
      stderr,
      /^taleforge: .*broken\.world\.json has 2 errors \(.+\); the graph shows only the records that are well formed\. Run "taleforge check .*" to see them\.\n$/,
    );
  });

  test("a file that is not a world: exit 1, nothing on stdout, the reason on stderr", async () => {
    const json = scratch.write("bad.json", '{"configVersion": "V33",');
    const bad = await runGraph(json);
    assert.equal(bad.code, 1);
    assert.equal(bad.stdout, "");
    assert.match(
      bad.stderr,
      /^taleforge: cannot draw .*bad\.json: Invalid JSON: .* \(line 1, column \d+\)\n$/,
    );
    const fragment = scratch.write(
      "mod.json",
      '{"mods": [{"shortId": "x", "version": 1}], "aiInstructions": {}}',
    );
    const mod = await runGraph(fragment);
    assert.equal(mod.code, 1);
    assert.match(mod.stderr, /mod fragment/);
    assertOneLine(mod.stderr);
  });

  test("stdin with -", async () => {
    const { code, stdout } = await runGraph("-", {}, readFileSync(HARBOR, "utf8"));
    assert.equal(code, 0);
    assert.match(stdout, /keeper_rumour/);
  });

  test("a world with no logic: an empty graph and a note", async () => {
    const world = harbor() as Json;
    world.triggers = {};
    world.quests = {};
    delete world.narrativeEvents;
    const file = scratch.write("quiet.world.json", JSON.stringify(world));
    const { code, stdout, stderr } = await runGraph(file);
    assert.equal(code, 0);
    assert.equal(stdout.split("\n")[1]?.startsWith("  classDef"), true);
    assert.equal(
      stderr,
      "taleforge: this world has no triggers, quests or narrative events: the graph is empty.\n",
    );
  });
});

describe("taleforge graph: could not run (exit 2, one line)", () => {
  const cases: [string, string, Record<string, unknown>, RegExp][] = [
    ["a missing file", join(scratch.dir, "nowhere.json"), {}, /Cannot find .*nowhere\.json/],
    ["a folder", scratch.dir, {}, /is a directory/],
    ["an unknown format", HARBOR, { format: "svgg" }, /unknown format "svgg"\. Did you mean "svg"\?/],
    ["a PNG from dot", HARBOR, { format: "dot", output: "x.png" }, /use --format svg, not dot/],
    [
      "a format against the extension",
      HARBOR,
      { format: "dot", output: "x.svg" },
      /looks like svg but --format is dot/,
    ],
    ["an unwritable output", HARBOR, { output: join(scratch.dir, "no/such/dir/g.mmd") }, /cannot write/],
    ["an option of the wrong type", HARBOR, { format: ["svg"] }, /take one value each/],
  ];
  for (const [name, file, options, message] of cases) {
    test(name, async () => {
      const { code, stdout, stderr } = await runGraph(file, options);
      assert.equal(code, 2);
      assert.equal(stdout, "");
      assertOneLine(stderr);
      assert.match(stderr, message);
    });
  }

  test("an unknown option, through the parser", async () => {
    const { io, stderr } = captureIo();
    assert.equal(await run(["graph", HARBOR, "--fromat", "dot"], io), 2);
    assertOneLine(stderr());
  });
});

describe("taleforge graph on every shared world", () => {
  const files = sharedWorldFiles();
  test("the shared worlds are there", {
    skip: sharedWorldsAbsent(),
  }, () => {
    assert.ok(files.length > 0, `no world file in ${SHARED_WORLDS}`);
  });
  for (const file of files) {
    test(basename(file), async () => {
      // Exit 1 exactly when `taleforge check` finds errors.
      const errors = (await checkedWorld(file)).checked.errorCount;
      const fragment = file.includes("/mods/");
      for (const format of ["mermaid", "dot", "svg"]) {
        const { code, stdout, stderr } = await runGraph(file, { format });
        assert.equal(code, errors > 0 ? 1 : 0, stderr);
        if (fragment) {
          assert.equal(stdout, "");
          assert.match(stderr, /mod fragment/);
          assertOneLine(stderr);
        } else {
          assert.ok(stdout.length > 0);
          if (format === "svg") assert.doesNotThrow(() => parseXml(stdout));
          if (code === 1) assert.match(stderr, /has \d+ errors? \(/);
        }
      }
    });
  }
});

test("docs/graph.svg is the example world's graph as drawn today", async () => {
  const { stdout } = await runGraph(HARBOR, { format: "svg" });
  assert.ok(
    readFileSync(join(ROOT, "docs/graph.svg"), "utf8") === stdout,
    "docs/graph.svg is out of date: run `npx taleforge graph examples/harbor.world.json -f svg -o docs/graph.svg`",
  );
});
