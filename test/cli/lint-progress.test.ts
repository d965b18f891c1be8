/**
 * Issue 15 item 13: `taleforge lint` shows a progress bar on stderr for long
 * work (LONG_LINT_TRIGGERS or more triggers), only when stderr is a terminal;
 * otherwise what it prints is byte for byte what it printed without one.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { describe, test } from "node:test";
import { LONG_LINT_TRIGGERS, lint } from "../../src/cli/lint.ts";
import { BASE_WORLD, captureIo, scratchDir } from "./helpers.ts";

const scratch = scratchDir();

/** The base world with `count` triggers, each firing on its own tick. */
function worldWithTriggers(name: string, count: number): string {
  const world = JSON.parse(readFileSync(BASE_WORLD, "utf8")) as { triggers: Record<string, unknown> };
  for (let i = 0; i < count; i++)
    world.triggers[`tick_${i}`] = {
      name: `tick_${i}`,
      conditions: [{ type: "game-tick", operator: "equals", value: i + 2 }],
      effects: [{ type: "write-number", key: `seen_${i}`, operator: "set", value: i }],
    };
  return scratch.write(name, `${JSON.stringify(world, null, 2)}\n`);
}

/** A stream that records what is written to it, a terminal or not. */
class FakeStream extends Writable {
  text = "";
  columns = 100;
  constructor(readonly isTTY: boolean) {
    super();
  }
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString("utf8");
    done();
  }
}

const LONG = worldWithTriggers("long.world.json", LONG_LINT_TRIGGERS);
const SHORT = worldWithTriggers("short.world.json", 3);

async function lintWith(file: string, format: string, stream?: FakeStream) {
  const captured = captureIo();
  if (stream) captured.io.progressStream = stream;
  const code = await lint(file, { format }, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

describe("lint: progress of long work", () => {
  test("on a terminal, a long lint draws a bar, then clears it", async () => {
    const tty = new FakeStream(true);
    const withBar = await lintWith(LONG, "json", tty);
    assert.match(tty.text, /linting \d+ triggers \[.*\] 100% \((\d+)\/\1 rules\)/);
    // clearOnComplete: the line is erased (ESC [ 2K) once the work ends, so the report starts clean.
    assert.ok(tty.text.endsWith("\x1b[2K"), JSON.stringify(tty.text.slice(-20)));
    // The report itself (stdout, stderr through io) is unchanged by the bar.
    const plain = await lintWith(LONG, "json");
    assert.deepEqual(withBar, plain);
  });

  for (const format of ["json", "stylish", "sarif"]) {
    test(`not a terminal (${format}): nothing drawn, output byte-identical`, async () => {
      const piped = new FakeStream(false);
      const withStream = await lintWith(LONG, format, piped);
      const without = await lintWith(LONG, format);
      assert.equal(piped.text, "");
      assert.deepEqual(withStream, without);
    });
  }

  test("short work draws no bar, even on a terminal", async () => {
    const tty = new FakeStream(true);
    await lintWith(SHORT, "json", tty);
    assert.equal(tty.text, "");
  });
});
