import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AiError } from "../../src/ai/errors.ts";
import { parseBeats } from "../../src/ai/offline/event.ts";
import { createOfflineProvider, SUMMARY_LIMIT } from "../../src/ai/offline/index.ts";
import { toSecondPerson } from "../../src/ai/offline/person.ts";
import { isStale } from "../../src/ai/offline/stale.ts";
import { sentences } from "../../src/ai/offline/text.ts";
import type { NarrationRequest, Outcome } from "../../src/engine/ports.ts";
import { HARBOR, narrationRequest, outcome, storyOf } from "./offline-helpers.ts";

const ai = createOfflineProvider(HARBOR);
const narrate = (request: NarrationRequest) => ai.narrate(request);
const talk = { player: "Isobel Carrow", text: "talk to Mara Venn" };

describe("offline narration: the opening", () => {
  it("tells the story start's text, then a short scene line, then a prompt", async () => {
    const start = HARBOR.storyStarts["Dawn at the Docks"]!.storyStart;
    const request = narrationRequest(
      { tick: 0, opening: true, actions: [], intent: null },
      "Brinewick Docks",
      "Pier End",
    );
    request.scene.openingText = start;
    const { text } = await narrate(request);
    const paragraphs = text.split("\n\n");
    assert.equal(paragraphs[0], start);
    assert.equal(
      paragraphs[1],
      "Pier End, Brinewick Docks. The seaward tip of the longest pier: bollards, coiled cable, and a lantern post with no lantern.",
    );
    assert.match(paragraphs.at(-1)!, /^What (do you do|now)/);
    assert.ok(!text.includes("When the fog allows"), "one sentence of the area, not the whole description");
  });
});

