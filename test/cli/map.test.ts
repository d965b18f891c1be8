import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { before, describe, test } from "node:test";
import { run } from "../../src/cli/main.ts";
import { map } from "../../src/cli/map.ts";
import { createSession } from "../../src/engine/session.ts";
import { DataAi } from "../engine/helpers.ts";
import {
  harbor,
  type Json,
  pngSize,
  SHARED_WORLDS,
  sharedWorldFiles,
  sharedWorldsAbsent,
} from "../helpers/author.ts";
import { byClass, parseXml, textOf } from "../helpers/xml.ts";
import {
  assertOneLine,
  BASE_WORLD,
  captureIo,
  checkedWorld,
  ROOT,
  runWorldCommand,
  scratchDir,
} from "./helpers.ts";

const HARBOR = join(ROOT, "examples/harbor.world.json");
const scratch = scratchDir();

const runMap = (file: string, options: Record<string, unknown> = {}, stdin?: string) =>
  runWorldCommand(map, file, options, stdin);

/** A world text with some changes, written to the scratch folder. */
function harborWith(name: string, change: (world: Json) => void): string {
  const world = harbor() as Json;
  change(world);
  return scratch.write(name, JSON.stringify(world));
}

describe("taleforge map on the example world", () => {
  test("SVG on stdout: the first realm, every region and location, exit 0", async () => {
    const { code, stdout, stderr } = await runMap(HARBOR);
    assert.equal(code, 0);
    assert.equal(stderr, "");
    const svg = parseXml(stdout);
    assert.equal(textOf(byClass(svg, "realm-name")[0]!), "Brine Reach");
    assert.equal(byClass(svg, "region").length, 4);
    assert.equal(byClass(svg, "location").length, 10);
    assert.equal(byClass(svg, "terrain").length, 2);
  });

  test("-o map.png: a PNG of the SVG's size, and a line saying what was written", async () => {
    const out = join(scratch.dir, "map.png");
    const { io, stdout, stderr } = captureIo();
    assert.equal(await run(["map", HARBOR, "-o", out], io), 0);
    assert.equal(stderr(), "");
    const svg = parseXml((await runMap(HARBOR)).stdout);
    const size = pngSize(readFileSync(out));
    assert.deepEqual(size, { width: Number(svg.attributes.width), height: Number(svg.attributes.height) });
    assert.equal(
      stdout(),
      `Wrote the map of realm "Brine Reach" (4 regions, 10 locations) to ${out} (${size.width} × ${size.height} px).\n`,
    );
  });

  test("-o map.svg writes the same SVG as stdout", async () => {
    const out = join(scratch.dir, "map.svg");
    const { code } = await runMap(HARBOR, { output: out });
    assert.equal(code, 0);
    assert.equal(readFileSync(out, "utf8"), (await runMap(HARBOR)).stdout);
  });

  test("--realm picks a realm by name, or by name in another case", async () => {
    const file = harborWith("two-realms.world.json", (w) => {
      w.realms.Undersea = { name: "Undersea", basicInfo: "Below." };
      w.regions.Kelp = { name: "Kelp", basicInfo: "Kelp.", x: 4, y: 4, realm: "Undersea" };
    });
    const first = parseXml((await runMap(file)).stdout);
    assert.equal(textOf(byClass(first, "realm-name")[0]!), "Brine Reach");
    const { code, stdout } = await runMap(file, { realm: "undersea" });
    assert.equal(code, 0);
    const svg = parseXml(stdout);
    assert.equal(textOf(byClass(svg, "realm-name")[0]!), "Undersea");
    assert.deepEqual(
      byClass(svg, "region").map((g) => g.attributes["data-region"]),
      ["Kelp"],
    );
  });
});

describe("taleforge map --save", () => {
  let save = "";
  before(async () => {
    const session = await createSession(harbor(), { ai: new DataAi() });
    const file = JSON.parse(session.save());
    file.state.known["Old Lighthouse"] = false;
    file.state.known["Fenmoor Downs"] = false;
    save = scratch.write("harbor.save.json", JSON.stringify(file));
  });

  test("styles places by the saved game's known flags and marks the party", async () => {
    const { code, stdout, stderr } = await runMap(HARBOR, { save });
    assert.equal(code, 0, stderr);
    const svg = parseXml(stdout);
    assert.deepEqual(
      byClass(svg, "region", "unknown").map((g) => g.attributes["data-region"]),
      ["Fenmoor Downs"],
    );
    assert.deepEqual(
      byClass(svg, "location", "unknown").map((g) => g.attributes["data-location"]),
      ["Old Lighthouse"],
    );
    const party = byClass(svg, "party");
    assert.equal(party.length, 1);
    assert.equal(party[0]!.attributes["data-location"], "Brinewick Docks");
  });

  test("a save of another world, a missing save, a folder, or not a save: exit 2", async () => {
    const other = await runMap(BASE_WORLD, { save });
    assert.equal(other.code, 2);
    assertOneLine(other.stderr);
    assert.match(other.stderr, /cannot use the save .*another world/);
    for (const [path, message] of [
      [join(scratch.dir, "none.save.json"), /no such file/],
      [scratch.dir, /it is a folder/],
      [scratch.write("junk.save.json", "{"), /not valid JSON/],
      [scratch.write("other.save.json", '{"format": "x"}'), /not a Taleforge save/],
    ] as const) {
      const result = await runMap(HARBOR, { save: path });
      assert.equal(result.code, 2, path);
      assert.equal(result.stdout, "");
      assertOneLine(result.stderr);
      assert.match(result.stderr, message);
    }
  });
});

