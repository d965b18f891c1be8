import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { painter } from "../../author/paint.ts";
import type { SessionState } from "../../engine/state.ts";
import type { World } from "../../world/schema/index.ts";
import { changesView } from "./changes.ts";
import { helpView } from "./commands.ts";
import { bareCommandHint, describePlace, hintView, mapView, questsView, turnWords } from "./views.ts";

const world = JSON.parse(
  readFileSync(new URL("../../../examples/harbor.world.json", import.meta.url), "utf8"),
) as World;
const paint = painter(false);

function withQuest(status: string, objectives: Record<string, string>): SessionState {
  return {
    quests: {
      "The Keeper's Debt": {
        status,
        objectives,
        nextStep: { text: "Climb the lighthouse stairwell.", source: "objective" },
        transitions: [],
        activeObjectiveId: null,
        mainObjectiveDone: false,
        availableAt: null,
      },
    },
    partyNextStep: null,
  } as unknown as SessionState;
}

test("issue 14 item 4: a quest let go shows no ticked objectives and no next step in /quests", () => {
  const objectives = { find_mara: "completed", reach_lighthouse: "completed", climb_stairwell: "active" };
  const accepted = questsView(withQuest("accepted", objectives), world, paint);
  assert.match(accepted, /\[x\] Find Mara Venn/);
  assert.match(accepted, /Next: Climb the lighthouse stairwell\./);
  for (const status of ["expired", "rejected", "abandoned"]) {
    const view = questsView(withQuest(status, objectives), world, paint);
    assert.match(view, new RegExp(`The Keeper's Debt \\(${status}\\)`));
    assert.doesNotMatch(view, /\[x\]|\[ \]|Next:/, status);
  }
});

test("issue 14 item 4: progress on an expired quest is not listed among the turn's changes", () => {
  const before = { ...withQuest("expired", { find_mara: "completed", reach_lighthouse: "active" }) };
  const after = withQuest("expired", { find_mara: "completed", reach_lighthouse: "completed" });
  for (const state of [before, after])
    Object.assign(state, { position: {}, party: [], events: {}, known: {} });
  const lines = changesView(before, after, world, paint);
  assert.deepEqual(
    lines.filter((l) => /Done|objective/.test(l)),
    [],
  );
});

test("an objective the story just told in its own words is not listed again under it", () => {
  const before = withQuest("accepted", { find_mara: "active" });
  const after = withQuest("accepted", { find_mara: "completed", reach_lighthouse: "active" });
  for (const state of [before, after])
    Object.assign(state, { position: {}, party: [], events: {}, known: {} });
  const objectiveLines = (story?: string) =>
    changesView(before, after, world, paint, story).filter((l) => /Done|objective/.test(l));
  assert.deepEqual(objectiveLines(), [
    "  Done: Find Mara Venn at the Gutted Eel.",
    "  New objective: Travel to the Old Lighthouse on the Gull Coast.",
  ]);
  assert.deepEqual(
    objectiveLines("You talk to Mara.\n\nDone for The Keeper's Debt: find Mara Venn at the Gutted Eel."),
    ["  New objective: Travel to the Old Lighthouse on the Gull Coast."],
  );
  assert.deepEqual(objectiveLines("Mara Venn waves you over."), objectiveLines());
});

test("ticks in a player's words", () => {
  assert.equal(turnWords(0), "the start of the game");
  assert.equal(turnWords(12), "turn 12");
});

test("issue 14 item 2: /hint names the act a near trigger waits for, never the trigger", () => {
  const near = {
    trace: {
      phases: [
        {
          triggers: [
            {
              trigger: "light_the_beacon",
              candidate: true,
              fired: false,
              verdict: "failed",
              conditions: [
                { index: 0, type: "party-area", passed: true, expected: "Lamp Room", actual: "Lamp Room" },
                {
                  index: 1,
                  type: "action",
                  passed: false,
                  judged: true,
                  expected: "Does the player light the lighthouse lamp?",
                  actual: "light it",
                },
              ],
            },
          ],
        },
      ],
    },
  } as unknown as Parameters<typeof hintView>[0];
  const state = withQuest("accepted", {});
  const hint = hintView(near, state, world);
  assert.equal(hint, "You are close. The world is waiting for you to light the lighthouse lamp.");
  assert.doesNotMatch(hint, /light_the_beacon/);
  assert.equal(
    hintView(null, state, world),
    "No act came close last turn. Next: Climb the lighthouse stairwell.",
  );
});

