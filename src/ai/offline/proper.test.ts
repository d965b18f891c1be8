import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { properNames, withProperNames } from "./proper.ts";

const HARBOR = JSON.parse(
  readFileSync(new URL("../../../examples/harbor.world.json", import.meta.url), "utf8"),
);
const names = properNames(HARBOR);

test("a player's words get the world's capitals for its names, and only its names (issue 14)", () => {
  const cases: [string, string][] = [
    ["You ask mara about her father.", "You ask Mara about her father."],
    ["You ask MARA VENN about the lamp.", "You ask Mara Venn about the lamp."],
    ["You say: “mara venn's lamp, where is it?”", "You say: “Mara Venn's lamp, where is it?”"],
    ["You walk to the gutted eel.", "You walk to the Gutted Eel."],
    ["You ask slade about the widows' cairn.", "You ask Slade about the Widows' Cairn."],
    ["You throw salt at the salt widow.", "You throw salt at the Salt Widow."],
    // Place words count only inside the whole name; one-word areas are common nouns.
    ["You light the lighthouse lamp.", "You light the lighthouse lamp."],
    ["You search the stairwell.", "You search the stairwell."],
    ["You look for the old lighthouse.", "You look for the Old Lighthouse."],
    ["You ask about brinewick.", "You ask about Brinewick."],
    // Only the case changes; words that merely contain a name are left alone.
    ["You mention maraschino cherries.", "You mention maraschino cherries."],
    ["You ask maras about it.", "You ask maras about it."],
  ];
  for (const [typed, told] of cases) assert.equal(withProperNames(typed, names), told, typed);
});

test("hostile names and long texts stay linear and change nothing but case", () => {
  const world = {
    npcs: { [`${"Ab ".repeat(3000)}Cd`]: {}, "(.*)+$": {}, "Éloïse Marchand": {} },
    locations: { Ḉ: { basicInfo: 42, areas: { "": {} } } },
  };
  const hostile = properNames(world);
  const text = `éloïse ${"ab ".repeat(20_000)}(.*)+$`;
  const out = withProperNames(text, hostile);
  assert.equal(out.toLowerCase(), text.toLowerCase());
  assert.ok(out.startsWith("Éloïse "));
  assert.deepEqual(properNames(null), { phrases: new Map(), words: new Map() });
});
