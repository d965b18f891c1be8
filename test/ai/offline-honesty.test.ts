import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import { createSession } from "../../src/engine/session.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import { parseWorld } from "../../src/world/load.ts";
import type { World } from "../../src/world/schema/index.ts";
import { validateWorld } from "../../src/world/validate.ts";
import {
  DESERT_CARAVAN,
  generatedWorld,
  inventedVocabulary,
  SPACE_STATION,
  type Vocabulary,
} from "../helpers/generated-world.ts";
import { HARBOR, narrationRequest } from "./offline-helpers.ts";

/**
 * Honest offline narration (issue 34 items 2 and 13), on the example world and on generated worlds
 * of other vocabularies: an act no rule of the world carried out is never told as done; a blow at
 * someone present gets their reaction and changes nothing; in a party every line names its actor.
 */

const sandbox = createSandbox();
after(() => sandbox.close());

const VOCABULARIES = [DESERT_CARAVAN, SPACE_STATION, inventedVocabulary(7), inventedVocabulary(1234)];

function worldOf(v: Vocabulary): World {
  const result = validateWorld(parseWorld(JSON.stringify(generatedWorld(v))));
  assert.equal(result.errorCount, 0);
  return result.world!;
}

async function game(world: World, players: string[]) {
  return createSession(world, {
    players: players.map((name) => ({ name })),
    ai: createOfflineProvider(world),
    scripts: sandbox,
    seed: 5,
    validate: false,
  });
}

/** The first paragraph of a turn's story: what the player did. */
async function told(session: Awaited<ReturnType<typeof game>>, player: string, text: string) {
  const result = await session.turn({ actions: [{ player, text }] });
  return { first: result.story.split("\n\n")[0]!, result };
}

/** Acts whose success only the world's rules could grant, built on the world's own words. */
function wishes(v: Vocabulary): string[] {
  const place = v.locations[1]!.name;
  const person = v.npcs[0]!.name;
  return [
    "summon a thousand gold coins",
    `conjure a palace beside ${place}`,
    `banish ${person} from this world`,
    `buy all of ${place}`,
    "turn the sky green",
    "forge a crown out of thin air",
  ];
}

describe("offline narration: an act no rule carried out is never told as done", () => {
  for (const v of VOCABULARIES) {
    it(`${v.theme}: wishes are tried, in more than one wording, never done`, async () => {
      const world = worldOf(v);
      const session = await game(world, ["Kit"]);
      const endings = new Set<string>();
      for (const wish of wishes(v)) {
        const { first } = await told(session, "Kit", wish);
        const verb = wish.split(" ")[0]!;
        assert.doesNotMatch(first, new RegExp(`^You ${verb}\\b`, "i"), `${wish} told as done: ${first}`);
        assert.match(first, /^You try\b/, `${wish}: ${first}`);
        endings.add(first.replace(/^.*?, but /, ""));
      }
      assert.ok(endings.size > 1, `always the same words: ${[...endings].join(" | ")}`);
    });

    it(`${v.theme}: a blow at someone here gets their reaction and changes nothing`, async () => {
      const world = worldOf(v);
      const session = await game(world, ["Kit"]);
      const person = v.npcs.find((n) => n.location === 0)!.name;
      const before = JSON.stringify(session.state.party);
      const { first } = await told(session, "Kit", `punch ${person} in the face`);
      assert.match(first, /^You try to punch /, first);
      const reaction = first.slice(first.indexOf(".") + 1);
      assert.ok(reaction.includes(person), `no reaction from ${person}: ${first}`);
      assert.equal(JSON.stringify(session.state.party), before, "the blow changed nobody's sheet");
    });
  }
});

