import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { test } from "node:test";
import { terminalSafeIo } from "../io.ts";
import { lineAfterGivenBack } from "./commands.ts";
import { lineSource } from "./lines.ts";

/**
 * At a terminal, readline draws the prompt with cursor moves (ESC [ 1G, ESC [ 0J):
 * they must reach the terminal as they are, not escaped by the guard that every
 * other write passes (they were printed as "\u001b[1G" for every prompt), while a
 * prompt holding outside text still has its control characters escaped.
 */
test("at a terminal the prompt's cursor moves pass, outside control characters in it do not", async () => {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  let guarded = "";
  let raw = "";
  const io = terminalSafeIo({
    stdout: (text) => {
      guarded += text;
    },
    stderr: () => {},
    isTTY: true,
    env: {},
    readStdin: async () => "",
    stdin,
    stdinIsTTY: true,
    rawStdout: (text) => {
      raw += text;
    },
  });
  const lines = lineSource(io);
  const line = lines.read("Mara\u001b]0;owned\u0007> ");
  stdin.write("look\r");
  assert.equal(await line, "look");
  lines.close();
  assert.equal(guarded, "", "readline writes only through rawStdout");
  assert.match(raw, /\u001b\[\d*G/, "readline's own cursor move is there");
  assert.ok(!raw.includes("\u001b]0;"), "the title-changing sequence of the prompt is escaped");
  assert.ok(!raw.includes("\\u001b[1G"), "no escaped cursor move");
});

/** Keys typed while the story prints are not echoed into it: they wait for the next prompt. */
test("at a terminal, typing ahead during the story echoes nothing until the next prompt shows it", async () => {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  let raw = "";
  const io = terminalSafeIo({
    stdout: () => {},
    stderr: () => {},
    isTTY: true,
    env: {},
    readStdin: async () => "",
    stdin,
    stdinIsTTY: true,
    rawStdout: (text) => {
      raw += text;
    },
  });
  const lines = lineSource(io);
  const first = lines.read("> ");
  stdin.write("look\r");
  assert.equal(await first, "look");
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  // The story prints; the player types a word, then a whole line.
  raw = "";
  stdin.write("wai");
  await settle();
  assert.equal(raw, "", "nothing echoed while the story prints");
  const second = lines.read("> ");
  await settle();
  assert.match(raw, /> wai(?:\u001b\[\d+G)?$/, "the next prompt shows what was typed ahead");
  stdin.write("t\r");
  assert.equal(await second, "wait");
  raw = "";
  stdin.write("go north\r");
  await settle();
  assert.equal(raw, "", "a line finished ahead is not echoed either");
  assert.equal(await lines.read("> "), "go north");
  assert.equal(raw, "> go north\n", "it is shown after its prompt when read");
  // Two lines in one chunk at a prompt (pasted): the second is ahead of its prompt, echoed there.
  const pasted = lines.read("> ");
  stdin.write("y\rclimb the stairs\r");
  assert.equal(await pasted, "y");
  raw = "";
  assert.equal(await lines.read("> "), "climb the stairs");
  assert.equal(raw, "> climb the stairs\n");
  lines.close();
});

/**
 * /undo puts the taken-back action on the next prompt's line; a slash command typed straight after
 * it reached the game as "walk north/undo" and was played as a turn. The command runs instead.
 */
test("a slash command typed after the action /undo gave back runs the command, not a turn", async () => {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  const io = terminalSafeIo({
    stdout: () => {},
    stderr: () => {},
    isTTY: true,
    env: {},
    readStdin: async () => "",
    stdin,
    stdinIsTTY: true,
    rawStdout: () => {},
  });
  const lines = lineSource(io);
  lines.prefill?.("walk north");
  const line = lines.read("> ");
  stdin.write("/undo\r");
  const read = await line;
  lines.close();
  assert.equal(read, "walk north/undo", "readline hands back the given-back text with what was typed");
  assert.equal(lineAfterGivenBack(read, "walk north"), "/undo");
  assert.equal(lineAfterGivenBack("walk north/SAVE game.json", "walk north"), "/SAVE game.json");
  assert.equal(lineAfterGivenBack("walk north /help", "walk north"), "/help");
  // Not a command, or nothing given back: the line is played as typed.
  assert.equal(lineAfterGivenBack("walk north/south", "walk north"), "walk north/south");
  assert.equal(lineAfterGivenBack("walk north/undo", undefined), "walk north/undo");
  assert.equal(lineAfterGivenBack("look/undo", "walk north"), "look/undo");
});
