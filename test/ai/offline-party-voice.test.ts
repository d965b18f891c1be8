import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import { quoteSpans } from "../../src/ai/offline/person.ts";
import { narrationPrompt } from "../../src/ai/prompts/index.ts";
import { createSession } from "../../src/engine/session.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import { parseWorld } from "../../src/world/load.ts";
import type { World } from "../../src/world/schema/index.ts";
import { validateWorld } from "../../src/world/validate.ts";
import { DESERT_CARAVAN, generatedWorld, inventedVocabulary } from "../helpers/generated-world.ts";
import { readWalkthrough } from "../helpers/walkthrough.ts";
import { HARBOR, narrationRequest } from "./offline-helpers.ts";

/**
 * A party is never one "you" (issue 34 item 2, its leftovers): with several players the offline
 * narration tells every line in the third person, the characters by name and the rest as "the
 * party": its closing question, the world's texts written to "you" (a story start, an NPC's
 * answer, a trigger's story), on turns where only one of them acted too. Alone, a player stays
 * "you". Asserted on every narration of the example world's walkthrough and of generated worlds.
 */

const sandbox = createSandbox();
after(() => sandbox.close());

/** The words of the second person in a text, outside quotations (what a character says may say "you"). */
function secondPerson(text: string): string[] {
  return quoteSpans(text)
    .filter((span) => !span.quoted)
    .flatMap(
      (span) =>
        span.text.match(/\b(?:you|your|yours|yourself|yourselves)\b|\byou['’](?:re|ve|ll|d)\b/gi) ?? [],
    );
}

function assertNoYou(story: string, what: string): void {
  assert.deepEqual(secondPerson(story), [], `${what} speaks to "you" in a party game:\n${story}`);
}

async function play(world: World, players: string[], storyStart?: string) {
  return createSession(world, {
    players: players.map((name) => ({ name })),
    ...(storyStart ? { storyStart } : {}),
    ai: createOfflineProvider(world),
    scripts: sandbox,
    seed: 3,
    validate: false,
  });
}

describe("the offline narrator in a party game", () => {
  it("tells the example world's walkthrough to a party of two without one 'you', a lone player with it", async () => {
    const walkthrough = readWalkthrough();
    const party = await play(HARBOR, ["Ada", "Bram"], walkthrough.storyStart);
    assertNoYou(party.opening!.story, "the opening");
    const closings = new Set<string>();
    for (const [i, step] of walkthrough.steps.entries()) {
      // Bram acts on every other turn; on the others only Ada does (Bram passed).
      const actions = [{ player: "Ada", text: step.command }];
      if (i % 2 === 1) actions.push({ player: "Bram", text: "look around" });
      const { story } = await party.turn({ actions });
      assertNoYou(story, `turn ${i + 1} (${step.command})`);
      closings.add(story.split("\n\n").at(-1)!);
    }
    assert.ok(closings.has("What does the party do?") || closings.has("What does the party do next?"));
    // The world's texts are still told, of the party: Mara's plea is in the story.
    const told = party.state.history.story.map((s) => s.text).join("\n");
    assert.match(told, /asks (?:the party|them) to go east/);
    assert.match(told, /The party stands at the seaward end of Brinewick's longest pier/);

    const alone = await play(HARBOR, ["Ada"], walkthrough.storyStart);
    assert.match(alone.opening!.story, /You stand at the seaward end/);
    const { story } = await alone.turn({ actions: [{ player: "Ada", text: "walk to the Gutted Eel" }] });
    assert.match(story, /^You walk to the Gutted Eel\./);
    assert.match(story, /What do you do\?|What do you do next\?|What now\?$/);
  });

  for (const vocabulary of [DESERT_CARAVAN, inventedVocabulary(7)]) {
    it(`${vocabulary.theme}: a generated world's party game never says "you"`, async () => {
      const world = validateWorld(parseWorld(JSON.stringify(generatedWorld(vocabulary)))).world!;
      const party = await play(world, ["Kit", "Lou", "Max"]);
      assertNoYou(party.opening!.story, "the opening");
      const person = vocabulary.npcs.find((n) => n.location === 0)!.name;
      const turns = [
        [{ player: "Kit", text: `talk to ${person}` }],
        [{ player: "Lou", text: "look around" }],
        [
          { player: "Kit", text: `walk to ${vocabulary.locations[1]!.name}` },
          { player: "Max", text: "what should we do?" },
        ],
        [{ player: "Max", text: `walk to ${vocabulary.nowhere}` }],
        [{ player: "Kit", text: "I rest by the fire" }],
      ];
      for (const actions of turns) {
        const { story } = await party.turn({ actions });
        assertNoYou(story, `${actions.map((a) => `${a.player}: ${a.text}`).join(" / ")}`);
      }
    });
  }
});

describe("the narrator's prompt in a party game", () => {
  it("asks a model for the third person when several players share the game, the world's second person alone", () => {
    const system = (players: string[]) => {
      const request = narrationRequest({
        actions: [{ player: players[0]!, text: "look around" }],
        context: {
          storyStart: "dawn",
          sheets: players.map((name) => ({
            name,
            kind: "player" as const,
            max: {},
            items: {},
            abilities: [],
          })),
          turns: [],
        },
      } as never);
      const messages = narrationPrompt(HARBOR, request, { gameMode: null, lore: [] } as never);
      return String(messages[0]!.content);
    };
    const alone = system(["Ada"]);
    assert.match(alone, /Write in the second person \("you"\)/);
    const party = system(["Ada", "Bram"]);
    assert.doesNotMatch(party, /Write in the second person/);
    assert.match(party, /Write in the third person \(the player characters by name\)/);
    assert.match(party, /several players share this game, so none of them is "you"/);
  });
});
