import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, test } from "node:test";
import type { CliIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/main.ts";
import { applyPatch } from "../../src/world/patch.ts";
import { terminalSafe } from "../../src/world/terminal-text.ts";
import { BASE_WORLD, captureIo, scratchDir } from "../cli/helpers.ts";

/**
 * Escape sequences planted in world text, script logs and errors, keys and
 * file names never reach the terminal raw, in any command or format
 * (issue 15 item 11). Colour is on (a terminal) so that Taleforge's own SGR
 * sequences are printed too: only those may pass.
 */
const ESC = "\u001b";
const ATTACKS = [
  `${ESC}]0;pwned${ESC}\\`, // window title (OSC 0)
  `${ESC}]52;c;ZWNobyBwd25lZA==\u0007`, // clipboard write (OSC 52)
  `${ESC}]8;;http://evil.example/${ESC}\\link${ESC}]8;;${ESC}\\`, // hyperlink (OSC 8)
  `${ESC}[2J${ESC}[H`, // clear screen, cursor home
  `${ESC}[8mhidden${ESC}[0m`, // concealed text
  "\u009b2J", // 8-bit CSI
  "over\rwrite",
  "\u202eevil", // right-to-left override
];
const BAD = ATTACKS.join(" ");

/** What may reach a terminal: printable text, newline, tab, and Taleforge's own colour codes. */
function assertSafe(output: string, where: string): void {
  const withoutColours = output.replace(/\u001b\[(?:0|1|2|3|4|22|23|24|31|32|33|34|35|36|39|90)m/g, "");
  const bad = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.exec(withoutColours);
  assert.equal(bad, null, `${where}: raw control character U+${bad?.[0].charCodeAt(0).toString(16)} printed`);
}

const scratch = scratchDir();
const base = JSON.parse(readFileSync(BASE_WORLD, "utf8"));
const world = applyPatch(base, {
  worldLore: { "The River": { text: `The fen. ${BAD}` } },
  locations: {
    "Old Mill": { basicInfo: `A mill. ${BAD}`, areas: { Millyard: { description: `Muddy. ${BAD}` } } },
  },
  npcs: { "Ada Reed": { basicInfo: `A shepherd. ${BAD}` } },
  triggers: {
    [`bad_key${ESC}[2J`]: {
      name: `bad_key${ESC}[2J`,
      conditions: [{ type: "game-tick", operator: "equals", value: 1 }],
      effects: [{ type: "write-string", key: `k${ESC}[2J`, operator: "set", value: BAD }],
    },
    noisy: {
      name: "noisy",
      recurring: true,
      conditions: [{ type: "game-tick", operator: "greaterThan", value: 0 }],
      effects: [],
      script: `log(${JSON.stringify(BAD)}); throw new Error(${JSON.stringify(BAD)});`,
    },
  },
});
const worldFile = scratch.write("hostile.world.json", JSON.stringify(world, null, 2));
/** A file that is not JSON, with raw escapes on the line its code frame shows. */
const brokenFile = scratch.write("broken.world.json", `{\n  "a": 1 ${BAD}\n}\n`);

async function cli(argv: string[], input: string[] = []) {
  const captured = captureIo({ isTTY: true, env: {} });
  const io: CliIo = {
    ...captured.io,
    stdin: Readable.from(input.map((line) => `${line}\n`)),
    stdinIsTTY: false,
    cwd: scratch.dir,
  };
  const code = await run(argv, io);
  return { code, out: captured.stdout() + captured.stderr() };
}

describe("nothing any command prints can drive the terminal (issue 15 item 11)", () => {
  test("terminalSafe keeps Taleforge's colours and escapes every other control character", () => {
    assert.equal(terminalSafe(`${ESC}[31mred${ESC}[39m`), `${ESC}[31mred${ESC}[39m`);
    assert.equal(terminalSafe(`${ESC}[2J`), "\\u001b[2J");
    assert.equal(terminalSafe(`${ESC}[8m`), "\\u001b[8m");
    assert.equal(terminalSafe("a\tb\nc"), "a\tb\nc");
    assertSafe(terminalSafe(BAD), "terminalSafe");
  });

  for (const format of ["stylish", "json", "sarif"]) {
    test(`check --format ${format}, on a world and on a broken file`, async () => {
      for (const file of [worldFile, brokenFile]) {
        const { out } = await cli(["check", "--format", format, file]);
        assertSafe(out, `check ${format}`);
      }
    });
  }

  test("check warns about the control characters (text/control-characters)", async () => {
    const { out } = await cli(["check", "--format", "json", worldFile]);
    assert.match(out, /text\/control-characters/);
  });

  test("lint, graph (mermaid, dot, svg), map", async () => {
    for (const argv of [
      ["lint", worldFile],
      ["graph", worldFile],
      ["graph", "--format", "dot", worldFile],
      ["graph", "--format", "svg", worldFile],
      ["map", worldFile],
    ]) {
      const { out } = await cli(argv);
      assertSafe(out, argv.join(" "));
    }
  });

  test("play with --trace: narration, views, /trace all, script logs and errors", async () => {
    const { code, out } = await cli(
      ["play", worldFile, "--trace", "--premade", "Wren"],
      ["look around", "wait", "/trace all", "/party", "/map", "/storage", "/quit"],
    );
    if (process.env.DEBUG_OUT) console.log(out);
    assert.equal(code, 0, out);
    assert.match(out, /pwned/, "the planted text is printed, escaped");
    assertSafe(out, "play");
    assert.doesNotMatch(out, /\\u001b\[1mNew quest/, "Taleforge's own colours are not escaped");
  });

  test("a file name with escapes, in the one-line error", async () => {
    const { code, out } = await cli(["check", join(scratch.dir, `missing${ESC}]0;x\u0007.json`)]);
    assert.equal(code, 2);
    assertSafe(out, "missing file");
  });

  test("explain and test", async () => {
    const save = join(scratch.dir, "game.json");
    await cli(["play", worldFile, "--save", save], ["wait", "/quit"]);
    const explained = await cli(["explain", worldFile, "--save", save, "--act", `look ${BAD}`]);
    assertSafe(explained.out, "explain");
    const playtest = scratch.write(
      "hostile.test.yaml",
      `world: ${JSON.stringify(worldFile)}\nturns:\n  - act: ${JSON.stringify(`wait ${BAD}`)}\n    expect: { fired: [noisy] }\n`,
    );
    const tested = await cli(["test", playtest]);
    assertSafe(tested.out, "test");
  });
});
