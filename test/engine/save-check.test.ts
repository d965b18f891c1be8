import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { restoreSession } from "../../src/engine/session.ts";
import { DataAi, say, start, worldWith } from "./helpers.ts";

/** A game of the base world one turn in: start_sheep fired, "Lost Sheep" available. */
async function played() {
  const { session } = await start();
  await session.turn(say("look around"));
  return { session, file: JSON.parse(session.save()) };
}

async function refusal(
  world: unknown,
  saved: unknown,
): Promise<{ code: string; message: string; problems: string[] }> {
  try {
    await restoreSession(world, saved, { ai: new DataAi(), validate: false });
  } catch (error) {
    const e = error as { code: string; message: string; details: { problems?: string[] } };
    return { code: e.code, message: e.message, problems: e.details.problems ?? [] };
  }
  assert.fail("the save was accepted");
}

describe("a save is checked against its own world, one clear error per problem (issue 15 item 12)", () => {
  // biome-ignore lint/suspicious/noExplicitAny: a forged save may touch any part of the state.
  const forged: [string, (state: Record<string, any>) => void, RegExp][] = [
    [
      "an unknown quest",
      (s) => (s.quests.Nope = { ...s.quests["Lost Sheep"] }),
      /quest "Nope", which the world does not define/,
    ],
    [
      "an unknown item",
      (s) => (s.party[0].items.Anvil = 1),
      /carries item "Anvil", which the world does not define/,
    ],
    [
      "an unknown trait",
      (s) => s.party[0].traits.push("Invisible"),
      /has trait "Invisible", which the world does not define/,
    ],
    [
      "an unknown place",
      (s) => (s.position = { ...s.position, realm: "Void", region: "Nowhere", location: "Nope" }),
      /region "Nowhere" .*which the world does not define; there is nowhere to resume/,
    ],
    [
      "a resource above its maximum",
      (s) => (s.party[0].resources.health = { current: 999, max: 25 }),
      /has health 999, above its maximum 25/,
    ],
    [
      "a trigger override whose conditions are not a list",
      (s) =>
        (s.triggerEdits.overrides.start_sheep = { name: "start_sheep", conditions: "oops", effects: [] }),
      /A trigger a script changed in this game is invalid: .*start_sheep/,
    ],
    [
      "two players of one name",
      (s) => s.party.push(structuredClone(s.party[0])),
      /Two party members are named "Player"; names must be unique/,
    ],
    [
      "an added trigger without its definition",
      (s) => s.triggerEdits.added.push("ghost"),
      /"ghost" is listed as added/,
    ],
  ];
  for (const [name, forge, message] of forged) {
    test(`${name}: save/inconsistent`, async () => {
      const { file } = await played();
      forge(file.state);
      const { code, problems } = await refusal(worldWith(), file);
      assert.equal(code, "save/inconsistent");
      assert.equal(problems.length, 1, problems.join("\n"));
      assert.match(problems[0]!, message);
    });
  }

  test("a party nowhere (a world without places starts it there) is not a problem", async () => {
    const { file } = await played();
    file.state.position = { ...file.state.position, realm: "", region: "", location: "", area: "" };
    const resumed = await restoreSession(worldWith(), file, { ai: new DataAi() });
    assert.equal(resumed.state.position.region, "");
  });

  test("every problem is listed, each on its own line", async () => {
    const { file } = await played();
    for (const [, forge] of forged) forge(file.state);
    const { message, problems } = await refusal(worldWith(), file);
    assert.ok(problems.length >= forged.length, problems.join("\n"));
    assert.equal(message.split("\n- ").length - 1, problems.length);
  });
});

describe("a save loads into an edited world whenever it still fits (issue 16 item 9)", () => {
  test("adding a lore entry changes nothing that matters: it loads, and says so", async () => {
    const { session } = await played();
    const edited = worldWith({ worldLore: { Fog: { text: "Fog lies on the fen." } } });
    const resumed = await restoreSession(edited, session.save(), { ai: new DataAi() });
    assert.deepEqual(resumed.resumed, { edited: true, warnings: [] });
    assert.equal(resumed.tick, 1);
    await resumed.turn(say("wait"));
  });

  test("a consumed trigger that was edited, and a quest in progress that is gone, are named; the game goes on", async () => {
    const { session } = await played();
    const edited = worldWith({
      triggers: {
        start_sheep: { conditions: [{ type: "game-tick", operator: "greaterThan", value: 5 }], effects: [] },
      },
      quests: { "Lost Sheep": undefined },
    });
    const resumed = await restoreSession(edited, session.save(), { ai: new DataAi(), validate: false });
    const warnings = resumed.resumed!.warnings.join("\n");
    assert.match(
      warnings,
      /Trigger "start_sheep" was edited in the world after it fired in this game; it stays spent/,
    );
    assert.match(
      warnings,
      /Quest "Lost Sheep" \(available in this game\) is gone from the world; its progress is dropped/,
    );
    assert.equal(resumed.state.quests["Lost Sheep"], undefined);
    assert.equal(resumed.state.consumed.start_sheep, 1);
    const next = await resumed.turn(say("wait"));
    assert.equal(next.tick, 2);
  });

  test("an area that is gone moves the party to the location's first area, with a warning", async () => {
    const { session } = await played();
    const state = session.state;
    const location = state.position.location;
    const base = worldWith();
    const areas = Object.keys(base.locations[location]!.areas ?? {});
    const other = areas.find((a) => a !== state.position.area)!;
    const edited = worldWith({ locations: { [location]: { areas: { [state.position.area]: undefined } } } });
    const resumed = await restoreSession(edited, session.save(), { ai: new DataAi(), validate: false });
    assert.equal(resumed.state.position.area, other);
    assert.match(
      resumed.resumed!.warnings[0]!,
      new RegExp(`Area "${state.position.area}" of "${location}" is gone`),
    );
  });

  test("what cannot be reconciled is refused, saying exactly why", async () => {
    const { session } = await played();
    const location = session.state.position.location;
    const { code, message, problems } = await refusal(
      worldWith({ locations: { [location]: undefined } }),
      session.save(),
    );
    assert.equal(code, "save/world-mismatch");
    assert.deepEqual(problems, [
      `The party is at location "${location}" (${[session.state.position.area, location, session.state.position.region, session.state.position.realm].filter(Boolean).join(", ")}), which the world does not define; there is nowhere to resume.`,
    ]);
    assert.match(message, /cannot be reconciled/);
  });
});
