import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { harbor, type Json } from "../helpers/author.ts";
import { playWith, scratchDir } from "./helpers.ts";

/**
 * A world's text told at the terminal (issue 34 item 11): the story start's opening holds an OSC
 * sequence (the window title) followed by a colour sequence; neither reaches the screen, whole or in
 * part ("[31m"), and the words around them do.
 */
test("a world opening holding an OSC sequence and then ESC[31m reaches the terminal with neither", async () => {
  const world: Json = harbor();
  const start = Object.values(world.storyStarts)[0] as Json;
  start.storyStart = `Fog on the quay.\u001b]0;pwned\u0007 The bell \u001b[31mrings\u001b[0m twice.\u009b2J Done.`;
  const dir = scratchDir();
  const file = join(dir.dir, "hostile.world.json");
  writeFileSync(file, JSON.stringify(world));
  const { code, out, err } = await playWith([file, "--premade", "Isobel Carrow"], ["/quit"]);
  assert.equal(code, 0, err);
  assert.match(out, /Fog on the quay\. The bell rings twice\. Done\./);
  assert.ok(!out.includes("\u001b"), "no ESC reaches the screen");
  assert.ok(!out.includes("\u009b"), "no 8-bit CSI reaches the screen");
  for (const piece of ["[31m", "[0m", "]0;pwned", "\\u001b", "2J"])
    assert.ok(!out.includes(piece), `nothing of a sequence is shown: ${piece}`);
});

/**
 * A world's own text beside the story (issue 34 item 12): names' descriptions, quests, items and the
 * map shown by /journal, /party, /inventory, /map and a turn's story come through the same
 * sanitiser as the narration: no ESC, and no "\u001b"-style escape either (the text is cleaned
 * where it enters the game, not escaped at the screen).
 */
test("a world's descriptions, quests and items holding escape sequences reach the terminal plain", async () => {
  const world: Json = harbor();
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== "object") return;
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      if (typeof inner === "string" && /^(basicInfo|description|title|text|content)$/.test(key))
        (value as Record<string, unknown>)[key] =
          `${inner.slice(0, 10)}\u001b]0;pwned\u0007\u001b[31m${inner.slice(10)}`;
      else visit(inner);
    }
  };
  visit(world);
  const dir = scratchDir();
  const file = join(dir.dir, "hostile-texts.world.json");
  writeFileSync(file, JSON.stringify(world));
  const { code, out, err } = await playWith(
    [file, "--premade", "Isobel Carrow"],
    ["look around", "/journal", "/party", "/inventory", "/map", "/quit"],
  );
  assert.equal(code, 0, err);
  assert.ok(!out.includes("\u001b"), "no ESC reaches the screen");
  for (const piece of ["[31m", "]0;pwned", "\\u001b"])
    assert.ok(!out.includes(piece), `nothing of a sequence is shown: ${piece}`);
});