describe("taleforge map: worlds with problems", () => {
  test("a world with errors: the map of what is valid, exit 1, a summary", async () => {
    const file = harborWith("broken-map.world.json", (w) => {
      w.locations["Old Lighthouse"].radius = "big";
    });
    const { code, stdout, stderr } = await runMap(file);
    assert.equal(code, 1);
    const svg = parseXml(stdout);
    assert.equal(byClass(svg, "location").length, 9, "the broken location is left out");
    assert.match(
      stderr,
      /has \d+ errors? \(.*shape\/wrong-type.*\); the map shows only the records that are well formed/,
    );
  });

  test("regions without a realm are not drawn, and a note says so", async () => {
    const file = harborWith("realmless.world.json", (w) => {
      delete w.regions["Drowned Flats"].realm;
      w.regions["Gull Coast"].realm = "";
    });
    const { stdout, stderr } = await runMap(file);
    const svg = parseXml(stdout);
    assert.deepEqual(
      byClass(svg, "region").map((g) => g.attributes["data-region"]),
      ["Brinewick", "Fenmoor Downs"],
    );
    assert.match(
      stderr,
      /taleforge: 2 regions have no realm and are on no realm map \(docs\/format\.md, regions\): "Gull Coast", "Drowned Flats"\.\n/,
    );
  });

  test("a realm with no region: an empty map and a note", async () => {
    const file = harborWith("empty-realm.world.json", (w) => {
      w.realms = { Void: { name: "Void", basicInfo: "Nothing." }, ...w.realms };
    });
    const { stdout, stderr } = await runMap(file);
    assert.equal(byClass(parseXml(stdout), "region").length, 0);
    assert.match(stderr, /realm "Void" has no region: the map is empty\./);
  });

  test("a mod fragment: exit 1 and the reason", async () => {
    const fragment = scratch.write("mod.json", '{"mods": [], "aiInstructions": {}}');
    const { code, stdout, stderr } = await runMap(fragment);
    assert.equal(code, 1);
    assert.equal(stdout, "");
    assertOneLine(stderr);
    assert.match(stderr, /mod fragment/);
  });
});

describe("taleforge map: could not run (exit 2, one line)", () => {
  const cases: [string, string, Record<string, unknown>, RegExp][] = [
    ["a missing file", join(scratch.dir, "nowhere.json"), {}, /Cannot find/],
    ["a folder", scratch.dir, {}, /is a directory/],
    [
      "an unknown realm, with a suggestion",
      HARBOR,
      { realm: "Brine Rech" },
      /there is no realm "Brine Rech" in .*\. Did you mean "Brine Reach"\? Realms: "Brine Reach"\./,
    ],
    ["an output that is neither .svg nor .png", HARBOR, { output: "map.jpg" }, /must end in \.svg or \.png/],
    ["an unwritable output", HARBOR, { output: join(scratch.dir, "no/dir/map.svg") }, /cannot write/],
    ["an option of the wrong type", HARBOR, { realm: true }, /--realm takes one value/],
  ];
  for (const [name, file, options, message] of cases) {
    test(name, async () => {
      const { code, stdout, stderr } = await runMap(file, options);
      assert.equal(code, 2);
      assert.equal(stdout, "");
      assertOneLine(stderr);
      assert.match(stderr, message);
    });
  }

  test("a world without realms has no map", async () => {
    const file = harborWith("no-realms.world.json", (w) => {
      w.realms = {};
      for (const region of Object.values(w.regions) as Record<string, unknown>[]) delete region.realm;
    });
    const { code, stdout, stderr } = await runMap(file);
    assert.equal(code, 2);
    assert.equal(stdout, "");
    assertOneLine(stderr);
    assert.match(stderr, /has no realm, so there is no realm map to draw/);
  });
});

describe("taleforge map on every shared world", () => {
  const files = sharedWorldFiles();
  test("the shared worlds are there", {
    skip: sharedWorldsAbsent(),
  }, () => {
    assert.ok(files.length > 0, `no world file in ${SHARED_WORLDS}`);
  });
  for (const file of files) {
    test(basename(file), async () => {
      const { loaded, checked } = await checkedWorld(file);
      const errors = checked.errorCount;
      const realms = Object.keys((loaded.value?.realms as object | undefined) ?? {});
      const { code, stdout, stderr } = await runMap(file);
      if (loaded.fatal) {
        assert.equal(code, 1);
        assert.equal(stdout, "");
        assertOneLine(stderr);
        return;
      }
      if (realms.length === 0) {
        assert.equal(code, 2, stderr);
        assertOneLine(stderr);
        assert.match(stderr, /has no realm/);
        return;
      }
      assert.equal(code, errors > 0 ? 1 : 0, stderr);
      // Every realm can be drawn, as SVG and PNG.
      for (const realm of realms) {
        const svg = await runMap(file, { realm });
        assert.doesNotThrow(() => parseXml(svg.stdout), realm);
      }
      const png = join(scratch.dir, `${basename(file)}.png`);
      await runMap(file, { output: png });
      assert.ok(pngSize(readFileSync(png)).width > 0);
    });
  }
});

test("docs/map.svg is the example world's map as drawn today", async () => {
  const { stdout } = await runMap(HARBOR);
  assert.ok(
    readFileSync(join(ROOT, "docs/map.svg"), "utf8") === stdout,
    "docs/map.svg is out of date: run `npx taleforge map examples/harbor.world.json -o docs/map.svg`",
  );
});
