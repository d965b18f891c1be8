import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { check } from "../../src/cli/check.ts";
import { map } from "../../src/cli/map.ts";
import { MAX_ACTION_CHARS } from "../../src/engine/input.ts";
import { BASE_WORLD, captureIo, playWith, ROOT, runWorldCommand, scratchDir } from "../cli/helpers.ts";
import { start } from "../engine/helpers.ts";

const scratch = scratchDir();
const baseText = readFileSync(BASE_WORLD, "utf8");

describe("smaller hostile inputs (issue 15 item 14)", () => {
  for (const [name, bytes] of [
    [
      "UTF-16LE with a byte order mark",
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(baseText, "utf16le")]),
    ],
    ["UTF-16LE without one", Buffer.from(baseText, "utf16le")],
    ["UTF-16BE", Buffer.from(baseText, "utf16le").swap16()],
  ] as const) {
    test(`a ${name} world: file/encoding, "save the file as UTF-8", no NUL printed`, async () => {
      const file = scratch.write(`${name.replace(/\W+/g, "-")}.world.json`, bytes);
      for (const format of ["stylish", "json"]) {
        const { io, stdout, stderr } = captureIo();
        const code = await check(file, { format }, io);
        assert.equal(code, 1);
        const out = stdout() + stderr();
        assert.match(out, /file\/encoding/);
        assert.match(out, /Save the file as UTF-8/);
        assert.doesNotMatch(out, /\u0000/);
      }
    });
  }

  test(`an action longer than ${MAX_ACTION_CHARS} characters is refused with turn/too-long; the session is unchanged`, async () => {
    const { session } = await start();
    const before = session.save();
    await assert.rejects(session.turn({ actions: [{ player: "Player", text: "a".repeat(10_000_000) }] }), {
      code: "turn/too-long",
      message: /is 10000000 characters; the limit is 2000/,
    });
    assert.equal(session.save(), before);
    await session.turn({ actions: [{ player: "Player", text: "a".repeat(MAX_ACTION_CHARS) }] });
  });

  test("play: three 1 MB lines do not grow the save; each says the limit", async () => {
    const save = join(scratch.dir, "long-lines.json");
    const line = "x".repeat(1_000_000);
    const { code, out } = await playWith(
      [join(ROOT, "examples/harbor.world.json"), "--premade", "Isobel Carrow", "--save", save],
      [line, line, line, "look", "/quit"],
    );
    assert.equal(code, 0);
    assert.equal(out.match(/the limit is 2000/g)?.length, 3, out.slice(0, 2000));
    assert.ok(readFileSync(save, "utf8").length < 200_000);
  });

  test("map: a PNG of a realm thousands of regions long is refused, naming the limit", async () => {
    const world = JSON.parse(baseText);
    const realm = Object.keys(world.realms)[0];
    for (let x = 2; x < 5002; x++)
      world.regions[`R${x}`] = { name: `R${x}`, realm, x, y: 0, basicInfo: "Flat." };
    const file = scratch.write("long.world.json", JSON.stringify(world));
    const { code, stderr } = await runWorldCommand(map, file, { output: join(scratch.dir, "long.png") });
    assert.equal(code, 2, stderr);
    assert.match(stderr, /each region under 8 px\. Write an SVG instead/);
  });
});
