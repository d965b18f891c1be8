import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { after, describe, it } from "node:test";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import { createSession } from "../../src/engine/session.ts";
import { createSandbox } from "../../src/sandbox/index.ts";
import { parseWorld } from "../../src/world/load.ts";
import { playableWorld } from "../../src/world/repair.ts";
import type { World } from "../../src/world/schema/index.ts";
import { validateWorld } from "../../src/world/validate.ts";
import { SHARED_WORLDS, sharedWorldFiles, sharedWorldsAbsent } from "../helpers/author.ts";
import {
  DESERT_CARAVAN,
  generatedWorld,
  inventedVocabulary,
  SPACE_STATION,
} from "../helpers/generated-world.ts";

/**
 * The offline narrator's behaviour outside the example world (issue 40, 7):
 * on worlds in other vocabularies (generated: a desert caravan, a space
 * station, invented names) and on the real worlds of ../shared/worlds. What
 * is asserted is behaviour, not wording: a move to a named location moves the
 * party there and the story names it, also when the player names it by one
 * word of its name; talking to someone present names them;
 * a place the world does not have leaves the party where it is, and the story
 * repeats the name it was given (it does not pretend to go there).
 */

const sandbox = createSandbox();
after(() => sandbox.close());

/** A generated world must check clean. */
function validWorld(text: string): World {
  const result = validateWorld(parseWorld(text));
  assert.equal(result.errorCount, 0, result.diagnostics.map((d) => d.message).join("\n"));
  return result.world!;
}

/** A real world is played as `taleforge play` plays it: rule errors (a quest never started) do not stop it. */
function playedWorld(text: string, name: string): World {
  const loaded = parseWorld(text, name);
  const playable = playableWorld(loaded, validateWorld(loaded));
  assert.ok(
    playable.world,
    `${name} does not play: ${playable.checked.diagnostics.map((d) => d.message).join("\n")}`,
  );
  return playable.world;
}

async function startGame(world: World, storyStart?: string) {
  return createSession(world, {
    ...(storyStart ? { storyStart } : {}),
    players: [{ name: "Kit" }],
    ai: createOfflineProvider(world),
    scripts: sandbox,
    seed: 11,
    validate: false,
  });
}

type Session = Awaited<ReturnType<typeof startGame>>;

async function act(session: Session, text: string) {
  return (await session.turn({ actions: [{ player: "Kit", text }] })).story;
}

/** The first name of a person, or their whole name (a story may say "Hamid" for "Hamid Sarraf"). */
function names(story: string, person: string): boolean {
  const lower = story.toLowerCase();
  return person
    .toLowerCase()
    .split(/\s+/)
    .some((part) => part.length > 2 && lower.includes(part));
}

/** The behaviours, on a world where the party starts at `from`, with `to` another location and `person` at `from`. */
async function assertBehaviour(
  session: Session,
  place: { to: string; person: string | null; nowhere: string },
  what: string,
) {
  const from = { ...session.state.position };
  if (place.person) {
    const story = await act(session, `talk to ${place.person}`);
    assert.ok(names(story, place.person), `${what}: talking to ${place.person} names them:\n${story}`);
    assert.equal(session.state.position.location, from.location, `${what}: talking does not move`);
  }

  const lost = await act(session, `walk to ${place.nowhere}`);
  assert.equal(
    session.state.position.location,
    from.location,
    `${what}: an unknown place moves nobody:\n${lost}`,
  );
  const asked = place.nowhere.replace(/^the /i, "").toLowerCase();
  assert.ok(
    lost.toLowerCase().includes(asked),
    `${what}: the story says which place it does not know:\n${lost}`,
  );

  const moved = await act(session, `walk to ${place.to}`);
  assert.equal(session.state.position.location, place.to, `${what}: "walk to ${place.to}" moves:\n${moved}`);
  assert.ok(moved.includes(place.to), `${what}: the story names where the party arrived:\n${moved}`);
}

describe("the offline narrator on worlds in other vocabularies", () => {
  for (const vocabulary of [DESERT_CARAVAN, SPACE_STATION, inventedVocabulary(7), inventedVocabulary(1234)]) {
    it(`${vocabulary.theme}: moves, names who is there, refuses an unknown place`, async () => {
      const world = validWorld(JSON.stringify(generatedWorld(vocabulary)));
      const session = await startGame(world);
      assert.equal(session.state.position.location, vocabulary.locations[0]!.name);
      await assertBehaviour(
        session,
        {
          to: vocabulary.locations[1]!.name,
          person: vocabulary.npcs.find((n) => n.location === 0)!.name,
          nowhere: vocabulary.nowhere,
        },
        vocabulary.theme,
      );
      // An area of the location: the party moves within it; looking around says where it is.
      const [area, description] = vocabulary.locations[1]!.areas[0]!;
      const looked = await act(session, "look around");
      assert.ok(
        [area, description, vocabulary.locations[1]!.name].some((words) => looked.includes(words)),
        `looking around tells the place (its name or the world's description of it):\n${looked}`,
      );
      const start = vocabulary.locations[0]!;
      await act(session, `go back to ${start.name}`);
      assert.equal(session.state.position.location, start.name);
      const inner = start.areas[1]![0];
      const walked = await act(session, `walk over to the ${inner}`);
      assert.deepEqual(
        [session.state.position.location, session.state.position.area],
        [start.name, inner],
        `"walk over to the ${inner}" moves within ${start.name}:\n${walked}`,
      );
      assert.ok(walked.includes(inner), `the story names the area:\n${walked}`);
      // And on to a location of the other region, where someone else stands.
      // Called by one word of its name, in lower case, as a stranger would ("go to the reactor": Reactor Deck).
      const far = vocabulary.locations[2]!.name;
      const word = far.split(" ")[0]!.toLowerCase();
      const there = await act(session, `go to the ${word}`);
      assert.equal(session.state.position.location, far, `"go to the ${word}" goes to ${far}:\n${there}`);
      const other = vocabulary.npcs.find((n) => n.location === 2)!.name;
      const met = await act(session, `ask ${other} about the road`);
      assert.ok(names(met, other), `asking ${other} names them:\n${met}`);
    });
  }
});

describe("the offline narrator on the shared worlds", () => {
  const worlds = sharedWorldFiles().filter((file) => !file.includes("/mods/"));
  it("finds the shared worlds", { skip: sharedWorldsAbsent() }, () => {
    assert.ok(worlds.length > 0, `no world file in ${SHARED_WORLDS}`);
  });
  for (const file of worlds) {
    const text = readFileSync(file, "utf8");
    const places = Object.keys((JSON.parse(text) as { locations?: object }).locations ?? {}).length;
    it(`${basename(file)}: moves, names who is there, refuses an unknown place`, {
      // The minimal worlds have no location: there is no move to make (the 20-turn test plays them).
      skip: places < 2 && `the world has ${places} location(s): no move to make`,
    }, async () => {
      const world = playedWorld(text, basename(file));
      const session = await startGame(world);
      const here = session.state.position.location;
      const others = Object.keys(world.locations).filter((name) => name !== here);
      const person = Object.entries(world.npcs).find(
        ([, npc]) => npc.currentLocation === here && npc.currentArea === session.state.position.area,
      )?.[0];
      assert.ok(person, `${basename(file)}: someone stands where the story starts (the test talks to them)`);
      await assertBehaviour(
        session,
        { to: others[0]!, person: person ?? null, nowhere: "the Glass Citadel of Nowhere" },
        basename(file),
      );
    });
  }
});
