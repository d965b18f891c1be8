import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createOfflineProvider } from "../../src/ai/offline/index.ts";
import { againLine } from "../../src/ai/offline/repeat.ts";
import { doneStates, withoutStaleClauses } from "../../src/ai/offline/stale.ts";
import { spelling, stem } from "../../src/ai/offline/text.ts";
import type { NarrationRequest } from "../../src/engine/ports.ts";
import { HARBOR, intentRequest, narrationRequest, outcome, storyOf } from "./offline-helpers.ts";

/**
 * What a stranger types at the example world, and what the offline narrator
 * must not get wrong about it (a playtest at an 80-column terminal and in the
 * browser): journeys to nowhere told as made, a lit lamp described as dark, a
 * bell "coming to nothing" the turn before its story, "harbor" not finding
 * the world's "harbour".
 */
const ai = createOfflineProvider(HARBOR);
const act = (text: string, overrides: Partial<NarrationRequest> = {}, where?: [string, string]) =>
  ai.narrate(
    narrationRequest(
      { actions: [{ player: "Isobel Carrow", text }], intent: { intent: "other" }, ...overrides },
      ...(where ?? ["Brinewick Docks", "Pier End"]),
    ),
  );
const first = async (text: string, overrides: Partial<NarrationRequest> = {}, where?: [string, string]) =>
  (await act(text, overrides, where)).text.split("\n\n")[0]!;

describe("offline narration: impossible journeys are not told as made", () => {
  it("a journey to a thing that is no place and not here: the party stays, and the story says so", async () => {
    assert.equal(
      await first("fly to the moon"),
      "You stay where you are: you know of no way to the moon from here.",
    );
    assert.equal(
      await first("swim to the ship"),
      "You stay where you are: you know of no way to the ship from here.",
    );
    assert.equal(
      await first("I swim out to the Saltmoor Queen"),
      "You stay where you are: you know of no way to the Saltmoor Queen from here.",
    );
  });

  it("a thing the scene shows, a person here, or no thing named keeps its echo", async () => {
    assert.equal(await first("walk to the lantern post"), "You walk to the lantern post.");
    assert.equal(
      await first("walk to the moon"),
      "You stay where you are: you know of no way to the moon from here.",
    );
    // A thing of a room, described or not, is no journey: "walk to the window" is an act.
    assert.equal(await first("walk to the window"), "You walk to the window.");
    assert.equal(await first("go to bed"), "You go to bed.");
    assert.equal(
      await first("walk to the fire", {}, ["The Gutted Eel", "Hearth Room"]),
      "You walk to the fire.",
    );
    assert.equal(await first("run to Mara", {}, ["The Gutted Eel", "Hearth Room"]), "You run to Mara.");
  });

  it("flying or levitating is only ever tried, even on a turn where something else happened", async () => {
    assert.match(await first("fly around the pier"), /^You try to fly around the pier, but /);
    assert.match(await first("levitate"), /^You try to levitate, but /);
    assert.equal(
      await first("fly around the pier", { actionsAnswered: true }),
      "You try to fly around the pier.",
    );
  });

  it("a journey to a kind of place the world lacks names the place, never the preposition", async () => {
    assert.equal(
      await first("walk into the sea"),
      "You stay where you are: you know of no sea by that name here. Your map shows the places you know.",
    );
    // The story is read in the browser too, where there is no /map command.
    assert.doesNotMatch((await act("walk north")).text, /\/map/);
  });
});

describe("offline narration: a trigger that answered the action", () => {
  const bellLoft: [string, string] = ["Saltlight Temple", "Bell Loft"];

  it("is not told as coming to nothing the turn before its story (actionsAnswered)", async () => {
    const nothing = await first("ring the fog bell", {}, bellLoft);
    assert.match(nothing, /^You try to ring the fog bell, but /, "nothing fired: a try that came to nothing");
    const answered = await first("ring the fog bell", { actionsAnswered: true }, bellLoft);
    assert.equal(answered, "You ring the fog bell.");
    // A claim on items stays a try (the outcomes say what the game recorded), but not one "of nothing".
    assert.equal(
      await first("take the bell rope", { actionsAnswered: true }, bellLoft),
      "You try to take the bell rope.",
    );
  });
});

