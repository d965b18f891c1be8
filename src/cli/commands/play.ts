import { defineCommand } from "../command.ts";
import type { PlayFlags } from "../play/options.ts";

export default defineCommand({
  name: "play",
  summary: "Play a world in the terminal, offline or with any OpenAI-compatible model.",
  arguments: [
    {
      name: "[world]",
      description: "the world file (.json); default: the example world that ships with Taleforge",
    },
  ],
  options: [
    {
      flags: "--start <story start>",
      description: "the story start to begin with (default: the world's default)",
    },
    {
      flags: "--premade <name>",
      description: "play a premade character (repeat for more players)",
      repeatable: true,
    },
    {
      flags: "--player <name[:trait,...]>",
      description: "play a made-up character with the given traits (repeat for more players)",
      repeatable: true,
    },
    { flags: "--mode <game mode>", description: "the game mode whose instructions the narrator follows" },
    { flags: "--provider <name>", description: "offline (default) or openai (any OpenAI-compatible server)" },
    { flags: "--model <name>", description: "the model name (openai provider)" },
    {
      flags: "--base-url <url>",
      description: "the server's base URL, e.g. http://127.0.0.1:11434/v1 (implies openai)",
    },
    { flags: "--api-key <key>", description: "the API key (prefer TALEFORGE_API_KEY or OPENAI_API_KEY)" },
    { flags: "--embedding-model <name>", description: "a model for embeddings (optional; openai provider)" },
    { flags: "--timeout <seconds>", description: "per-request timeout of the openai provider" },
    {
      flags: "--context-tokens <tokens>",
      description: "the server's context window; prompt budgets derive from it",
    },
    { flags: "--config <file>", description: "a JSON config file with provider settings" },
    { flags: "--seed <n>", description: "the seed of every random choice (default 1)" },
    {
      flags: "--save <file>",
      description:
        "save the game to this file after every turn and on /save (at a terminal, default: a new file in ~/.local/state/taleforge/saves)",
    },
    { flags: "--no-save", description: "do not save the game after every turn (/save still works)" },
    { flags: "--load <file>", description: "resume a saved game" },
    {
      flags: "--record <cassette>",
      description: "write every AI request and answer of the game to a cassette file",
    },
    { flags: "--replay <cassette>", description: "replay a recorded game from its cassette, exactly" },
    { flags: "--trace", description: "print the trace of every turn" },
    {
      flags: "--show-prompt",
      description:
        "after the opening and every turn, print the exact last request of each kind sent to the model (intent, narration, judge, summary): what the model saw",
    },
    {
      flags: "--strict",
      description:
        "refuse a world with any error (without it, repairable errors are repaired with a warning each)",
    },
  ],
  about: [
    "In the game, type what your character does, or a command:",
    // Every command of play/commands.ts (a test checks it; not imported here: --help stays quick).
    "  /help /quests /party /inventory /map /storage /trace /hint /accept /save /load",
    "  /undo /retry /alter /rewind /branches /branch /diff /export-test /quit",
    "When stdin is not a terminal, every line is one action, so a game can be piped.",
  ],
  exitCodes: [
    { code: 0, meaning: "the game ended normally" },
    {
      code: 1,
      meaning: "the world does not load or its shape is broken, or a replay diverged from its cassette",
    },
    {
      code: 2,
      meaning:
        "the game could not start: bad option, missing file, a save or cassette of another world, no narrator",
    },
  ],
  exitCodesInHelp: "none",
  examples: [
    "taleforge play                                  # the example world, offline",
    'taleforge play my.world.json --premade "Isobel Carrow"',
    "taleforge play my.world.json --base-url http://127.0.0.1:11434/v1 --model llama3.1",
    "printf 'walk to the Gutted Eel\\n/quit\\n' | taleforge play",
  ],
  run: async ([world], options, io) =>
    (await import("../play/index.ts")).play(world as string | undefined, options as PlayFlags, io),
});
