import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import type { NarrationRequest } from "../../src/engine/ports.ts";
import type { World } from "../../src/world/schema/index.ts";

/**
 * Issue 35 item 6: offline, an NPC talked to answers from what the world says
 * anyone may know of them (basicInfo, personality, faction), in their voice
 * where the world gives them a line, and never from hiddenInfo. A fixture of
 * our own (test/fixtures/real-worlds/directives.world.json): Ada Reed and Old
 * Brann on the porch of the Fen Hut.
 */

const WORLD = JSON.parse(
  readFileSync(new URL("../fixtures/real-worlds/directives.world.json", import.meta.url), "utf8"),
) as World;
const ai = createOfflineProvider(WORLD);
const HIDDEN = Object.values(WORLD.npcs).map((n) => n.hiddenInfo ?? "");

function talk(text: string, target: string, answered = false): NarrationRequest {
  const npcs = ["Ada Reed", "Old Brann"];
  return {
    tick: 2,
    opening: false,
    actions: [{ player: "Kit", text }],
    intent: { intent: "interactNPC", target },
    instructions: [],
    event: null,
    scene: {
      position: { realm: "Vale", region: "Southmarsh", location: "Fen Hut", area: "Porch" },
      locationInfo: "A hut on stilts.",
      areaDescription: "Creaking boards.",
      npcsPresent: npcs.map((name) => ({ name, info: WORLD.npcs[name]!.basicInfo ?? "" })),
      party: [{ name: "Kit", level: 1, resources: {}, traits: [] }],
      recentStory: [],
    },
    outcomes: [],
    summary: "",
    summarise: null,
    journal: [],
    partyNextStep: null,
    ...(answered ? { actionsAnswered: true } : {}),
  } as NarrationRequest;
}

function noHidden(text: string) {
  for (const hidden of HIDDEN)
    for (const sentence of hidden.split(/(?<=[.!?])\s+/))
      if (sentence.trim() !== "") assert.ok(!text.includes(sentence.trim()), `hiddenInfo on screen: ${text}`);
  assert.doesNotMatch(text, /sold the flock|drowned the missing sheep/);
}

describe("offline NPC answers", () => {
  it("a question about a topic the NPC's public text names is answered from it", async () => {
    const { text } = await ai.narrate(talk("ask Brann about the channels through the reeds", "Old Brann"));
    assert.match(
      text,
      /Old Brann, gruff, tells you what they know of the channels through the reeds\./,
      text,
    );
    assert.ok(text.includes("He knows every channel through the reeds."), text);
    noHidden(text);
  });

  it("a topic the world gives no public word on: nothing to tell, never the hidden truth", async () => {
    const { text } = await ai.narrate(talk("ask Ada about the missing sheep and who sold them", "Ada Reed"));
    assert.match(text, /Ada Reed, blunt and tired, hears you out, but has nothing to tell you about/, text);
    noHidden(text);
  });

  it("talking with someone: their manner, their faction, and a line of their own in their voice", async () => {
    const ada = await ai.narrate(talk("talk to Ada", "Ada Reed"));
    assert.match(
      ada.text,
      /Ada Reed, blunt and tired, talks with you a while\. She speaks as one of the Millers\./,
    );
    const brann = await ai.narrate(talk("chat with Old Brann", "Old Brann"));
    assert.match(brann.text, /They say: “The marsh keeps what it takes\.”/, brann.text);
    noHidden(ada.text + brann.text);
  });

  it("no answer of its own when the world answered the action (a trigger fired on it)", async () => {
    const { text } = await ai.narrate(talk("talk to Ada", "Ada Reed", true));
    assert.doesNotMatch(text, /talks with you a while/);
  });
});