describe("offline narration: a turn", () => {
  it("an arrival: the movement in the player's verb, the place in brief, the NPCs with their public info", async () => {
    const { text } = await narrate(
      narrationRequest({
        actions: [{ player: "Isobel Carrow", text: "walk to the Gutted Eel" }],
        intent: { intent: "travel", target: "The Gutted Eel" },
        outcomes: [outcome.travelled("The Gutted Eel")],
      }),
    );
    const paragraphs = text.split("\n\n");
    assert.equal(paragraphs[0], "You walk to the Gutted Eel.");
    assert.equal(
      paragraphs[1],
      "A low-beamed tavern built from the timbers of an older ship. Benches around a peat fire, salt-stiff coats steaming on hooks.",
    );
    assert.equal(
      paragraphs[2],
      "Mara Venn is here. A rope-maker in her twenties with tar-black fingers and a steady stare.",
    );
    assert.ok(!text.includes("Harbour Wardens"), "only the first sentence of the NPC's info");
  });

  it("a party's move is told in the third person, the leader's line with who follows; each line its actor", async () => {
    const answer = await ai.narrate(
      narrationRequest({
        actions: [
          { player: "Isobel Carrow", text: "walk to the Gutted Eel" },
          { player: "Ada Quill", text: "follow Isobel closely" },
          { player: "Bram", text: "look around" },
        ],
        intent: { intent: "travel", target: "The Gutted Eel", leader: "Isobel Carrow" },
        outcomes: [
          { ...outcome.travelled("The Gutted Eel"), actor: "Isobel Carrow" } as Outcome,
          { type: "followed", actor: "Ada Quill", leader: "Isobel Carrow" },
          { type: "followed", actor: "Bram", leader: "Isobel Carrow" },
        ],
      }),
    );
    const [first, second] = answer.text.split("\n\n");
    assert.equal(first, "Isobel Carrow walks to the Gutted Eel; Ada Quill and Bram follow.");
    // A follower who only asked to follow is told once; one who did something else is told what they did.
    assert.ok(!/Ada Quill follows/.test(answer.text), answer.text);
    assert.equal(second, "Bram looks around.");
    assert.ok(!/\byou\b/i.test(`${first} ${second}`), answer.text);
    assert.deepEqual(
      answer.segments?.slice(0, 2).map((s) => s.actor),
      ["Isobel Carrow", "Bram"],
    );
    assert.equal(answer.segments?.map((s) => s.text).join("\n\n"), answer.text);
  });

  it("someone who is elsewhere is not talked to: 'talk to Mara' on the pier says she is not here", async () => {
    const onPier = await narrate(
      narrationRequest(
        {
          actions: [{ player: "Isobel Carrow", text: "talk to Mara" }],
          intent: { intent: "other" },
          // A trigger of the same turn (the docks' gossip) must not make the talk come true.
          outcomes: [outcome.objective("The Keeper's Debt", "Find Mara Venn at the Gutted Eel.", "revealed")],
        },
        "Brinewick Docks",
        "Pier End",
      ),
    );
    const first = onPier.text.split("\n\n")[0]!;
    assert.equal(first, "Mara Venn is not here.");
    const inTavern = await narrate(
      narrationRequest({
        actions: [{ player: "Isobel Carrow", text: "talk to Mara" }],
        intent: { intent: "other" },
      }),
    );
    assert.ok(!/not here/.test(inTavern.text), inTavern.text);
    // Naming someone present beside someone absent is a talk with the one present.
    const about = await narrate(
      narrationRequest({
        actions: [{ player: "Isobel Carrow", text: "ask Mara about Corvin Slade" }],
        intent: { intent: "other" },
      }),
    );
    assert.ok(!/not here/.test(about.text), about.text);
    // Asking after someone elsewhere is not aimed at them.
    for (const text of ["ask about Mara", "ask Orla where Mara is", "tell me about Corvin Slade"]) {
      const asked = await narrate(
        narrationRequest(
          { actions: [{ player: "Isobel Carrow", text }], intent: { intent: "other" } },
          "Saltlight Temple",
          "Nave",
        ),
      );
      assert.ok(!/is not here/.test(asked.text), `${text}: ${asked.text}`);
    }
    // The one spoken to is the friend, not the one whose friend she is.
    const friend = await narrate(
      narrationRequest(
        {
          actions: [{ player: "Isobel Carrow", text: "ask mara venn's friend orla about the widows' cairn" }],
          intent: { intent: "other" },
        },
        "Old Lighthouse",
        "Lamp Room",
      ),
    );
    assert.match(friend.text, /^Orla Quill is not here\./, friend.text);
  });

  it("'go up' at the top of the tower: the party stays, told where it can go (no echo of a climb)", async () => {
    const { text } = await narrate(
      narrationRequest(
        {
          actions: [{ player: "Isobel Carrow", text: "go up" }],
          intent: { intent: "other" },
          outcomes: [],
        },
        "Old Lighthouse",
        "Lamp Room",
      ),
    );
    const first = text.split("\n\n")[0]!;
    assert.equal(
      first,
      "You stay where you are: no way leads up from the Lamp Room. From the Lamp Room you can go to the Stairwell.",
    );
  });

  it("a refused move says why, in prose", async () => {
    const region = await narrate(
      narrationRequest({
        actions: [{ player: "Isobel Carrow", text: "travel to the Gull Coast" }],
        intent: { intent: "travel", target: "Gull Coast" },
        outcomes: [outcome.refused({ why: "unknown-place", place: "Gull Coast" })],
      }),
    );
    assert.match(
      region.text,
      /^You stay where you are: Gull Coast is a whole region, not a single place\. Name one of its places: Old Lighthouse or Gannet Point\./,
    );
    const area = await narrate(
      narrationRequest({
        actions: [{ player: "Isobel Carrow", text: "go to the Stairwell" }],
        intent: { intent: "move", target: "Stairwell" },
        outcomes: [outcome.refused({ why: "no-area", place: "The Gutted Eel", area: "Stairwell" })],
      }),
    );
    assert.match(
      area.text,
      /^You stay where you are: there is no Stairwell at the Gutted Eel\. Here there are the Hearth Room and the Back Parlour\./,
    );
    const already = await narrate(
      narrationRequest({
        intent: { intent: "travel", target: "The Gutted Eel" },
        outcomes: [outcome.refused({ why: "already-at", place: "The Gutted Eel" })],
      }),
    );
    assert.match(already.text, /^You are already at the Gutted Eel\./);
  });

  it("a journey to no known place is not echoed as done", async () => {
    const first = async (text: string) =>
      (await narrate(narrationRequest({ actions: [{ player: "Isobel Carrow", text }] }))).text.split(
        "\n\n",
      )[0];
    assert.equal(
      await first("go to the Pantry"),
      "You stay where you are: you know of no place called the Pantry.",
    );
    assert.equal(
      await first("travel to Avalon and rest"),
      "You stay where you are: you know of no place called Avalon.",
    );
    // Lower-case destinations are ordinary actions here; negated or wondered-about journeys are not journeys.
    assert.equal(await first("walk to the window"), "You walk to the window.");
    assert.equal(await first("I don't want to go to Avalon"), "You don't want to go to Avalon.");
  });

  it("other actions are echoed in the second person; one that changed nothing is told as an attempt", async () => {
    const NOTHING = "(?:nothing comes of it|nothing changes|it makes no difference that you can see)";
    const cases: [string, RegExp][] = [
      ["light the lighthouse lamp", new RegExp(`^You try to light the lighthouse lamp, but ${NOTHING}\\.$`)],
      ["I light my lantern", new RegExp(`^You try to light your lantern, but ${NOTHING}\\.$`)],
      ["Mara, what happened to your father?", /^You say: “Mara, what happened to your father\?”$/],
      ["We climb onto the bollard", /^You climb onto the bollard\.$/],
      ["what is this place", /^You are at the Hearth Room of the Gutted Eel, Brinewick\.$/],
      ["tell me about the lighthouse", /^You ask about the lighthouse\.$/],
      ["xyzzy", new RegExp(`^You try “xyzzy”, but ${NOTHING}\\.$`)],
      ["1", new RegExp(`^You try “1”, but ${NOTHING}\\.$`)],
      ["???", /^You say: “\?\?\?”$/],
      ["42 times", new RegExp(`^You try “42 times”, but ${NOTHING}\\.$`)],
    ];
    for (const [action, expected] of cases) {
      const { text } = await narrate(
        narrationRequest({ actions: [{ player: "Isobel Carrow", text: action }] }),
      );
      assert.match(text.split("\n\n")[0]!, expected);
    }
    // A story instruction alone does not light a lamp (issue 14: the beam was narrated, the quest not done).
    const told = await narrate(
      narrationRequest({
        actions: [{ player: "Isobel Carrow", text: "light the lighthouse lamp" }],
        instructions: ["The wick takes, and a beam sweeps out over the Gull Coast."],
      }),
    );
    assert.equal(told.text.split("\n\n")[0], "You try to light the lighthouse lamp.");
    // Words that are no act are quoted, also on a turn where something else was told (never "You asdfghjkl qwerty.").
    const gibberish = await narrate(
      narrationRequest({
        actions: [{ player: "Isobel Carrow", text: "asdfghjkl qwerty" }],
        instructions: ["The wick takes, and a beam sweeps out over the Gull Coast."],
      }),
    );
    assert.equal(gibberish.text.split("\n\n")[0], "You try “asdfghjkl qwerty”.");
    const long = await narrate(
      narrationRequest({ actions: [{ player: "Isobel Carrow", text: "x".repeat(300) }] }),
    );
    assert.match(long.text.split("\n\n")[0]!, /^You try “x{79}…”, but /);
    // When a trigger fired on the action (and recorded its change), the action is echoed as done.
    const { text } = await narrate(
      narrationRequest({
        actions: [{ player: "Isobel Carrow", text: "light the lighthouse lamp" }],
        actionsAnswered: true,
        outcomes: [
          outcome.objective("The Keeper's Debt", "Return to the Old Lighthouse and light the lamp."),
        ],
      }),
    );
    assert.equal(text.split("\n\n")[0], "You light the lighthouse lamp.");
  });

  it("staying, the place sentence varies by tick but never at random, and never twice in five turns", async () => {
    const seen = new Set<string>();
    const byTick: string[] = [];
    for (let tick = 1; tick <= 12; tick++) {
      // A turn spent waiting ("look around" is answered with the whole place and its ways on).
      const request = narrationRequest({ tick, actions: [{ player: "Isobel Carrow", text: "wait" }] });
      const a = await narrate(request);
      assert.deepEqual(a, await narrate(structuredClone(request)));
      const place = a.text.split("\n\n")[1]!;
      byTick.push(place.includes("is here") ? "" : place);
      if (!place.includes("is here")) seen.add(place);
    }
    byTick.forEach((place, i) => {
      if (place !== "") assert.ok(!byTick.slice(i + 1, i + 5).includes(place), `tick ${i + 1}: ${place}`);
    });
    assert.ok(seen.size >= 2, [...seen].join(" | "));
    for (const sentence of seen)
      assert.ok(
        sentences(
          HARBOR.locations["The Gutted Eel"]!.basicInfo +
            " " +
            HARBOR.locations["The Gutted Eel"]!.areas!["Hearth Room"]!.description,
        ).includes(sentence),
      );
  });

  it("staying, no place sentence comes again before every other was told, in an order seeded by the session", async () => {
    const orders: string[] = [];
    for (const game of ["s-0001", "s-7f3a", "s-beef", "s-c0de"]) {
      const told: string[] = [];
      for (let tick = 3; tick <= 22; tick++) {
        const request = narrationRequest(
          { tick, game, actions: [{ player: "Isobel Carrow", text: "wait" }] },
          "Brinewick Docks",
          "Pier End",
        );
        const a = await narrate(request);
        assert.deepEqual(a, await narrate(structuredClone(request)), "the same request, the same story");
        const place = a.text.split("\n\n")[1] ?? "";
        // The place's own sentences (not "What now?" on a turn without one).
        const own = `${request.scene.locationInfo} ${request.scene.areaDescription}`;
        if (place !== "" && own.includes(place)) told.push(place);
      }
      const distinct = new Set(told);
      assert.ok(distinct.size >= 3, told.join(" | "));
      // The first sentence told twice comes only after every one of them was told once.
      const firstAgain = told.findIndex((t, i) => told.indexOf(t) < i);
      if (firstAgain >= 0)
        assert.equal(new Set(told.slice(0, firstAgain)).size, distinct.size, `${game}: ${told.join(" | ")}`);
      orders.push(told.join("|"));
    }
    assert.ok(new Set(orders).size > 1, "another session, another order");
  });

  it("staying, a place sentence that leans on the one before it ('Its lamp ...') is never told alone", async () => {
    const told: string[] = [];
    for (let tick = 1; tick <= 10; tick++) {
      const request = narrationRequest(
        { tick, actions: [{ player: "Isobel Carrow", text: "wait" }] },
        "Old Lighthouse",
        "Rock Landing",
      );
      told.push(...(await narrate(request)).text.split("\n\n"));
    }
    assert.ok(
      told.every((p) => !/^Its lamp/.test(p)),
      told.join(" | "),
    );
    assert.ok(
      told.some((p) => /whitewashed stone|winch|ledge/.test(p)),
      told.join(" | "),
    );
  });

  it("journal changes and the next step", async () => {
    const { text } = await narrate(
      narrationRequest({
        actions: [talk],
        intent: { intent: "interactNPC" },
        outcomes: [
          outcome.objective("The Keeper's Debt", "Find Mara Venn at the Gutted Eel."),
          outcome.objective(
            "The Keeper's Debt",
            "Travel to the Old Lighthouse on the Gull Coast.",
            "revealed",
          ),
          outcome.quest("The Keeper's Debt", "completed"),
          outcome.event("Storm Night", "began"),
        ],
        journal: [
          { quest: "The Keeper's Debt", status: "accepted", nextStep: "Travel to the Old Lighthouse." },
        ],
      }),
    );
    assert.ok(text.includes("Done for The Keeper's Debt: find Mara Venn at the Gutted Eel."), text);
    assert.ok(
      text.includes("New in The Keeper's Debt: travel to the Old Lighthouse on the Gull Coast."),
      text,
    );
    assert.ok(text.includes("The Keeper's Debt is complete."), text);
    assert.ok(text.includes("Storm Night begins."), text);
    // The closing is a prompt, never the next step (the turn result's `next`: issue 14 item 5).
    assert.match(text.split("\n\n").at(-1)!, /^What (do you do( next)?|now)\?$/);
    assert.doesNotMatch(text, /Next:/);
  });

  it("never writes a next step, which the state phase may complete after it (issue 14 item 5)", async () => {
    // The arrival at the lighthouse: the narrator still sees "Travel to the Old Lighthouse" as the
    // next step, because arrive_lighthouse completes it in the state phase, after the narration.
    const arriving = narrationRequest({
      intent: { intent: "travel", target: "Old Lighthouse" },
      outcomes: [outcome.travelled("Old Lighthouse")],
      partyNextStep: "Travel to the Old Lighthouse on the Gull Coast.",
      journal: [
        {
          quest: "The Keeper's Debt",
          status: "accepted",
          nextStep: "Travel to the Old Lighthouse on the Gull Coast.",
        },
      ],
    });
    for (const mode of ["Harbour Tale", "Wrecker's Luck"]) {
      const provider = createOfflineProvider(HARBOR, { gameMode: mode });
      const arrived = await provider.narrate(arriving);
      assert.doesNotMatch(arrived.text, /Next:|Travel to the Old Lighthouse on the Gull Coast/, mode);
      assert.match(arrived.text.split("\n\n").at(-1)!, /^What (do you do( next)?|now)\?$/, mode);
    }
  });

  it("never tells an NPC's hiddenInfo, wherever the party stands", async () => {
    const hidden = Object.values(HARBOR.npcs)
      .map((n) => n.hiddenInfo)
      .filter((h): h is string => typeof h === "string")
      .flatMap((h) => sentences(h));
    assert.ok(hidden.length > 3);
    for (const [location, loc] of Object.entries(HARBOR.locations)) {
      for (const area of Object.keys(loc.areas ?? {})) {
        for (const text of ["talk to everyone about secrets", "ask about the debt", "look around"]) {
          const request = narrationRequest(
            {
              actions: [{ player: "Isobel Carrow", text }],
              outcomes: [outcome.travelled(location)],
            },
            location,
            area,
          );
          const answer = await narrate(request);
          for (const sentence of hidden) assert.ok(!answer.text.includes(sentence.slice(0, 40)), sentence);
        }
      }
    }
  });

  it("the same request always gives the same answer", async () => {
    const request = narrationRequest({ actions: [talk], instructions: [storyOf("keeper_rumour")] });
    const first = await narrate(request);
    for (let i = 0; i < 3; i++) assert.deepEqual(await narrate(structuredClone(request)), first);
  });
});