test("issue 14 item 5: a next step that only repeats the start of the one shown is not shown again", () => {
  const state = (text: string) =>
    ({
      quests: {},
      partyNextStep: { text },
      position: {},
      party: [],
      events: {},
      known: {},
    }) as unknown as SessionState;
  const long = "Find Mara Venn at the Gutted Eel: she is asking after her father.";
  const next = (from: string, to: string) =>
    changesView(state(from), state(to), world, paint).filter((line) => line.startsWith("Next:"));
  assert.deepEqual(next(long, "Find Mara Venn at the Gutted Eel."), []);
  assert.deepEqual(next("Find Mara Venn at the Gutted Eel.", long), [`Next: ${long}`]);
  assert.deepEqual(next("Travel to the pier.", "Travel."), ["Next: Travel."]);
  assert.deepEqual(next(long, "Climb the lighthouse stairwell."), ["Next: Climb the lighthouse stairwell."]);
});

test("where the party is reads as a phrase, not as the list 'Hearth Room, The Gutted Eel, Brinewick'", () => {
  const at = (area: string, location: string, region: string) =>
    describePlace({ area, location, region }, world);
  assert.equal(
    at("Hearth Room", "The Gutted Eel", "Brinewick"),
    "the Hearth Room of the Gutted Eel, Brinewick",
  );
  assert.equal(
    at("Stairwell", "Old Lighthouse", "Gull Coast"),
    "the Stairwell of the Old Lighthouse, Gull Coast",
  );
  // A location that names its region does not say it twice; a proper first word takes no "the".
  assert.equal(at("Pier End", "Brinewick Docks", "Brinewick"), "Pier End of Brinewick Docks");
  assert.equal(at("", "The Gutted Eel", "Brinewick"), "the Gutted Eel, Brinewick");
  // Another world's names: an area with its own "of", a region that starts with "The".
  assert.equal(
    at("Plaza of the Queen", "Avenor", "The Reach"),
    "the Plaza of the Queen in Avenor, the Reach",
  );
  assert.equal(at("", "", ""), "an unnamed place");
});

test("a command typed without its slash is said how to type, and an act is not", () => {
  assert.equal(
    bareCommandHint("inventory"),
    'Commands start with "/": type /inventory (/help lists them all).',
  );
  assert.equal(bareCommandHint("I"), 'Commands start with "/": type /inventory (/help lists them all).');
  assert.equal(bareCommandHint("check my map"), 'Commands start with "/": type /map (/help lists them all).');
  assert.equal(bareCommandHint("Journal?"), 'Commands start with "/": type /quests (/help lists them all).');
  assert.match(bareCommandHint("help") ?? "", /\/help lists them/);
  assert.equal(
    bareCommandHint("save the game"),
    'Commands start with "/": type /save (/help lists them all).',
  );
  assert.equal(bareCommandHint("quit game"), 'Commands start with "/": type /quit (/help lists them all).');
  for (const act of [
    "help Mara",
    "look at the map on the wall",
    "hint",
    "accept",
    "I look around",
    "save the girl",
  ])
    assert.equal(bareCommandHint(act), null, act);
});

test("/help lists every command with its words in one column, within 80 columns", () => {
  for (const saving of [undefined, "game.json"]) {
    const commands = helpView(saving)
      .split("\n")
      .filter((line) => line.startsWith("  /"));
    assert.ok(commands.length > 10);
    // Where each command's words begin: after the command and its argument, at least two spaces.
    const columns = new Set(
      commands.map((line) => /^ {2}\/\S+(?: [[<]\S+[\]>])? {2,}/.exec(line)?.[0].length),
    );
    assert.equal(columns.size, 1, `the words of /help start at columns ${[...columns].join(", ")}`);
    for (const line of commands) assert.ok(line.length <= 80, line);
  }
});

test("issue 35 item 7: /map of a five-region-wide realm fits 79 columns and names every region whole", () => {
  const wide = structuredClone(world) as World;
  const realm = Object.keys(wide.realms)[0]!;
  const names = [
    "The Bright Kingdom of Aurelion",
    "The Sun-Scoured Plateau",
    "Hinderance Highlands",
    "Whitestone Coast",
    "Long Steppe",
  ];
  const template = Object.values(wide.regions)[0]!;
  wide.regions = {};
  names.forEach((name, x) => {
    wide.regions[name] = { ...template, name, x: 10 + x, y: 5, realm };
  });
  const state = {
    known: Object.fromEntries(names.map((n) => [n, true])),
    position: { realm, region: names[1]!, location: "", area: "" },
  } as unknown as SessionState;
  const view = mapView(state, wide, paint);
  const grid = view.split("\n").filter((line) => line.startsWith("["));
  assert.ok(grid.length > 0, view);
  for (const line of view.split("\n")) assert.ok(line.length <= 79, `${line.length} columns: ${line}`);
  // Cut in its cell, a name is spelt out whole under the grid; a name that fits is whole in its cell.
  for (const name of names) assert.ok(view.includes(name), `${name} is not shown whole:\n${view}`);
  assert.match(view, /\*\d+ The Sun/);
});
