import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { playAtTerminal, ROOT } from "./helpers.ts";

/**
 * `taleforge play` at a terminal asks who plays before the game starts. The
 * slash commands that make sense then work at those prompts: /quit leaves,
 * /help says what to do; the game's own commands say they come later.
 */
const EXAMPLE = join(ROOT, "examples/harbor.world.json");

describe("taleforge play at a terminal, before the game starts", () => {
  test("/quit at the character choice leaves without playing", async () => {
    const { code, out } = await playAtTerminal([EXAMPLE, "--seed", "11"], ["/quit"]);
    assert.equal(code, 0);
    assert.match(out, /Who will you play\?/);
    assert.doesNotMatch(out, /Type a number/);
    assert.match(out, /Farewell\./);
    assert.doesNotMatch(out, /Taleforge ·/, "no game started");
  });

  test("/help explains the prompt; the game's commands and typos say what works here", async () => {
    const { code, out } = await playAtTerminal(
      [EXAMPLE, "--seed", "11"],
      ["/help", "/quests", "/qit", "2", "/HELP", "/exit"],
    );
    assert.equal(code, 0);
    assert.doesNotMatch(out, /Type a number/);
    assert.match(out, /Answer the question above: type a number and press Enter/);
    assert.match(out, /\/quit +leave without playing/);
    assert.match(out, /\/quests works once the game has started\. Here: \/help, \/quit\./);
    assert.match(out, /Unknown command \/qit\. Did you mean "quit"\? Here: \/help, \/quit\./);
    // At the name prompt of a new character too: /help answers and the name is asked again.
    assert.equal(out.match(/Answer the question above/g)?.length, 2);
    assert.equal(out.match(/Your character's name: /g)?.length, 2);
    assert.match(out, /Farewell\./);
    assert.doesNotMatch(out, /Taleforge ·/, "no game started");
  });

  test("/quit when asked for another player leaves instead of starting with the first", async () => {
    const { code, out } = await playAtTerminal([EXAMPLE, "--seed", "11"], ["1", "/quit"]);
    assert.equal(code, 0);
    assert.match(out, /Add another player at this keyboard\?/);
    assert.match(out, /Farewell\./);
    assert.doesNotMatch(out, /Taleforge ·/, "no game started");
  });

  test("an action typed when asked for another player is not taken for a no: the question is asked again", async () => {
    const { code, out } = await playAtTerminal(
      [EXAMPLE, "--seed", "11", "--no-save"],
      ["1", "walk to the Gutted Eel", "", "/quit"],
    );
    assert.equal(code, 0);
    assert.match(out, /Type y to add another player, or press Enter to start the game\./);
    assert.equal(out.match(/Add another player at this keyboard\?/g)?.length, 2);
    assert.match(out, /Taleforge ·/, "Enter started the game");
  });

  test("after the character is chosen the game starts and its own /help lists every command", async () => {
    const { code, out } = await playAtTerminal([EXAMPLE, "--seed", "11"], ["1", "n", "/help", "/quit"]);
    assert.equal(code, 0);
    assert.match(out, /Taleforge ·/);
    assert.match(out, /\/quests +your journal/);
    assert.match(out, /Farewell\./);
  });
});

describe("taleforge play at an 80-column terminal", () => {
  test("no line passes 80 columns: the header, /help and the warning that an offer lapses are wrapped", async () => {
    const { code, out } = await playAtTerminal(
      [EXAMPLE, "--seed", "11"],
      ["1", "n", "/help", "walk to the Saltlight Temple", "look around", "look around", "/quit"],
    );
    assert.equal(code, 0);
    assert.match(out, /lapses after this turn: \/accept The\s+Tongueless\s+Bell takes it\./);
    const wide = out.split("\n").filter((line) => line.length > 80);
    assert.deepEqual(wide, []);
    // /help's lists keep their columns: no description runs on under the command names.
    const help = out.slice(out.indexOf("  /help "), out.indexOf("With several players"));
    for (const line of help.split("\n").filter((l) => l.startsWith("  ")))
      assert.match(line, /^ {2}\//, `a /help line that is not a command: ${line}`);
  });
  test("a trait is picked by its name as well as its number", async () => {
    const { code, out } = await playAtTerminal(
      [EXAMPLE, "--seed", "11", "--no-save"],
      ["2", "Wren", "outlander", "fog sighted", "", "", "/party", "/quit"],
    );
    assert.equal(code, 0);
    assert.match(out, /A number \(or a name\), or Enter for none: /);
    assert.doesNotMatch(out, /Type numbers from/);
    assert.match(out, /Traits: Outlander, Fog-Sighted/);
  });
});