describe("offline narration of a party: who does what, by name", () => {
  for (const v of VOCABULARIES.slice(0, 3)) {
    it(`${v.theme}: the leader's move names who follows; each line is told of its actor`, async () => {
      const world = worldOf(v);
      const session = await game(world, ["Kit", "Ana"]);
      const to = v.locations[1]!.name;
      const result = await session.turn({
        actions: [
          { player: "Kit", text: `walk to ${to}` },
          { player: "Ana", text: "look around" },
        ],
      });
      assert.equal(session.state.position.location, to);
      const [lead, second] = result.story.split("\n\n");
      assert.match(lead!, new RegExp(`^Kit \\w+s to .*${to}.*; Ana follows\\.$`), result.story);
      assert.equal(second, "Ana looks around.");
      assert.doesNotMatch(`${lead} ${second}`, /\byou\b/i);
      assert.deepEqual(
        result.segments?.slice(0, 2).map((s) => s.actor),
        ["Kit", "Ana"],
      );
      assert.equal(result.segments?.map((s) => s.text).join("\n\n"), result.story);
      // A wish in a party is tried too, told of whoever wished it.
      const wished = await session.turn({
        actions: [
          { player: "Kit", text: "summon a thousand gold coins" },
          { player: "Ana", text: "wait" },
        ],
      });
      assert.match(wished.story, /^Kit tries to summon a thousand gold coins\b/);
      assert.ok(wished.segments?.some((s) => s.actor === "Ana" && /^Ana waits\b/.test(s.text)));
    });
  }

  it("a world's text for one player is told of them by name in a party, to 'you' alone", async () => {
    const ai = createOfflineProvider(HARBOR);
    const forAda = "(for Ada Quill) The character's hands shake, and every shape in the fog is a threat.";
    const party = await ai.narrate(
      narrationRequest({
        actions: [
          { player: "Isobel Carrow", text: "wait" },
          { player: "Ada Quill", text: "look at the fire" },
        ],
        instructions: [forAda],
      }),
    );
    const told = party.segments?.find((s) => s.text.includes("shape in the fog"));
    assert.ok(told, party.text);
    assert.equal(told.actor, "Ada Quill");
    assert.match(told.text, /^Ada Quill's hands shake\b/);
    assert.doesNotMatch(party.text, /\(for |\byour hands\b/i);
    const alone = await ai.narrate(
      narrationRequest({
        actions: [{ player: "Isobel Carrow", text: "wait" }],
        instructions: [
          "(for Isobel Carrow) The character's hands shake, and every shape in the fog is a threat.",
        ],
      }),
    );
    assert.match(alone.text, /^Your hands shake\b/m);
    assert.doesNotMatch(alone.text, /\(for /i);
  });

  it("a solo game keeps 'you' and carries no segments", async () => {
    const world = worldOf(DESERT_CARAVAN);
    const session = await game(world, ["Kit"]);
    const result = await session.turn({
      actions: [{ player: "Kit", text: `walk to ${DESERT_CARAVAN.locations[1]!.name}` }],
    });
    assert.match(result.story, /^You \w+ to /);
    assert.equal(result.segments, undefined);
  });
});

describe("the example world's triggers match deeds, not names", () => {
  async function atTheEel() {
    const session = await game(HARBOR, ["Isobel Carrow"]);
    await session.turn({ actions: [{ player: "Isobel Carrow", text: "walk to the Gutted Eel" }] });
    return session;
  }
  const findMara = (s: Awaited<ReturnType<typeof game>>) =>
    s.state.quests["The Keeper's Debt"]?.objectives.find_mara;

  for (const deed of ["kill Mara", "stab Mara Venn", "punch Mara", "steal from Mara's purse"]) {
    it(`"${deed}" does not find Mara`, async () => {
      const session = await atTheEel();
      assert.equal(findMara(session), "active");
      const { result } = await told(session, "Isobel Carrow", deed);
      assert.equal(findMara(session), "active", result.story);
      assert.ok(!result.fired.includes("meet_mara"));
    });
  }

  for (const deed of ["talk to Mara", "ask Mara Venn about her father", "Mara, what happened?"]) {
    it(`"${deed}" finds her`, async () => {
      const session = await atTheEel();
      await told(session, "Isobel Carrow", deed);
      assert.equal(findMara(session), "completed");
    });
  }
});