describe("offline narration: one-time instructions", () => {
  it("keeper_rumour while talking to Mara: her plea as what happens, conditions resolved", async () => {
    const { text } = await narrate(
      narrationRequest({
        actions: [talk],
        intent: { intent: "interactNPC" },
        instructions: [storyOf("keeper_rumour")],
      }),
    );
    assert.ok(
      text.includes("Mara Venn, the lighthouse keeper's daughter, is asking every stranger for help."),
    );
    assert.ok(
      text.includes(
        "She tells you herself: her father Ansel kept the Old Lighthouse until the autumn gales, then vanished and left the lamp dark.",
      ),
      text,
    );
    assert.ok(text.includes("asks you to go east to the Gull Coast"), text);
    assert.ok(!/\bIf\b|\blet someone\b|the party/i.test(text), text);
  });

  it("an instruction written for the dark lamp is not told beside this turn's lighting of it", async () => {
    const lighting = {
      actions: [{ player: "Isobel Carrow", text: "light the lamp" }],
      outcomes: [outcome.objective("The Keeper's Debt", "Return to the Old Lighthouse and light the lamp.")],
      instructions: [storyOf("light_the_beacon"), storyOf("storm_season")],
    };
    const answer = await ai.narrate(narrationRequest(lighting, "Old Lighthouse", "Lamp Room"));
    assert.match(answer.text, /beam sweeps/);
    assert.match(answer.text, /The wind has swung round to the south-west\./);
    assert.doesNotMatch(answer.text, /still dark/);
    assert.match(answer.notice ?? "", /contradicted by this turn's changes/);
    // Without the lighting, the storm's warning is told whole.
    const dark = await ai.narrate(
      narrationRequest(
        { ...lighting, outcomes: [], instructions: [storyOf("storm_season")] },
        "Old Lighthouse",
        "Lamp Room",
      ),
    );
    assert.match(dark.text, /with the lamp still dark/);
  });

  it("keeper_rumour told after the party left the Eel: Mara's plea is not told as happening, and the trace says so", async () => {
    const answer = await ai.narrate(
      narrationRequest(
        {
          actions: [{ player: "Isobel Carrow", text: "walk to the temple" }],
          intent: { intent: "travel", target: "Saltlight Temple" },
          outcomes: [outcome.travelled("Saltlight Temple")],
          instructions: [storyOf("keeper_rumour")],
        },
        "Saltlight Temple",
        "Nave",
      ),
    );
    assert.ok(!/Mara Venn|She tells you herself|asks you to go east/.test(answer.text), answer.text);
    assert.match(answer.notice ?? "", /the party is no longer at the Gutted Eel/);
  });

  it("a deferred instruction set at a place the party left is left out; remembered words are told as such", async () => {
    const answer = await ai.narrate(
      narrationRequest(
        {
          actions: [{ player: "Isobel Carrow", text: "walk back to the tavern" }],
          intent: { intent: "travel", target: "The Gutted Eel" },
          outcomes: [outcome.travelled("The Gutted Eel")],
          instructions: [
            storyOf("barrow_breath"),
            "In the Bone Chamber the water rises around the party's ankles.",
            "Corvin Slade slides the brass lamp key across the desk. 'The debt still stands,' he says softly.",
            "The Salt Widow whispers 'Give me your name.' from the dark.",
          ],
        },
        "The Gutted Eel",
        "Hearth Room",
      ),
    );
    assert.ok(
      !/water rises|A voice from the water|slides the brass lamp key|debt still stands/.test(answer.text),
      answer.text,
    );
    assert.ok(answer.text.includes("You remember the Salt Widow's words: 'Give me your name.'"), answer.text);
    assert.match(answer.notice ?? "", /no longer at the Bone Chamber/);
    assert.match(answer.notice ?? "", /is set at Bone Chamber/);
  });

  it("climb_stairwell's story told after the party went back to the Eel: the lamp room, in lower case, is elsewhere", async () => {
    const answer = await ai.narrate(
      narrationRequest({
        actions: [{ player: "Isobel Carrow", text: "go back to the gutted eel" }],
        intent: { intent: "travel", target: "The Gutted Eel" },
        outcomes: [outcome.travelled("The Gutted Eel")],
        instructions: [storyOf("climb_stairwell")],
      }),
    );
    assert.ok(!/logbook lies open/.test(answer.text), answer.text);
    assert.match(answer.notice ?? "", /is set at Lamp Room/);
  });

  it("coming back to someone whose portrait a recent turn told still says they are here", async () => {
    const portrait =
      "Mara Venn is here. A rope-maker in her twenties with tar-black fingers and a steady stare.";
    const answer = await ai.narrate(
      narrationRequest({
        actions: [{ player: "Isobel Carrow", text: "go back to the gutted eel" }],
        intent: { intent: "travel", target: "The Gutted Eel" },
        outcomes: [outcome.travelled("The Gutted Eel")],
        scene: {
          ...narrationRequest().scene,
          recentStory: [`You walk to the Gutted Eel.\n\n${portrait}\n\nWhat do you do?`],
        },
      }),
    );
    assert.ok(!answer.text.includes(portrait), answer.text);
    assert.ok(answer.text.split("\n\n").includes("Mara Venn is here."), answer.text);
  });

  it("talking again to someone already introduced does not also say they are here", async () => {
    const portrait =
      "Mara Venn is here. A rope-maker in her twenties with tar-black fingers and a steady stare.";
    const answer = await ai.narrate(
      narrationRequest({
        actions: [{ player: "Isobel Carrow", text: "talk to Mara Venn" }],
        intent: { intent: "interactNPC", target: "Mara Venn" },
        scene: {
          ...narrationRequest().scene,
          recentStory: [`You walk to the Gutted Eel.\n\n${portrait}\n\nWhat do you do?`],
        },
      }),
    );
    assert.ok(answer.text.includes("Mara Venn"), answer.text);
    assert.ok(!answer.text.split("\n\n").includes("Mara Venn is here."), answer.text);
    assert.ok(!answer.text.includes(portrait), answer.text);
  });

  it("the logbook's pages are given only to a player who reads it", async () => {
    const reading = await narrate(
      narrationRequest(
        {
          actions: [{ player: "Isobel Carrow", text: "read the keeper's logbook" }],
          intent: { intent: "readDocument" },
          instructions: [storyOf("logbook_waits")],
        },
        "Old Lighthouse",
        "Lamp Room",
      ),
    );
    assert.ok(reading.text.includes("Ansel borrowed forty silver from Corvin Slade"), reading.text);
    assert.ok(
      reading.text.includes("'Slade's men took the lamp key. They say I may have it back"),
      reading.text,
    );
    const elsewhere = await narrate(
      narrationRequest(
        {
          actions: [{ player: "Isobel Carrow", text: "go down to the Stairwell" }],
          intent: { intent: "move", target: "Stairwell" },
          instructions: [storyOf("logbook_waits")],
        },
        "Old Lighthouse",
        "Lamp Room",
      ),
    );
    assert.ok(!elsewhere.text.includes("Ansel borrowed"), elsewhere.text);
  });

  it("a text written for the narrator is left out whole; prose with a turn of phrase for the narrator is told", async () => {
    const { text } = await narrate(
      narrationRequest({
        instructions: [
          storyOf("read_logbook"),
          "The storm is spent. Describe a washed, pale dawn over the Gull Coast.",
          "Keep it short. End on a sound in the fog.",
          "Let someone grumble about the weather.",
        ],
      }),
    );
    assert.ok(
      text.includes(
        "You now know the keeper's secret: Ansel Venn owed Corvin Slade forty silver, refused to let the lamp go dark to pay it, and lost the lamp key to Slade's men. That knowledge sits heavy as you decide what to do.",
      ),
      text,
    );
    // Issue 35: "Describe ..." makes the whole text a direction; its statement is not told either.
    assert.ok(!/storm is spent|washed, pale dawn/i.test(text), text);
    assert.ok(text.includes("Someone grumbles about the weather."), text);
    assert.ok(!/Keep it short|End on/.test(text), text);
  });

  it("the second person leaves quotations and other people's 'they' alone", () => {
    assert.equal(
      toSecondPerson("The gulls no longer scatter when the party comes; they know them now."),
      "The gulls no longer scatter when you come; they know you now.",
    );
    assert.equal(
      toSecondPerson("Scratched into the plaster are tally marks, and then they stop."),
      "Scratched into the plaster are tally marks, and then they stop.",
    );
    assert.equal(
      toSecondPerson("The party hears her: 'They took the key from the party.'"),
      "You hear her: 'They took the key from the party.'",
    );
    assert.equal(toSecondPerson("The character's nerve is fraying."), "Your nerve is fraying.");
  });

  it("a sentence that opens on someone else's plural subject keeps their pronouns", () => {
    // The example world's ambush: the coats are the salvagers', not the player's.
    const salvagers =
      "Two of Slade Company's salvagers drift in and stand by the door, hands in their coats.";
    assert.equal(toSecondPerson(salvagers), salvagers);
    assert.equal(
      toSecondPerson("Half the wardens owe money to Slade, and their captain owes the most."),
      "Half the wardens owe money to Slade, and their captain owes the most.",
    );
    assert.equal(toSecondPerson("Strangers learn them too late."), "Strangers learn them too late.");
    // Sentence by sentence: the next one is the party's again.
    assert.equal(
      toSecondPerson("Boats are drawn up with their names painted out. Offer them a fire."),
      "Boats are drawn up with their names painted out. Offer you a fire.",
    );
    // A singular subject, or one that is the party, still gives the party its pronouns.
    assert.equal(toSecondPerson("The boss is angry with them."), "The boss is angry with you.");
    assert.equal(
      toSecondPerson("The fog thickens until the party can barely see their own hands."),
      "The fog thickens until you can barely see your own hands.",
    );
  });
});

describe("offline narration: streaming and cancelling", () => {
  it("chunks arrive by sentence and concatenate to the text", async () => {
    const chunks: string[] = [];
    const answer = await ai.narrate(
      narrationRequest({ actions: [talk], instructions: [storyOf("keeper_rumour")] }),
      (chunk) => chunks.push(chunk),
    );
    assert.ok(chunks.length > 4, String(chunks.length));
    assert.equal(chunks.join(""), answer.text);
  });

  it("an aborted signal throws AiError 'aborted', before or during the stream", async () => {
    const before = new AbortController();
    before.abort();
    await assert.rejects(ai.narrate(narrationRequest(), undefined, before.signal), (e: unknown) => {
      return e instanceof AiError && e.kind === "aborted";
    });
    const during = new AbortController();
    let seen = 0;
    await assert.rejects(
      ai.narrate(
        narrationRequest({ instructions: [storyOf("keeper_rumour")] }),
        () => {
          seen++;
          during.abort();
        },
        during.signal,
      ),
      (e: unknown) => e instanceof AiError && e.kind === "aborted",
    );
    assert.equal(seen, 1);
    for (const call of [
      () => ai.classify({} as never, before.signal),
      () => ai.judge({} as never, before.signal),
      () => ai.embed!(["x"], before.signal),
    ])
      await assert.rejects(call(), (e: unknown) => e instanceof AiError && e.kind === "aborted");
  });

  it("a chunk handler that throws becomes an AiError", async () => {
    await assert.rejects(
      ai.narrate(narrationRequest(), () => {
        throw new TypeError("host bug");
      }),
      (e: unknown) => e instanceof AiError && /host bug/.test(e.message),
    );
  });
});

describe("offline narration: narrative events", () => {
  const storm = HARBOR.narrativeEvents!["Storm Night"]!;
  const event = (activeTurns: number) => ({
    key: "Storm Night",
    title: storm.title,
    beats: storm.beats,
    activeTurns,
  });
  const lamp = narrationRequest({}, "Old Lighthouse", "Lamp Room");

  it("parses numbered beats and leaves out the narrator-only 'complete when' sentence", () => {
    const beats = parseBeats(storm.beats);
    assert.equal(beats.length, 4);
    assert.match(beats[0]!, /^The gale arrives all at once/);
    assert.equal(
      beats[3],
      "Either the lamp burns and the ship turns from the reef, or it stays dark and the sea takes its due.",
    );
    assert.deepEqual(parseBeats("- one\n- two"), ["one", "two"]);
    assert.deepEqual(parseBeats("Rain falls. The bell rings."), ["Rain falls.", "The bell rings."]);
    assert.deepEqual(parseBeats(""), []);
  });

  it("one beat per active turn, in order; completed when the final beat is told and settled", async () => {
    // The final beat is "Either the lamp burns ..., or it stays dark ...": with nothing told of the
    // lamp, the ship's fate is not settled, so telling it does not complete Storm Night (the engine
    // ends an event that runs past 2 x targetTurns).
    const expected = ["neither", "neither", "neither", "neither", "neither"];
    for (let turns = 0; turns <= 4; turns++) {
      const answer = await narrate({ ...lamp, event: event(turns) });
      assert.equal(answer.eventVerdict, expected[turns], `activeTurns ${turns}`);
      const beat = parseBeats(storm.beats)[Math.min(turns, 3)]!;
      // The final beat is an "either ... or ..." the offline narrator cannot resolve: it is not told as if both happened.
      if (turns < 3) assert.ok(answer.text.includes(beat), answer.text);
      else assert.ok(!answer.text.includes("Either the lamp burns"), answer.text);
    }
  });

  it("completed early when the story covers the final beat", async () => {
    const covered = await narrate({
      ...lamp,
      event: event(0),
      actions: [
        { player: "Isobel Carrow", text: "make sure the lamp burns so the ship turns from the reef" },
      ],
      scene: { ...lamp.scene, recentStory: ["It stays dark, and the sea takes its due, either way."] },
    });
    assert.equal(covered.eventVerdict, "completed");
    const partial = await narrate({
      ...lamp,
      event: event(0),
      actions: [{ player: "Isobel Carrow", text: "light the lighthouse lamp" }],
    });
    assert.equal(partial.eventVerdict, "neither");
  });

  it("stopped when the party travels away while the event runs; completed still wins", async () => {
    const away = await narrate({
      ...lamp,
      event: event(1),
      outcomes: [outcome.travelled("The Gutted Eel")],
    });
    assert.equal(away.eventVerdict, "stopped");
    assert.ok(away.text.includes("You leave Storm Night behind you, for now."));
    assert.ok(!away.text.includes("wreckers' lanterns swing"));
    const tie = await narrate({
      ...lamp,
      event: event(3),
      summary: "You lit the lamp. It burns at last, and far out a ship turns for the harbour.",
      outcomes: [outcome.travelled("The Gutted Eel")],
    });
    assert.equal(tie.eventVerdict, "completed");
    // The final beat told but not settled (nothing says whether the lamp burns): leaving stops the event.
    const unsettled = await narrate({
      ...lamp,
      event: event(3),
      outcomes: [outcome.travelled("The Gutted Eel")],
    });
    assert.equal(unsettled.eventVerdict, "stopped");
    const within = await narrate({ ...lamp, event: event(1), outcomes: [outcome.area("Stairwell")] });
    assert.equal(within.eventVerdict, "neither");
  });

  it("the final beat's branch is chosen by what the story states, not by words always present", async () => {
    const branch = "The lamp burns and the ship turns from the reef.";
    // The storm before the lamp is lit: every turn names the lamp, a ship and the reef, and "the sky has turned".
    const dark = [
      "Slade's word stays with you: the lamp key hangs on its hook in the lamp room again, and the sky over the Gull Coast has turned the colour of a bruise: the storm Slade promised is coming in fast.",
      "The storm has arrived at the tower: rain driving sideways, the sea white over the causeway, and lanterns swinging on the reefs below where no honest boat would be.",
      "The brass key hangs on its hook again, it fits the lamp, and the reservoir still holds oil. A ship's bell sounds in the murk, closer each time: a merchantman running blind for the harbour.",
    ];
    const stairwell = narrationRequest({}, "Old Lighthouse", "Stairwell");
    const unlit = await narrate({
      ...stairwell,
      event: event(3),
      actions: [
        { player: "Isobel Carrow", text: "make sure the lamp burns so the ship turns from the reef" },
      ],
      outcomes: [outcome.area("Stairwell")],
      scene: { ...stairwell.scene, recentStory: dark },
    });
    assert.ok(!unlit.text.includes(branch), unlit.text);
    assert.ok(!unlit.text.includes("Either"), unlit.text);
    // The lamp was lit: the story states the branch.
    const lit = await narrate({
      ...lamp,
      event: event(3),
      summary: "You lit the lamp. It burns at last, and far out a ship turns for the harbour.",
      scene: { ...lamp.scene, recentStory: dark },
    });
    assert.ok(lit.text.includes(branch), lit.text);
    assert.equal(lit.eventVerdict, "completed", "the branch told settles the event");
    assert.equal(unlit.eventVerdict, "neither", "Storm Night is not over while the lamp is dark");
    // A sentence that denies the branch does not state it.
    const denied = await narrate({
      ...lamp,
      event: event(3),
      scene: { ...lamp.scene, recentStory: ["The lamp is not burning, and the ship never turns."] },
    });
    assert.ok(!denied.text.includes(branch), denied.text);
  });

  it("no event, no verdict", async () => {
    assert.equal("eventVerdict" in (await narrate(lamp)), false);
  });
});

describe("offline narration: summaries", () => {
  it("folds the first sentence of each entry into the old summary", async () => {
    const answer = await narrate(
      narrationRequest({
        summary: "You arrive in Brinewick.",
        summarise: [
          { tick: 1, text: "You walk to the Gutted Eel.\n\nA low-beamed tavern." },
          { tick: 2, text: "You talk to Mara Venn. She is wary." },
        ],
      }),
    );
    assert.equal(
      answer.summary,
      "You arrive in Brinewick. You walk to the Gutted Eel. You talk to Mara Venn.",
    );
    assert.equal("summary" in (await narrate(narrationRequest())), false);
  });

  it("stays bounded, keeping the newest sentences", async () => {
    const summarise = Array.from({ length: 100 }, (_, i) => ({
      tick: i + 1,
      text: `Entry ${i} ${"word ".repeat(200)}. Second sentence.`,
    }));
    const answer = await narrate(narrationRequest({ summary: "Old. ".repeat(2000), summarise }));
    assert.ok(answer.summary!.length <= SUMMARY_LIMIT, String(answer.summary!.length));
    assert.ok(answer.summary!.includes("Entry 99"));
    assert.ok(!answer.summary!.includes("Second sentence"));
  });
});

describe("offline narration: usage", () => {
  it("counts every call and the tokens it produced, with no prompt tokens", async () => {
    const provider = createOfflineProvider(HARBOR);
    assert.deepEqual(provider.usage(), { calls: 0, promptTokens: 0, completionTokens: 0 });
    const { text } = await provider.narrate(narrationRequest());
    await provider.classify({
      tick: 1,
      player: "P",
      text: "wait",
      places: [],
      position: { realm: "", region: "", location: "", area: "" },
      npcsPresent: [],
      recentStory: "",
    });
    await provider.judge({ phase: "state", tick: 1, questions: [], storyText: "", actions: [], players: [] });
    await provider.embed!(["a", "b"]);
    const usage = provider.usage();
    assert.equal(usage.calls, 4);
    assert.equal(usage.promptTokens, 0);
    assert.ok(usage.completionTokens >= Math.ceil(text.length / 4));
    assert.equal(provider.name, "offline");
    assert.equal(provider.model, "offline");
    await provider.close();
  });
});

describe("offline narration: room descriptions after the world changed (issue 14 item 1)", () => {
  it("a place sentence the story since contradicts is left out", async () => {
    let tick = 1;
    const docks = (recentStory: string[], summary = "") => {
      const request = narrationRequest(
        { tick, actions: [{ player: "Isobel Carrow", text: "look around" }], summary },
        "Brinewick Docks",
        "Pier End",
      );
      request.scene.locationInfo = HARBOR.locations["Brinewick Docks"]!.basicInfo;
      request.scene.areaDescription = "";
      request.scene.recentStory = recentStory;
      return request;
    };
    const stale = "everyone has an opinion about the dark lighthouse";
    // A staying turn tells one place sentence in a slot of its order: find the tick that tells this one.
    while (tick < 40 && !(await narrate(docks([]))).text.includes(stale)) tick++;
    const before = await narrate(docks([]));
    assert.ok(before.text.includes(stale), before.text);
    const lit = await narrate(docks(["You light the lamp.\n\nThe lamp of the Old Lighthouse is burning."]));
    assert.ok(!lit.text.includes(stale), lit.text);
    // Long after, the summary keeps the change.
    const later = await narrate(
      docks([], "You light the lamp. The lamp of the Old Lighthouse is burning. You wait."),
    );
    assert.ok(!later.text.includes(stale), later.text);
    const tried = await narrate(docks(["You try to light the lamp, but nothing comes of it."]));
    assert.ok(tried.text.includes(stale), tried.text);
  });

  it("the turn that lights the lamp never calls it 'a cold brass lamp' (the turn's own changes count)", async () => {
    // beacon_ready's instruction, told on the turn the player lights the lamp: whichever place
    // sentence the tick picks, the description that the lamp is cold is left out.
    const shown: string[] = [];
    for (let tick = 1; tick <= 10; tick++) {
      const request = narrationRequest(
        {
          tick,
          actions: [{ player: "Isobel Carrow", text: "light the lighthouse lamp" }],
          instructions: [storyOf("beacon_ready")],
        },
        "Old Lighthouse",
        "Lamp Room",
      );
      const { text } = await narrate(request);
      assert.match(text, /beam sweeps out/, text);
      assert.doesNotMatch(text, /cold brass lamp/, text);
      shown.push(text);
    }
    // The sentence is still told on a turn that changes nothing about the lamp.
    let told = false;
    for (let tick = 1; tick <= 10 && !told; tick++)
      told = (await narrate(narrationRequest({ tick }, "Old Lighthouse", "Lamp Room"))).text.includes(
        "cold brass lamp",
      );
    assert.ok(told, "a quiet turn in the Lamp Room tells the cold lamp");
    assert.equal(
      isStale("the great lens, a cold brass lamp, an oil reservoir", "a beam sweeps out from the lamp"),
      true,
    );
  });

  it("a synonym of the changed thing is stale too: 'the dark tower' once the lighthouse's lamp burns", () => {
    const tower = "When the fog allows, the dark tower on the eastern cliffs is plain to see.";
    const burning = "The lamp of the Old Lighthouse is burning.";
    assert.equal(isStale(tower, burning), true);
    assert.equal(isStale(tower, "You try to light the lamp, but nothing comes of it."), false);
    assert.equal(isStale("A dark alley runs behind the market.", burning), false);
    assert.equal(isStale("The temple's bell is silent.", "The bell rings over the town."), true);
  });
});

describe("offline narration: the storm turn and the lamp key of the example world", () => {
  const storm = HARBOR.narrativeEvents!["Storm Night"]!;
  const event = (activeTurns: number) => ({
    key: "Storm Night",
    title: storm.title,
    beats: storm.beats,
    activeTurns,
  });
  const arrival = storyOf("storm_rises");
  const lamp = () => narrationRequest({ tick: 12 }, "Old Lighthouse", "Lamp Room");

  it("tells the storm's arrival once: the event's first beat is left out after the trigger's instruction told it", async () => {
    const { text } = await narrate(
      narrationRequest(
        {
          tick: 10,
          actions: [{ player: "Isobel Carrow", text: "climb the stairwell" }],
          intent: { intent: "move", target: "Stairwell" },
          outcomes: [outcome.area("Stairwell")],
          instructions: [arrival],
          event: event(0),
        },
        "Old Lighthouse",
        "Stairwell",
      ),
    );
    assert.ok(text.includes("The storm has arrived at the tower"), text);
    assert.ok(!text.includes("The gale arrives"), text);
    assert.equal(text.match(/sideways/g)?.length, 1, text);
    // The next turn does not tell the wreckers' lanterns again either; a beat nobody told yet is told.
    const next = await narrate(
      narrationRequest(
        { tick: 11, event: event(1), scene: { ...lamp().scene, recentStory: [text] } },
        "Old Lighthouse",
        "Lamp Room",
      ),
    );
    assert.ok(!next.text.includes("lanterns swing"), next.text);
    const third = await narrate(
      narrationRequest({ tick: 12, event: event(2) }, "Old Lighthouse", "Lamp Room"),
    );
    assert.ok(third.text.includes("A ship's bell sounds in the murk"), third.text);
  });

  it("an 'If the party lights the lamp' consequence is not told when the player takes the lamp key", async () => {
    const ready = storyOf("beacon_ready");
    const take = await narrate({
      ...lamp(),
      actions: [{ player: "Isobel Carrow", text: "take the lamp key" }],
      instructions: [ready],
    });
    assert.ok(take.text.includes("The brass key hangs on its hook again"), take.text);
    assert.ok(!/lens catches fire|beam sweeps/.test(take.text), take.text);
    const light = await narrate({
      ...lamp(),
      actions: [{ player: "Isobel Carrow", text: "light the lighthouse lamp" }],
      instructions: [ready],
    });
    assert.ok(light.text.includes("the great lens catches fire"), light.text);
  });

  it("taking the lamp key again stays a try; the Lamp Room always shows the key's hook", async () => {
    const again = await narrate({
      ...lamp(),
      actions: [{ player: "Isobel Carrow", text: "take the lamp key" }],
      scene: { ...lamp().scene, recentStory: ["You try to take the lamp key.\n\nWind sings in the panes."] },
    });
    const first = again.text.split("\n\n")[0]!;
    assert.match(first, /try to take the lamp key/);
    // Long after the key was last mentioned, the room itself has its hook: the key is not "not here".
    const later = await narrate({
      ...lamp(),
      actions: [{ player: "Isobel Carrow", text: "take the lamp key" }],
      scene: {
        ...lamp().scene,
        recentStory: ["The storm is spent. A washed, pale dawn over the Gull Coast."],
      },
    });
    assert.doesNotMatch(later.text, /There is no key here/);
    assert.match(later.text.split("\n\n")[0]!, /^You try to take the lamp key/);
  });
});

describe("offline narration: a newcomer's first turns (issues seen playing the example world offline)", () => {
  const first = async (overrides: Partial<NarrationRequest>, location?: string, area?: string) =>
    (await narrate(narrationRequest(overrides, location, area))).text.split("\n\n")[0]!;

  it("a place named after a proper name takes no article: 'You walk to Brinewick Docks.'", async () => {
    const line = await first({
      actions: [{ player: "Isobel Carrow", text: "walk to the Brinewick Docks" }],
      intent: { intent: "travel", target: "Brinewick Docks" },
      outcomes: [outcome.travelled("Brinewick Docks")],
    });
    assert.equal(line, "You walk to Brinewick Docks.");
    // A common head word after a common word keeps its article.
    const lighthouse = await first({
      actions: [{ player: "Isobel Carrow", text: "travel to the Old Lighthouse" }],
      intent: { intent: "travel", target: "Old Lighthouse" },
      outcomes: [outcome.travelled("Old Lighthouse")],
    });
    assert.equal(lighthouse, "You travel to the Old Lighthouse.");
  });

  it("two acts in one line: the act before the move is told (as a try), then the move", async () => {
    const line = await first(
      {
        actions: [{ player: "Isobel Carrow", text: "light the lamp and then go down the stairs" }],
        intent: { intent: "move", target: "Stairwell" },
        outcomes: [outcome.area("Stairwell")],
      },
      "Old Lighthouse",
      "Stairwell",
    );
    assert.match(line, /^You try to light the lamp, but [^.]+\. Then you go to the Stairwell\.$/);
    // A trigger that fired on the line answered it: the act is told, not as coming to nothing.
    const answered = await first(
      {
        actions: [{ player: "Isobel Carrow", text: "light the lamp, then go down to the stairwell" }],
        intent: { intent: "move", target: "Stairwell" },
        outcomes: [outcome.area("Stairwell")],
        actionsAnswered: true,
      },
      "Old Lighthouse",
      "Stairwell",
    );
    assert.equal(answered, "You light the lamp. Then you go to the Stairwell.");
  });

  it("two acts in one line: the act after the move is said to come next", async () => {
    const line = await first({
      actions: [{ player: "Isobel Carrow", text: "walk to the gutted eel and talk to mara" }],
      intent: { intent: "travel", target: "The Gutted Eel" },
      outcomes: [outcome.travelled("The Gutted Eel")],
    });
    assert.equal(line, "You walk to the Gutted Eel. Next, you mean to talk to Mara.");
    // A second move in the same line is still to come: the party made the first (one per turn).
    const twoMoves = await first({
      actions: [{ player: "Isobel Carrow", text: "go to the lighthouse and climb the stairs" }],
      intent: { intent: "travel", target: "Old Lighthouse" },
      outcomes: [outcome.travelled("Old Lighthouse")],
    });
    assert.equal(twoMoves, "You go to the Old Lighthouse. Next, you mean to climb the stairs.");
    // One journey in several words is one act.
    for (const [text, told] of [
      ["walk through the Fish Market to the Gutted Eel", "You walk to the Gutted Eel."],
      ["leave the pier and head to the Gutted Eel", "You make your way to the Gutted Eel."],
      // Words that are no act are not told as one.
      ["Okay. Walk to the Gutted Eel.", "You walk to the Gutted Eel."],
    ] as const)
      assert.equal(
        await first({
          actions: [{ player: "Isobel Carrow", text }],
          intent: { intent: "travel", target: "The Gutted Eel" },
          outcomes: [outcome.travelled("The Gutted Eel")],
        }),
        told,
        text,
      );
  });

  it("'what should I do?' gets the journal's next step, not an echo of the words", async () => {
    const journal = [
      { quest: "The Keeper's Debt", status: "available", nextStep: "Find Mara Venn at the Gutted Eel." },
    ];
    for (const text of ["what should I do?", "What do I do now", "what now?", "any hints?", "hint"]) {
      const line = await first({ actions: [{ player: "Isobel Carrow", text }], journal });
      assert.equal(line, "You take stock of what you know. Next: Find Mara Venn at the Gutted Eel.", text);
    }
    // The party's next step comes first, then an accepted quest's, as the front ends show it.
    const party = await first({
      actions: [{ player: "Isobel Carrow", text: "what should we do next?" }],
      journal,
      partyNextStep: "Ask at the temple.",
    });
    assert.match(party, /Next: Ask at the temple\.$/);
    const none = await first({ actions: [{ player: "Isobel Carrow", text: "what should I do?" }] });
    assert.match(none, /^You take stock: look around, and talk to the people you meet/);
    // Other questions are still speech.
    const other = await first({
      actions: [{ player: "Isobel Carrow", text: "what should I drink?" }],
      journal,
    });
    assert.match(other, /^You say: “what should I drink\?”/);
  });

  it("'demand the lamp key' is told as said to those present, never quoted as a try", async () => {
    const line = await first({ actions: [{ player: "Isobel Carrow", text: "demand the lamp key" }] });
    assert.equal(line, "You demand the lamp key.");
    const alone = await first(
      { actions: [{ player: "Isobel Carrow", text: "demand the lamp key" }] },
      "Brinewick Docks",
      "Pier End",
    );
    assert.equal(alone, "You speak up, but there is no one here to answer.");
  });
});
