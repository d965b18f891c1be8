import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import {
  chooseBranch,
  evidenceOf,
  isNarratorOnly,
  pruneBranches,
  verbatimPassage,
} from "../../src/ai/offline/narrator-only.ts";
import type { NarrationRequest } from "../../src/engine/ports.ts";
import { HARBOR, narrationRequest } from "./offline-helpers.ts";

/**
 * Issue 18 (6) and issue 14 (1): text written for the narrator never reaches
 * the player. The instructions below are written in the styles real authors
 * use (the story starts, `story` effects and aiInstructions of the public
 * worlds in shared/worlds, and the patterns the issues quote): directions to
 * the narrator, hidden state, conditionals about what the player might do,
 * Markdown headings over idea lists, gates, conditional beats. Each must come
 * out as prose for the player, or not at all.
 */

const ai = createOfflineProvider(HARBOR);
const narrate = (request: NarrationRequest) => ai.narrate(request);

/** Words that only narrator-only text has: none of them may appear in what the player reads. */
const LEAKS =
  /should not be contradicted|true world state|this instruction|the narrator|the response|verbatim|depending on|set the scene|make it clear|disregard|the player|ideas for|^#|\n#|\n- |generate a|draw on world lore|incorporate|the opening should|in case the|do not reveal|whether (?!to)[^.]*\bor\b|either [^.]*\bor\b/i;

/** [instruction, prose that must be kept ("" when nothing of it is for the player)]. */
const CASES: [string, string][] = [
  // Directions of a story start (hosted-platform style).
  [
    "Set the scene in the Long Wells Inn at midmorning. Make it clear that the road is open in every direction.",
    "",
  ],
  [
    "Generate a story start appropriate to the player's chosen traits. Draw on world lore to create a specific situation in a concrete location.",
    "",
  ],
  ["The opening should present clear immediate circumstances while leaving many paths forward.", ""],
  [
    "Incorporate aspects of the character's background without forcing them into a predetermined narrative.",
    "",
  ],
  ["Set the scene at the quay and end without further complications.", ""],
  [
    "Begin the response with the following passage rendered verbatim: 'The bells of Reedmere ring twice, and the fleet puts out.' Then continue the scene naturally.",
    "The bells of Reedmere ring twice, and the fleet puts out.",
  ],
  [
    'Render the following text word for word: "Nobody crosses the Broken Road after dark."',
    "Nobody crosses the Broken Road after dark.",
  ],
  // Hidden state.
  [
    "The broker at the corner table is secretly a college informant. This is true world state and should not be contradicted.",
    "",
  ],
  ["Mira Coyle owes the guild forty silver. This is true world state and should not be contradicted.", ""],
  ["The cellar door is barred from the inside. Do not reveal this unless the party tries the door.", ""],
  ["Old Mirek's bundle holds love letters. Keep this secret until the bundle is opened.", ""],
  // Gates.
  [
    "Disregard this instruction if the player is not asking about the guild. The clerk explains that dues are paid monthly.",
    "",
  ],
  ["Only use this if the party asks about the road. The road north is washed out past the ford.", ""],
  ["Ignore this unless the player mentions the wolves.", ""],
  // Markdown headings and idea lists.
  [
    "## Ideas for the narrator\n- a crow lands on the sill\n- the innkeeper drops a cup\n- a stranger asks for directions",
    "",
  ],
  ["### Tone\nKeep it light and warm.\n- jokes at the bar\n- a dog under the table", ""],
  ["**Possible complications:**\n1. The cart loses a wheel.\n2. A toll-keeper demands coin.", ""],
  ["Ideas:\n- rain on the shutters\n- a lost glove", ""],
  // Style directions.
  ["Keep descriptive passages efficient, but allow dialogue to breathe.", ""],
  ["Avoid mentioning the player's inventory unless it is relevant.", ""],
  ["Use simple, literal language in the present tense.", ""],
  ["Be concrete and specific.", ""],
  ["Do not use elves or dwarves; they do not exist here.", ""],
  ["Never introduce new threats in the immediate aftermath.", ""],
  ["Always name precise details like colours and materials.", ""],
  ["Show, don't tell, the effects of speech and actions.", ""],
  ["Vary the threat across the bestiary by region and tier.", ""],
  ["Establish who the character is before the setting.", ""],
  // Conditionals about what the player might do.
  ["If the player asks about the posting-board, the broker points at the fresh contracts.", ""],
  ["When the party tries to leave, the guard steps into the doorway.", ""],
  ["Should the player attack, the wolves scatter into the trees.", ""],
  ["In case the party lingers, let the innkeeper ask them to order something.", ""],
  // Conditional beats (issue 14).
  [
    "A washed, pale dawn, with wreckage or none depending on what happened in the night, the gulls returning.",
    "A washed, pale dawn, the gulls returning.",
  ],
  ["Whether she has climbed out to find them or they have come to her, she is soaked and grinning.", ""],
  ["Either the bridge holds or it falls into the gorge.", ""],
  ["The stranger may or may not be armed, as appropriate.", ""],
  // Prose that must stay.
  [
    "The lamp of the watchtower is burning, and the road below is quiet.",
    "The lamp of the watchtower is burning, and the road below is quiet.",
  ],
  [
    "Two salvagers drift in and stand by the door, saying nothing.",
    "Two salvagers drift in and stand by the door, saying nothing.",
  ],
];