describe("offline narration: a lit lamp is not described as dark", () => {
  const lampRoom: [string, string] = ["Old Lighthouse", "Lamp Room"];
  const lighting = {
    outcomes: [
      outcome.objective("The Keeper's Debt", "Return to the Old Lighthouse and light the lamp."),
      outcome.quest("The Keeper's Debt", "completed"),
    ],
  };

  it("a completed objective says what it changed: 'light the lamp' done is the lamp lit", () => {
    assert.equal(doneStates("Return to the Old Lighthouse and light the lamp."), "the lamp lit.");
    assert.equal(doneStates("Return the bronze clapper to Sister Orla."), "the bronze clapper returned.");
    assert.equal(doneStates("Travel to the Old Lighthouse on the Gull Coast."), "");
  });

  it("the turn that lights the lamp never shows 'Its lamp has been dark' (whatever the tick picks)", async () => {
    const dark = "Its lamp has been dark since the autumn gales.";
    let seen = 0;
    for (let tick = 1; tick <= 40; tick++) {
      const request = { tick, actions: [{ player: "Isobel Carrow", text: "wait" }] };
      if ((await act("wait", request, lampRoom)).text.includes(dark)) seen++;
      const lit = await act("light the lighthouse lamp", { ...request, ...lighting }, lampRoom);
      assert.ok(!lit.text.includes(dark), `tick ${tick}: ${lit.text}`);
      assert.ok(!lit.text.includes("a cold brass lamp"), `tick ${tick}: ${lit.text}`);
    }
    assert.ok(seen > 0, "before the lamp is lit, the sentence is told on some turns");
  });

  it("an instruction told after the story said the lamp burns loses only its stale clause", async () => {
    const plea = storyOf("temple_bell_plea");
    const burning = "The lamp of the Old Lighthouse is burning. Its beam sweeps the Gull Coast.";
    const { text } = await act(
      "look around",
      {
        instructions: [plea],
        scene: { ...narrationRequest({}, "Saltlight Temple", "Nave").scene, recentStory: [burning] },
      },
      ["Saltlight Temple", "Nave"],
    );
    assert.match(text, /the bronze clapper of the temple's fog bell was stolen three nights ago\. /);
    assert.doesNotMatch(text, /with the lighthouse dark/);
    assert.match(text, /Cockle-pickers have seen lanterns at Blackwrack Cove/);
    // Before the lamp is lit the sentence is told whole.
    const before = await act("look around", { instructions: [plea] }, ["Saltlight Temple", "Nave"]);
    assert.match(
      before.text,
      /stolen three nights ago, and with the lighthouse dark the bell is all the boats have\./,
    );
  });

  it("clauses: a stale first clause drops the sentence; 'the' is never the thing a state is about", () => {
    const burning = "The lamp of the Old Lighthouse is burning.";
    assert.equal(
      withoutStaleClauses("The bell is cracked, and with the lamp dark no one sleeps.", burning),
      "The bell is cracked.",
    );
    assert.equal(
      withoutStaleClauses("With the lamp dark, no one sleeps, and the boats stay in.", burning),
      "",
    );
    assert.equal(
      withoutStaleClauses("A dark alley runs behind the market, and gulls wait.", burning),
      "A dark alley runs behind the market, and gulls wait.",
    );
  });
});

describe("offline intent: British and American spellings are one word", () => {
  const EEL: [string, string] = ["The Gutted Eel", "Hearth Room"];

  it("spelling() folds the British beginning: harbour, harbours, harbourmaster, grey, colour", () => {
    assert.equal(spelling("harbour"), "harbor");
    assert.equal(spelling("harbours"), "harbors");
    assert.equal(spelling("harbourmaster"), "harbormaster");
    assert.equal(spelling("grey"), "gray");
    assert.equal(spelling("colourful"), "colorful");
    assert.equal(spelling("hour"), "hour");
    assert.equal(stem("harbour"), stem("harbor"));
  });

  for (const text of [
    "go back to the harbor",
    "go back to the harbour",
    "walk to the docks",
    "head to the quay",
  ])
    it(`"${text}" from the tavern is travel to Brinewick Docks (the harbour town's docks)`, async () => {
      const answer = await ai.classify(intentRequest(text, ...EEL));
      assert.equal(answer.intent, "travel", JSON.stringify(answer));
      assert.equal(answer.target, "Brinewick Docks");
    });

  it("a name spelled the other way matches: 'the back parlor' is the Back Parlour", async () => {
    const answer = await ai.classify(intentRequest("walk to the back parlor", ...EEL));
    assert.equal(answer.intent, "move");
    assert.equal(answer.target, "Back Parlour");
  });

  it("the judge reads both spellings alike: a story in one spelling answers a question in the other", async () => {
    const verdicts = await ai.judge({
      phase: "state",
      tick: 3,
      questions: [
        { trigger: "t", conditionIndex: 1, kind: "story", query: "Is the harbour wall painted grey?" },
      ],
      storyText: "The harbor wall is painted gray.",
      actions: [],
      players: ["Isobel Carrow"],
    });
    assert.equal(verdicts[0]?.passed, true, JSON.stringify(verdicts));
  });
});

describe("offline narration: where am I, where is it", () => {
  it("'where am I' says where the party stands, from the map, not as speech", async () => {
    assert.equal(await first("where am I"), "You are at Pier End of Brinewick Docks.");
    assert.equal(await first("What is this place?"), "You are at Pier End of Brinewick Docks.");
  });

  it("'where is <a place>' says its region and how to go there; a person's whereabouts are not told", async () => {
    assert.equal(
      await first("where is the lighthouse?"),
      "You say: “where is the lighthouse?” The Old Lighthouse is in the Gull Coast region. “Walk to the Old Lighthouse” takes you there.",
    );
    assert.equal(
      await first("how do I get to the Gutted Eel"),
      "You say: “how do I get to the Gutted Eel?” The Gutted Eel is in the Brinewick region, where you are. “Walk to the Gutted Eel” takes you there.",
    );
    assert.equal(await first("where is Mara?"), "You say: “where is Mara?”");
  });
});

describe("offline narration: a region named as a destination, an order at the bar", () => {
  it("'walk to the Gull Coast' is a whole region (its places named), never 'no place called the Gull Coast'", async () => {
    assert.equal(
      await first("walk to the Gull Coast", {}, ["The Gutted Eel", "Hearth Room"]),
      "You stay where you are: Gull Coast is a whole region, not a single place. Name one of its places: Old Lighthouse or Gannet Point.",
    );
    // As a stranger types it: in lower case, back to a region, or with a compass word (Mara says "go east").
    assert.equal(
      await first("go back to brinewick", {}, ["Old Lighthouse", "Lamp Room"]),
      "You stay where you are: Brinewick is a whole region, not a single place. Name one of its places: Brinewick Docks, The Gutted Eel, Saltlight Temple or Counting House.",
    );
    assert.equal(
      await first("head east to the gull coast", {}, ["The Gutted Eel", "Hearth Room"]),
      "You stay where you are: Gull Coast is a whole region, not a single place. Name one of its places: Old Lighthouse or Gannet Point.",
    );
    assert.equal(await first("walk to the window and wait"), "You walk to the window and wait.");
    assert.equal(
      await first("go to the Pantry", {}, ["The Gutted Eel", "Hearth Room"]),
      "You stay where you are: you know of no place called the Pantry.",
    );
  });

  it("'order a drink' is an act (a try: only the game's state says what you got), not quoted words", async () => {
    assert.match(
      await first("order a drink", {}, ["The Gutted Eel", "Hearth Room"]),
      /^You try to order a drink, but /,
    );
  });
});

describe("offline narration: a fall or a blow is only tried", () => {
  const lampRoom: [string, string] = ["Old Lighthouse", "Lamp Room"];
  it("'jump out of the window' at the top of the tower is a try, never a jump with nothing after it", async () => {
    assert.match(
      await first("jump out of the window", {}, lampRoom),
      /^You try to jump out of the window, but /,
    );
    assert.match(
      await first("leap off the cliff", {}, ["Gannet Point", "Clifftop"]),
      /^You try to leap off the cliff, but /,
    );
    assert.match(await first("jump", {}, lampRoom), /^You jump; /, "a jump on the spot is an act");
  });
  it("'attack the gull' is a try: only the game's state says a blow landed", async () => {
    assert.match(await first("attack the gull"), /^You try to attack the gull, but /);
  });
});

describe("offline narration: a thing or an animal is no one to talk to", () => {
  const eel: [string, string] = ["The Gutted Eel", "Hearth Room"];
  const talk = { intent: { intent: "interactNPC" as const } };

  it("'ask the gull about the lighthouse' is not told as done, with someone here or not", async () => {
    assert.equal(
      await first("ask the gull about the lighthouse", talk, eel),
      "You ask the gull about the lighthouse, but the gull does not answer.",
    );
    assert.equal(
      await first("ask the gull about the lighthouse"),
      "You ask the gull about the lighthouse, but the gull does not answer.",
    );
    assert.equal(
      await first("talk to the cat", talk, eel),
      "You talk to the cat, but the cat does not answer.",
    );
    assert.equal(
      await first("I speak with the gulls", talk, eel),
      "You speak with the gulls, but the gulls do not answer.",
    );
  });

  it("a person, named or by what they are, and asking for a thing, keep their echo", async () => {
    assert.equal(
      await first("ask Mara about the lighthouse", talk, eel),
      "You ask Mara about the lighthouse.",
    );
    for (const text of [
      "ask the barkeep about the lighthouse",
      "talk to the old fisherman",
      "ask the sailor where Ansel went",
      "talk to the crew",
      "ask the way to the docks",
      "ask the gull",
    ])
      assert.doesNotMatch(await first(text, talk, eel), /does not answer/, text);
  });

  it("a thing that a trigger answered is not said to be silent", async () => {
    assert.doesNotMatch(
      await first("ask the gull about the lighthouse", { ...talk, actionsAnswered: true }, eel),
      /does not answer/,
    );
  });
});

describe("offline narration: going to someone, asking who is here", () => {
  const eel: [string, string] = ["The Gutted Eel", "Hearth Room"];

  it("going to someone who is elsewhere is not told as done", async () => {
    assert.equal(
      await first("go to slade", {}, ["Old Lighthouse", "Lamp Room"]),
      "Corvin Slade is not here.",
    );
    assert.equal(await first("walk over to Mara Venn"), "Mara Venn is not here.");
    assert.equal(await first("run to mara", {}, eel), "You run to Mara.");
  });

  it("'who is here?' looks around, and says when no one is", async () => {
    assert.equal(await first("who is here?"), "You look around: there is no one here but you.");
    assert.equal(await first("Is there anyone here?"), "You look around: there is no one here but you.");
    const atTheEel = await act("who is here?", {}, eel);
    assert.equal(atTheEel.text.split("\n\n")[0], "You look around.");
    assert.ok(atTheEel.text.includes("Mara Venn is here."), atTheEel.text);
    assert.match(await first("who is Mara?", {}, eel), /^You say: /);
  });

  it("a question said again has one stop, not “…?”.", () => {
    for (let tick = 0; tick < 5; tick++)
      assert.doesNotMatch(againLine("say: “who is Mara?”", true, tick), /”\.$/);
  });
});

describe("offline narration: looking around", () => {
  it("'look around' describes the place and names the ways on", async () => {
    const { text } = await act("look around");
    const [said, place] = text.split("\n\n");
    assert.equal(said, "You look around.");
    assert.match(
      place!,
      /^The seaward tip of the longest pier: .* From here you can go to the Fish Market\.$/,
    );
    assert.match(
      (await act("look", {}, ["Old Lighthouse", "Stairwell"])).text,
      /From here you can go to the Rock Landing and the Lamp Room\./,
    );
  });

  it("looking again, or somewhere new, is told whole, not as 'Again you look around.'", async () => {
    const request = { scene: { ...narrationRequest({}, "Brinewick Docks", "Pier End").scene } };
    request.scene.recentStory = [
      "You look around.\n\nThe seaward tip of the longest pier: bollards, coiled cable, and a lantern post with no lantern. When the fog allows, the dark tower on the eastern cliffs is plain to see. From here you can go to the Fish Market.\n\nWhat now?",
    ];
    const again = await act("look around", request);
    assert.equal(again.text.split("\n\n")[0], "You look around.");
    assert.match(again.text, /From here you can go to the Fish Market\./);
  });
});

describe("offline narration: a newcomer's other words", () => {
  it("'where can I go?' and 'exits' look around and name the ways on", async () => {
    for (const text of ["where can I go?", "exits", "Which way can I go?"]) {
      const { text: story } = await act(text);
      assert.equal(story.split("\n\n")[0], "You look around.", text);
      assert.match(story, /From here you can go to the Fish Market\./, text);
    }
    // "where should I go?" asks what to do: the journal's step (hint.ts).
    assert.match(await first("where should I go?"), /^You take stock/);
  });

  it("'help me' asks what to do, and 'examine myself' looks at oneself", async () => {
    assert.match(await first("help me"), /^You take stock/);
    assert.doesNotMatch(await first("examine myself"), /There is no myself/);
  });
});

describe("offline narration: greetings and words said for themselves", () => {
  it("'hi Mara', 'thanks', 'bye' are speech, never an act", async () => {
    const eel: [string, string] = ["The Gutted Eel", "Hearth Room"];
    assert.equal(await first("hi mara", {}, eel), "You say: “hi Mara.”");
    assert.equal(await first("thanks", {}, eel), "You say: “thanks.”");
    assert.equal(await first("Good morning!", {}, eel), "You say: “Good morning!”");
    assert.equal(await first("bye"), "You say: “bye.”");
    // A verb after it is an act: "thank Mara" is no interjection.
    assert.equal(await first("thank mara", {}, eel), "You thank Mara.");
  });
});
