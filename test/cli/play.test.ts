import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { loadChecked } from "../../src/cli/play/world.ts";
import { harbor, type Json } from "../helpers/author.ts";
import { readWalkthrough } from "../helpers/walkthrough.ts";
import { captureIo, playAtTerminal, playWith, ROOT, scratchDir } from "./helpers.ts";

/**
 * `taleforge play` run in-process with piped input (stdin not a terminal):
 * one line per action, the transcript on stdout. The example world is played
 * offline with the real sandbox.
 */
const EXAMPLE = join(ROOT, "examples/harbor.world.json");
const walkthrough = readWalkthrough();

const isobel = ["--premade", "Isobel Carrow"];

describe("taleforge play, offline, piped", () => {
  test("the example world's main quest plays to completion from the walkthrough's commands", async () => {
    const commands = walkthrough.steps.map((s) => s.command);
    const { code, out, err } = await playWith(
      [EXAMPLE, ...isobel, "--trace"],
      [...commands, "/quests", "/quit"],
    );
    assert.equal(code, 0, err);
    assert.equal(err, "");
    // The opening is the story start's text, and every command is echoed as it is played.
    assert.match(out, /First light, and the fog has not decided whether to leave/);
    for (const command of commands) assert.ok(out.includes(`> ${command}\n`), `echoed: ${command}`);
    // The trace (--trace) names the triggers each turn fired, in order.
    for (const step of walkthrough.steps)
      for (const trigger of step.fired) assert.ok(out.includes(trigger), `${trigger} appears in the trace`);
    assert.match(out, /Quest "The Keeper's Debt": available\./);
    assert.match(out, /Quest "The Keeper's Debt": completed\./);
    assert.match(out, /You now know Mara Venn\./);
    assert.match(out, /Storm Night begins\./);
    // /quests after the end shows the journal with every objective done.
    const journal = out.slice(out.lastIndexOf("> /quests"));
    assert.match(journal, /The Keeper's Debt \(completed\)/);
    assert.doesNotMatch(journal, /\[ \]/, "no objective left open");
    assert.match(out, /Farewell\.\n$/);
  });

  test("/help's /quit line says whether the game is saved, or how to keep it", async () => {
    const unsaved = await playWith([EXAMPLE, ...isobel], ["/help", "/quit"]);
    assert.match(unsaved.out, /\/quit {2,}leave \(this game is not saved: \/save FILE keeps it\)\n/);
    const dir = scratchDir();
    const saved = await playWith(
      [EXAMPLE, ...isobel, "--save", join(dir.dir, "game.json")],
      ["/help", "/quit"],
    );
    assert.match(saved.out, /\/quit {2,}leave \(the game is saved first\)\n/);
    assert.doesNotMatch(saved.out, /when --save was given/);
  });

  test("a quest offer is answered in line: y accepts, and the next line is played as an action", async () => {
    const { code, out } = await playWith(
      [EXAMPLE, ...isobel],
      ["walk to the Gutted Eel", "y", "talk to Mara Venn", "/quests", "/quit"],
    );
    assert.equal(code, 0);
    assert.match(out, /New quest: The Keeper's Debt/);
    assert.match(out, /Accept "The Keeper's Debt"\? Type y or n/);
    assert.match(out, /Quest "The Keeper's Debt": accepted\./);
    assert.match(out.slice(out.indexOf("> /quests")), /The Keeper's Debt \(accepted\)/);
  });

  test("an offer is answered in the words people use: 'I accept the quest.' accepts, not an action", async () => {
    const { code, out } = await playWith(
      [EXAMPLE, ...isobel],
      ["walk to the Gutted Eel", "I accept the quest.", "/quests", "/quit"],
    );
    assert.equal(code, 0);
    assert.match(out, /Quest "The Keeper's Debt": accepted\./);
    assert.doesNotMatch(out, /You accept the quest/);
    const yes = await playWith([EXAMPLE, ...isobel], ["walk to the Gutted Eel", "yes I accept", "/quit"]);
    assert.match(yes.out, /Quest "The Keeper's Debt": accepted\./);
    assert.doesNotMatch(yes.out, /You yes/);
    const declined = await playWith(
      [EXAMPLE, ...isobel],
      ["walk to the Gutted Eel", "decline the offer", "/quests", "/quit"],
    );
    assert.doesNotMatch(declined.out, /Quest "The Keeper's Debt": accepted/);
    assert.doesNotMatch(declined.out, /You decline/);
  });

  test("any other line leaves the quest on offer and is played; /accept takes it later", async () => {
    const { out } = await playWith(
      [EXAMPLE, ...isobel],
      ["walk to the Gutted Eel", "talk to Mara Venn", "/accept The Keeper's Debt", "/quit"],
    );
    const after = out.slice(out.indexOf("> talk to Mara Venn"));
    assert.doesNotMatch(after.slice(0, after.indexOf("> /accept")), /accepted/);
    assert.match(out.slice(out.indexOf("> /accept")), /Quest "The Keeper's Debt": accepted\./);
  });

  test("/accept alone takes the one quest on offer; with none it says so", async () => {
    const { out } = await playWith(
      [EXAMPLE, ...isobel],
      ["/accept", "/abandon", "walk to the Gutted Eel", "/accept", "/quit"],
    );
    const first = out.slice(out.indexOf("> /accept"), out.indexOf("> /abandon"));
    assert.match(first, /No quest is on offer to accept: \/quests lists your journal\./);
    const abandon = out.slice(out.indexOf("> /abandon"), out.indexOf("> walk to the Gutted Eel"));
    assert.match(abandon, /No quest is under way to abandon/);
    assert.match(out.slice(out.lastIndexOf("> /accept")), /Quest "The Keeper's Debt": accepted\./);
  });

  test("slash commands: /help /party /inventory /map /storage /trace, and an unknown one", async () => {
    const { code, out } = await playWith(
      [EXAMPLE, ...isobel],
      [
        "/trace",
        "walk to the Gutted Eel",
        "/help",
        "/party",
        "/inventory",
        "/map",
        "/storage",
        "/trace",
        "/qusts",
        "/quit",
      ],
    );
    assert.equal(code, 0);
    const section = (name: string) => {
      const start = out.indexOf(`> /${name}\n`);
      assert.ok(start >= 0, `/${name} was read`);
      return out.slice(start, out.indexOf("\n> ", start + 3));
    };
    assert.match(out.slice(out.indexOf("> /trace")), /^> \/trace\nNo turn to explain yet/);
    assert.match(section("help"), /\/undo +take back the last turn/);
    assert.match(section("party"), /Isobel Carrow, level 1\n {2}health \d+\/\d+, resolve \d+\/\d+/);
    assert.match(section("inventory"), /Ship's Biscuit x2/);
    assert.match(section("map"), /\* The Gutted Eel/);
    assert.match(section("map"), /You are at the Hearth Room of the Gutted Eel, Brinewick\./);
    assert.match(section("storage"), /Storage is empty\.|=/);
    assert.match(out.slice(out.lastIndexOf("> /trace")), /keeper_rumour/);
    assert.match(out, /Unknown command \/qusts\. Did you mean "quests"\?/);
  });

  test("/undo takes back the last turn; /save and /load round-trip the game", async () => {
    const dir = scratchDir();
    const save = join(dir.dir, "game.json");
    const { code, out } = await playWith(
      [EXAMPLE, ...isobel],
      [
        "walk to the Gutted Eel",
        "/undo",
        "/map",
        "/undo",
        `/save ${save}`,
        "walk to the Saltlight Temple",
        `/load ${save}`,
        "/map",
        "/quit",
      ],
    );
    assert.equal(code, 0);
    assert.match(out, /Undone: back to the start of the game\./);
    assert.match(out.slice(out.indexOf("> /map")), /You are at Pier End of Brinewick Docks\./);
    assert.match(out, /Nothing to undo\./);
    assert.match(out, /Saved to .*game\.json\./);
    assert.match(out, /Loaded the game at the start of the game\./);
    assert.match(out.slice(out.lastIndexOf("> /map")), /You are at Pier End of Brinewick Docks\./);
  });

  test("a command typed without its slash is not played as an act", async () => {
    const { code, out } = await playWith([EXAMPLE, ...isobel, "--no-save"], ["help", "inventory", "/quit"]);
    assert.equal(code, 0);
    assert.match(out, /> help\nCommands start with "\/": \/help lists them\./);
    assert.match(out, /> inventory\nCommands start with "\/": type \/inventory/);
    assert.doesNotMatch(out, /You help|You try “inventory”/);
  });

  test("/undo after answering an offer says it took back the answer, not a turn", async () => {
    const { code, out } = await playWith(
      [EXAMPLE, ...isobel, "--no-save"],
      ["walk to the Gutted Eel", "y", "/undo", "/undo", "/quit"],
    );
    assert.equal(code, 0);
    const undone = out.slice(out.indexOf("> /undo"));
    assert.match(
      undone,
      /Undone: accepting "The Keeper's Debt", still at turn 1\.\nQuest "The Keeper's Debt": available\./,
    );
    assert.match(undone, /Undone: back to the start of the game\./);
  });

  test("--save writes after every turn, and --load resumes exactly there", async () => {
    const dir = scratchDir();
    const save = join(dir.dir, "autosave.json");
    const first = await playWith([EXAMPLE, ...isobel, "--save", save], ["walk to the Gutted Eel"]);
    assert.equal(first.code, 0);
    assert.match(first.out, new RegExp(`Saved to ${save.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.`));
    const saved = JSON.parse(readFileSync(save, "utf8"));
    assert.equal(saved.state.tick, 1);
    assert.equal(saved.state.position.location, "The Gutted Eel");
    const second = await playWith([EXAMPLE, "--load", save], ["talk to Mara Venn", "/quit"]);
    assert.equal(second.code, 0, second.err);
    assert.match(second.out, /Resumed at turn 1, at the Hearth Room of the Gutted Eel, Brinewick\./);
    assert.match(second.out, /You now know Mara Venn\./);
  });

  test("several players at one keyboard: each is asked in turn, an empty line passes", async () => {
    const { code, out } = await playWith(
      [EXAMPLE, "--player", "Aria:Noble", "--player", "Bram"],
      ["walk to the Counting House", "", "/party", "", "look around", "/quit"],
    );
    assert.equal(code, 0);
    assert.match(out, /Aria> walk to the Counting House\nBram> \n/);
    assert.match(out, /Aria, level 1[\s\S]*Traits: Noble[\s\S]*Bram, level 1/);
    assert.match(out, /Aria> \nBram> look around\n/);
  });

  test("a recorded game replayed from its cassette ends in an identical saved state", async () => {
    const dir = scratchDir();
    const cassette = join(dir.dir, "game.cassette.jsonl");
    const recordedSave = join(dir.dir, "recorded.json");
    const replayedSave = join(dir.dir, "replayed.json");
    const inputs = [
      "walk to the Gutted Eel",
      "y",
      "talk to Mara Venn",
      "/undo",
      "talk to Mara Venn",
      "travel to the Old Lighthouse",
      "/quit",
    ];
    const recorded = await playWith(
      [EXAMPLE, ...isobel, "--seed", "9", "--record", cassette, "--save", recordedSave],
      inputs,
    );
    assert.equal(recorded.code, 0, recorded.err);
    const replayed = await playWith([EXAMPLE, "--replay", cassette, "--save", replayedSave], []);
    assert.equal(replayed.code, 0, replayed.err);
    assert.match(replayed.out, /Replay finished at turn 3\./);
    assert.equal(readFileSync(replayedSave, "utf8"), readFileSync(recordedSave, "utf8"));
    // The replay shows the same story, streamed from the tape.
    const story = (text: string) =>
      text.slice(text.indexOf("> travel to the Old Lighthouse"), text.indexOf("You are at the Rock Landing"));
    assert.equal(story(replayed.out), story(recorded.out));
  });

  test("a replay that diverges (the world changed) is refused", async () => {
    const dir = scratchDir();
    const cassette = join(dir.dir, "c.jsonl");
    await playWith([EXAMPLE, ...isobel, "--record", cassette], ["walk to the Gutted Eel", "/quit"]);
    const world = harbor() as Json;
    world.storySettings.worldBackground += " Changed.";
    const changed = dir.write("changed.world.json", JSON.stringify(world));
    const result = await playWith([changed, "--replay", cassette], []);
    assert.equal(result.code, 2);
    assert.match(result.err, /^taleforge: .*recorded on another world/);
  });
});

describe("taleforge play: hostile input", () => {
  const cases: {
    label: string;
    args: string[];
    code: number;
    err: RegExp;
    files?: Record<string, string>;
  }[] = [
    { label: "a missing world", args: ["nope.world.json"], code: 2, err: /nope\.world\.json/ },
    { label: "a folder", args: ["examples"], code: 2, err: /folder|directory/i },
    { label: "a bad seed", args: [EXAMPLE, "--seed", "abc"], code: 2, err: /--seed takes a whole number/ },
    {
      label: "an unknown premade",
      args: [EXAMPLE, "--premade", "Isobel Carow"],
      code: 2,
      err: /Did you mean "Isobel Carrow"/,
    },
    {
      label: "an unknown trait",
      args: [EXAMPLE, "--player", "Aria:Nobel"],
      code: 2,
      err: /no trait "Nobel"/,
    },
    {
      label: "a player without a name",
      args: [EXAMPLE, "--player", ":Noble"],
      code: 2,
      err: /--player needs a name/,
    },
    {
      label: "an unknown story start",
      args: [EXAMPLE, "--start", "Dusk"],
      code: 2,
      err: /No story start "Dusk"/,
    },
    {
      label: "an unknown game mode",
      args: [EXAMPLE, "--mode", "Harbor Tale"],
      code: 2,
      err: /Did you mean "Harbour Tale"/,
    },
    {
      label: "a missing save",
      args: [EXAMPLE, "--load", "none.json"],
      code: 2,
      err: /no saved game at none\.json/,
    },
    {
      label: "a missing cassette",
      args: [EXAMPLE, "--replay", "none.jsonl"],
      code: 2,
      err: /no cassette at/,
    },
    {
      label: "--replay with --record",
      args: [EXAMPLE, "--replay", "a", "--record", "b"],
      code: 2,
      err: /cannot be combined/,
    },
    {
      label: "a base URL without a model",
      args: [EXAMPLE, "--base-url", "http://127.0.0.1:9/v1"],
      code: 2,
      err: /model/,
    },
  ];
  for (const c of cases) {
    test(`${c.label}: one line on stderr, exit ${c.code}`, async () => {
      const result = await playWith(c.args, ["/quit"]);
      assert.equal(result.code, c.code, result.err);
      assert.match(result.err, c.err);
      assert.equal(result.err.trim().split("\n").length, 1, result.err);
      assert.doesNotMatch(result.err, /\n\s+at /, "no stack trace");
    });
  }

  test("a world whose shape is broken is refused with its first errors and a pointer to check", async () => {
    const dir = scratchDir();
    const world = harbor() as Json;
    world.locations["Brinewick Docks"].x = "east";
    const path = dir.write("broken.world.json", JSON.stringify(world, null, 2));
    const result = await playWith([path], []);
    assert.equal(result.code, 1);
    assert.match(result.err, /has 1 error that makes it impossible to play/);
    assert.match(result.err, /broken\.world\.json:\d+:\d+ {2}shape\//);
    assert.match(result.err, /Run "taleforge check/);
    assert.equal(result.out, "");
  });

  test("at an 80-column terminal the header never cuts a world path wider than the line mid-word", async () => {
    const dir = scratchDir();
    const deep = join(dir.dir, "a-stranger-saved-it-in-a-deep-folder", "far-from-home-and-further-still");
    mkdirSync(deep, { recursive: true });
    const path = join(deep, "the-harbour-of-brinewick.world.json");
    writeFileSync(path, JSON.stringify(harbor(), null, 2));
    assert.ok(path.length > 80);
    const { code, out } = await playAtTerminal([path, "--no-save", "--premade", "Isobel Carrow"], ["/quit"]);
    assert.equal(code, 0, out);
    assert.match(out, /^Taleforge · the-harbour-of-brinewick\.world\.json · Dawn at the Docks ·/m);
    for (const line of out.split("\n"))
      assert.ok(line.length <= 79, `a line within 79 columns: ${JSON.stringify(line)}`);
  });

  test("at an 80-column terminal the warning about a flawed world is word-wrapped, its path and code whole", async () => {
    const dir = scratchDir();
    const world = harbor() as Json;
    world.triggers.keeper_rumour.name = "keeper_rumor";
    const path = dir.write(
      "a-rather-long-folder-name-for-worlds-flawed.world.json",
      JSON.stringify(world, null, 2),
    );
    const shown = path;
    const captured = captureIo({ isTTY: true });
    const loaded = await loadChecked(path, shown, { ...captured.io, columns: 80 });
    assert.equal(typeof loaded, "object", "the world is played");
    const err = captured.stderr();
    assert.match(err.replace(/\s+/g, " "), /has 1 error \(keys\/name-mismatch\); playing anyway/);
    const lines = err.split("\n");
    assert.ok(lines.length > 2, `wrapped onto several lines:\n${err}`);
    for (const line of lines)
      assert.ok(
        line.length <= 79 || !line.includes(" "),
        `a line within 79 columns: ${JSON.stringify(line)}`,
      );
    assert.ok(
      lines.some((line) => line.includes(path)),
      "the path is never cut",
    );
    assert.ok(
      lines.some((line) => line.includes("keys/name-mismatch")),
      "the code is never cut",
    );
    // Piped (not a terminal): one line, as before.
    const piped = captureIo();
    await loadChecked(path, shown, { ...piped.io, columns: 80 });
    assert.equal(piped.stderr().split("\n").length, 2, piped.stderr());
  });

  test("a world with only rule errors is played after a one-line warning", async () => {
    const dir = scratchDir();
    const world = harbor() as Json;
    world.triggers.keeper_rumour.name = "keeper_rumor";
    const path = dir.write("flawed.world.json", JSON.stringify(world, null, 2));
    const result = await playWith([path], ["walk to the Gutted Eel", "/quit"]);
    assert.equal(result.code, 0);
    assert.match(result.err, /has 1 error \(keys\/name-mismatch\); playing anyway/);
    assert.match(
      result.out,
      /Quest "The Keeper's Debt": available\./,
      "the flawed trigger still runs by its key",
    );
  });

  test("garbage save and cassette files get one clear line each", async () => {
    const dir = scratchDir();
    const save = dir.write("save.json", "{not json");
    const cassette = dir.write("c.jsonl", '{"format":"taleforge-cassette","version":1}\n');
    const other = dir.write(
      "other-save.json",
      JSON.stringify({
        format: "taleforge-save",
        version: 2,
        minReadableVersion: 1,
        worldHash: "x",
        state: {},
      }),
    );
    const bad = await playWith([EXAMPLE, "--load", save], []);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /not valid JSON/);
    const foreign = await playWith([EXAMPLE, "--load", other], []);
    assert.equal(foreign.code, 2);
    assert.match(foreign.err, /another world/);
    const tape = await playWith([EXAMPLE, "--replay", cassette], []);
    assert.equal(tape.code, 2);
    assert.match(tape.err, /not a Taleforge cassette header/);
  });

  test("an unreachable model server: the game cannot start, and says why in one line", async () => {
    const result = await playWith(
      [EXAMPLE, "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--timeout", "2"],
      ["walk to the Gutted Eel", "/quit"],
    );
    // The opening needs the narrator too: the game cannot start, and says why in one line.
    assert.equal(result.code, 2);
    assert.match(result.err, /could not start: .*127\.0\.0\.1:9/);
  });

  test("empty input: the opening, then a clean exit", async () => {
    const result = await playWith([EXAMPLE], []);
    assert.equal(result.code, 0);
    assert.match(result.out, /First light/);
    assert.match(result.out, /Farewell\.\n$/);
  });

  test("hostile lines are played or refused, never crash the game", async () => {
    const lines = [
      "/",
      "//",
      "/save",
      "/load",
      "/accept",
      "/accept No Such Quest",
      "/abandon The Keeper's Debt",
      "\u0000\u202e",
      "x".repeat(20000),
      "🦀 walk to 🦀",
      "/quit",
    ];
    const result = await playWith([EXAMPLE], lines);
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /Name a file: \/save game\.json/);
    assert.match(result.out, /No quest "No Such Quest"/);
    assert.match(result.out, /only an accepted quest can be abandoned/);
    assert.match(result.out, /Farewell\./);
  });
});

describe("taleforge play against an OpenAI-compatible server (a real HTTP mock on 127.0.0.1)", () => {
  test("a game with a failed turn is recorded and replays to the same save, failure included", async () => {
    const { MockServer, apiError, jsonCompletion, streamed } = await import("../ai/mock-server.ts");
    const server = await MockServer.start();
    const dir = scratchDir();
    const cassette = join(dir.dir, "c.jsonl");
    try {
      server.reply(
        streamed(["Fog on the pier."]),
        jsonCompletion({ intent: "travel", target: "The Gutted Eel", confidence: 0.95 }),
        streamed(["You reach the Gutted Eel."]),
        apiError(401, "Incorrect API key provided"),
      );
      server.handler = (request) =>
        request.body?.stream
          ? streamed(["Mara looks up."])
          : jsonCompletion({ intent: "interactNPC", target: null, confidence: 0.9 });
      const recorded = await playWith(
        [
          EXAMPLE,
          ...isobel,
          "--base-url",
          server.url,
          "--model",
          "m",
          "--record",
          cassette,
          "--save",
          join(dir.dir, "a.json"),
        ],
        ["walk to the Gutted Eel", "talk to Mara Venn", "talk to Mara Venn", "/quit"],
      );
      assert.equal(recorded.code, 0, recorded.err);
      assert.match(recorded.out, /The turn was not played/);
    } finally {
      await server.close();
    }
    // No server now: the cassette answers everything, the refused key included.
    const replayed = await playWith([EXAMPLE, "--replay", cassette, "--save", join(dir.dir, "b.json")], []);
    assert.equal(replayed.code, 0, replayed.err);
    assert.match(replayed.out, /The turn was not played: .*\(401\)/);
    assert.match(replayed.out, /Replay finished at turn 2\./);
    assert.equal(
      readFileSync(join(dir.dir, "b.json"), "utf8"),
      readFileSync(join(dir.dir, "a.json"), "utf8"),
    );
  });

  test("the same game plays by setting a base URL and a model; a failed turn is not played and the game goes on", async () => {
    const { MockServer, apiError, jsonCompletion, streamed } = await import("../ai/mock-server.ts");
    const server = await MockServer.start();
    try {
      server.reply(
        // The opening, streamed.
        streamed(["Fog on the pier. ", "Gulls argue over a fish head."], {
          usage: { prompt_tokens: 900, completion_tokens: 20 },
        }),
        // Turn 1: intent, then narration.
        jsonCompletion(
          { intent: "travel", target: "The Gutted Eel", confidence: 0.95 },
          { prompt_tokens: 500, completion_tokens: 12 },
        ),
        streamed(["You shoulder through the door ", "of the Gutted Eel."], {
          usage: { prompt_tokens: 1000, completion_tokens: 15 },
        }),
        // Turn 2: the key is refused: the turn is not played.
        apiError(401, "Incorrect API key provided: sk-abc***"),
      );
      server.handler = (request) =>
        request.body?.stream
          ? streamed(["Mara looks up from her rope."])
          : jsonCompletion({ intent: "interactNPC", target: null, confidence: 0.9 });
      const { code, out, err } = await playWith(
        [EXAMPLE, ...isobel, "--base-url", server.url, "--model", "test-model", "--api-key", "sk-secret"],
        ["walk to the Gutted Eel", "talk to Mara Venn", "talk to Mara Venn", "/quit"],
      );
      assert.equal(code, 0, err);
      assert.match(out, /openai test-model/);
      assert.match(out, /Fog on the pier\. Gulls argue over a fish head\./);
      assert.match(out, /You shoulder through the door of the Gutted Eel\./);
      assert.match(out, /Quest "The Keeper's Debt": available\./, "the triggers ran on the model's answers");
      assert.match(out, /\(2 AI calls, 1527 tokens: 1500 in, 27 out\)/);
      assert.match(out, /The turn was not played: .*refused the API key/);
      assert.doesNotMatch(out + err, /sk-secret/, "the key is never printed");
      assert.match(out, /Mara looks up from her rope\./, "the next turn plays");
      assert.match(out, /You now know Mara Venn\./);
      const chat = server.to("/v1/chat/completions");
      assert.equal(chat[0]!.headers.authorization, "Bearer sk-secret");
      assert.equal(chat[0]!.body.model, "test-model");
      assert.equal(chat[1]!.body.response_format.type, "json_schema");
    } finally {
      await server.close();
    }
  });

  test("a turn's usage line shows the prompt tokens the server served from its cache (issue 19 item 7)", async () => {
    const { MockServer, jsonCompletion, streamed } = await import("../ai/mock-server.ts");
    const server = await MockServer.start();
    try {
      server.reply(
        streamed(["Fog on the pier."], { usage: { prompt_tokens: 900, completion_tokens: 20 } }),
        jsonCompletion(
          { intent: "travel", target: "The Gutted Eel", confidence: 0.95 },
          { prompt_tokens: 500, completion_tokens: 12, prompt_tokens_details: { cached_tokens: 384 } },
        ),
        streamed(["You shoulder through the door."], {
          usage: {
            prompt_tokens: 1000,
            completion_tokens: 15,
            prompt_tokens_details: { cached_tokens: 896 },
          },
        }),
      );
      const { code, out, err } = await playWith(
        [EXAMPLE, ...isobel, "--base-url", server.url, "--model", "test-model", "--api-key", "sk-x"],
        ["walk to the Gutted Eel", "/quit"],
      );
      assert.equal(code, 0, err);
      // Both calls of the turn reported a cached share: the line sums them.
      assert.match(out, /\(2 AI calls, 1527 tokens: 1500 in \(1280 cached\), 27 out\)/);
      assert.match(out, /3 AI calls, 2400 prompt \(1280 cached\) and 47 completion tokens\./);
    } finally {
      await server.close();
    }
  });
});

describe("taleforge play --show-prompt (issue 39)", () => {
  test("after the opening and every turn, the exact last request of each kind sent, every message whole", async () => {
    const { MockServer, jsonCompletion, streamed } = await import("../ai/mock-server.ts");
    const server = await MockServer.start();
    try {
      let stories = 0;
      server.handler = (request) => {
        const schema = request.body?.response_format?.json_schema?.name;
        if (schema === "taleforge_intent")
          return jsonCompletion({ intent: "other", target: null, confidence: 0.9, leader: null });
        if (schema === "taleforge_judge") {
          const count = (request.body.messages.at(-1).content.match(/^\d+\. \[/gm) ?? []).length;
          return jsonCompletion({
            verdicts: Array.from({ length: count }, (_, i) => ({
              question: i + 1,
              evidence: "none",
              passed: false,
              players: [],
            })),
          });
        }
        if (schema === "taleforge_summary") return jsonCompletion({ summary: "So far." });
        return streamed([`Story number ${++stories}.`]);
      };
      const actions = ["look at the boats", "ask about the lighthouse", "read the notice"];
      const { code, out, err } = await playWith(
        [EXAMPLE, ...isobel, "--base-url", server.url, "--model", "m", "--show-prompt", "--no-save"],
        [...actions, "/quit"],
      );
      assert.equal(code, 0, err);
      const chat = server.to("/v1/chat/completions");
      const kindOf = (body: { response_format?: { json_schema?: { name?: string } } }) =>
        body.response_format?.json_schema?.name?.replace("taleforge_", "") ?? "narration";
      // Each turn's part of the transcript: from its echoed action to the next one.
      const parts = out.split(/^> /m);
      assert.equal(parts.length, actions.length + 2, "the opening, three turns and /quit");
      // The requests of each part, in the order sent: the opening's narration, then per turn.
      let at = 0;
      for (const [i, part] of parts.slice(0, -1).entries()) {
        const sent: typeof chat = [];
        const story = `Story number ${i + 1}.`;
        while (at < chat.length) {
          const request = chat[at++]!;
          sent.push(request);
          if (request.body.stream) break;
        }
        assert.ok(part.includes(story), `part ${i}: its story`);
        const shown = new Set<string>();
        for (const request of sent.reverse()) {
          const kind = kindOf(request.body);
          if (shown.has(kind)) continue; // only the last of each kind
          shown.add(kind);
          const block = part.slice(part.indexOf(`──── the last ${kind} request sent to the model ────`));
          assert.ok(block.length < part.length, `part ${i}: the ${kind} request is shown\n${part}`);
          assert.ok(block.includes(`model: "m"\n`), "its parameters");
          for (const message of request.body.messages)
            assert.ok(
              block.includes(`===== ${message.role} =====\n${message.content}\n`),
              `part ${i}: the ${kind} request's ${message.role} message, whole`,
            );
        }
        assert.ok(shown.has("narration"), `part ${i}: a narration request`);
        if (i > 0) assert.ok(shown.has("intent"), `part ${i}: an intent request`);
        assert.equal(
          (part.match(/──── the last /g) ?? []).length,
          shown.size,
          `part ${i}: no request shown twice`,
        );
      }
    } finally {
      await server.close();
    }
  });

  test("offline there is no request to show, and play says so once", async () => {
    const { code, out, err } = await playWith(
      [EXAMPLE, ...isobel, "--show-prompt", "--no-save"],
      ["look at the boats", "/quit"],
    );
    assert.equal(code, 0, err);
    assert.match(out, /--show-prompt: the offline narrator sends no requests to a model/);
    assert.doesNotMatch(out, /──── the last /);
  });
});

test("without a world, play finds the example world that ships with Taleforge, from any folder", async () => {
  const dir = scratchDir();
  const result = await playWith([], ["/quit"], { cwd: dir.dir });
  assert.equal(result.code, 0, result.err);
  assert.match(result.out, /examples\/harbor\.world\.json · Dawn at the Docks · offline narrator/);
  assert.match(result.out, /First light/);
});