function request(instruction: string, recentStory: string[] = []): NarrationRequest {
  const base = narrationRequest({
    actions: [{ player: "Isobel Carrow", text: "look around" }],
    instructions: [instruction],
  });
  base.scene.recentStory = recentStory;
  return base;
}

describe("offline narration: narrator-only text never reaches the player", () => {
  it(`has at least 30 instruction styles (${CASES.length})`, () => {
    assert.ok(CASES.length >= 30);
  });
  for (const [instruction, kept] of CASES) {
    it(`${instruction.slice(0, 70).replace(/\n/g, " | ")}`, async () => {
      const { text } = await narrate(request(instruction));
      assert.doesNotMatch(text, LEAKS, text);
      if (kept) assert.ok(text.includes(kept), `expected "${kept}" in:\n${text}`);
      // Nothing of the instruction's own wording is echoed when nothing was for the player.
      if (!kept) {
        const words = instruction.split(/\s+/).slice(0, 6).join(" ");
        assert.ok(!text.includes(words), `"${words}" leaked:\n${text}`);
      }
    });
  }

  it("a gate that holds lets the instruction through", async () => {
    const asked = request(
      "Disregard this instruction if the player is not asking about the guild rank. The clerk explains that dues are paid monthly.",
    );
    asked.actions = [{ player: "Isobel Carrow", text: "I ask the clerk about my guild rank" }];
    const { text } = await narrate(asked);
    assert.ok(text.includes("The clerk explains that dues are paid monthly."), text);
    assert.doesNotMatch(text, /disregard/i);
  });

  it("never tells the same instruction twice: not in one turn, not after a recent turn told it", async () => {
    const line = "The fog thickens until you can barely see your own hands.";
    const twice = request("The fog thickens until the party can barely see their own hands.");
    twice.instructions = [twice.instructions[0]!, twice.instructions[0]!];
    const first = await narrate(twice);
    assert.equal(first.text.split(line).length - 1, 1, first.text);
    const again = await narrate(request(twice.instructions[0]!, [`You look around.\n\n${line}`]));
    assert.ok(!again.text.includes(line), again.text);
  });

  it("the opening never prints a word of a story start written for the narrator, not even its prose-like sentences", async () => {
    const opening = narrationRequest(
      { tick: 0, opening: true, actions: [], intent: null },
      "Brinewick Docks",
      "Pier End",
    );
    opening.scene.openingText =
      "You sit at a heavy table in the common room. Set the scene in the inn at midmorning. Make it clear that the road is open. End without further complications. A broker reads the room.";
    const { text } = await narrate(opening);
    // Issue 35: decided per text; the sentences around the directions are the writer's notes too.
    assert.ok(!/heavy table|broker reads/.test(text), text);
    assert.ok(text.startsWith("Pier End, Brinewick Docks."), text);
    assert.doesNotMatch(text, LEAKS);
    const random = narrationRequest(
      { tick: 0, opening: true, actions: [], intent: null },
      "Brinewick Docks",
      "Pier End",
    );
    random.scene.openingText =
      "Generate a story start appropriate to the player's chosen traits. Draw on world lore to create a specific situation in a concrete location.";
    const generated = await narrate(random);
    assert.doesNotMatch(generated.text, LEAKS);
    assert.ok(generated.text.startsWith("Pier End, Brinewick Docks."), generated.text);
  });

  it("imperatives addressed to the player are prose", () => {
    assert.equal(isNarratorOnly("Direct your approach carefully."), false);
    assert.equal(
      isNarratorOnly("Clear the vermin and secure the harvest, and this contract will hold."),
      false,
    );
    assert.equal(isNarratorOnly("Make your way to the gate before the bell."), false);
    assert.equal(isNarratorOnly("First light, and the fog has not decided whether to leave."), false);
    assert.equal(isNarratorOnly("'Do not tell the player,' she whispers."), false, "dialogue is prose");
  });

  it("verbatim passages and pruned branches", () => {
    assert.equal(verbatimPassage("Begin with this passage verbatim: 'Rain.' Then go on."), "Rain.");
    assert.equal(verbatimPassage("Describe the rain."), null);
    assert.equal(pruneBranches("The hall is quiet."), "The hall is quiet.");
    assert.equal(pruneBranches("Depending on the hour, the hall is quiet."), "");
  });

  it("an either-or branch is chosen by a statement of it, never by words scattered over the story", () => {
    const either = "Either the bridge holds and the cart crosses, or the river takes the planks.";
    const holds = "The bridge holds and the cart crosses.";
    assert.equal(chooseBranch(either, evidenceOf(["The bridge creaks. The cart waits. Planks."])), null);
    assert.equal(chooseBranch(either, evidenceOf(["At last the old bridge holds under the wheels."])), holds);
    assert.equal(
      chooseBranch(either, evidenceOf(["The bridge never holds."])),
      null,
      "a denial states nothing",
    );
    assert.equal(
      chooseBranch(either, evidenceOf(["The bridge sways in the wind, and the driver holds his breath."])),
      null,
      "two clauses, two statements",
    );
    // What the text around the branch names decides nothing: "bridge" is the scene, "holds" decides.
    const background = new Set(["bridg"]);
    assert.equal(chooseBranch(either, evidenceOf(["The bridge is the bridge."]), background), null);
    assert.equal(
      chooseBranch(either, evidenceOf(["The river takes the planks."])),
      "The river takes the planks.",
    );
  });
});
