import type { Paint } from "../../author/paint.ts";
import type { SessionState } from "../../engine/index.ts";
import { isHostError } from "../../host/errors.ts";
import type { Game, GameInput, Outcome } from "../../host/game.ts";
import { formatTrace } from "../../host/trace.ts";
import type { World } from "../../world/schema/index.ts";
import { branchesView, diffView } from "./history-views.ts";
import { hintView, inventoryView, mapView, partyView, questsView, storageView, turnWords } from "./views.ts";

/**
 * The slash commands of `taleforge play`, each defined once (as Node's
 * repl.defineCommand does): its name and other names, its line in /help and
 * what it does. The loop (loop.ts) looks a typed command up here and runs it
 * with a CommandHost: what a command needs of the game loop, so that this
 * module needs nothing of it.
 */
export interface CommandHost {
  game: Game;
  world: World;
  paint: Paint;
  color: boolean;
  /** The save file as the player is shown it, when the game is saved after every turn. */
  saving: string | undefined;
  /** Prints text word-wrapped at a terminal. */
  out(text: string): undefined;
  /** One input through the game, with its output (the story, what changed); null when it failed (said). */
  step(input: GameInput): Promise<Outcome | null>;
  save(argument: string): Promise<undefined>;
  load(argument: string): Promise<undefined>;
  exportTest(argument: string): Promise<undefined>;
  /** The text as the player edited it in $EDITOR; a sentence saying why not when there is no editor to open. */
  edit(text: string): Promise<{ text: string } | { problem: string }>;
  /** Puts text on the player's next prompt, ready to edit (a terminal only). */
  prefill(text: string): void;
}

export interface PlayCommand {
  name: string;
  aliases?: readonly string[];
  /** "/name [argument]" as /help shows it; absent: the command is not listed (its line names it). */
  usage?: string;
  help?: string;
  /** "quit" (or a promise of it) ends the game. */
  run(host: CommandHost, argument: string): unknown;
}

const state = (host: CommandHost): SessionState => host.game.session.state;

const answer =
  (name: "accept" | "reject" | "abandon") =>
  async (host: CommandHost, argument: string): Promise<undefined> => {
    // Without a name, the one quest it can apply to: the one on offer (accept, reject) or under way (abandon).
    const applies = name === "abandon" ? "accepted" : "available";
    const only = Object.entries(state(host).quests).filter(([, q]) => q.status === applies);
    const quest = argument !== "" ? argument : only.length === 1 ? only[0]![0] : "";
    if (quest === "" && only.length === 0)
      return host.out(
        name === "abandon"
          ? "No quest is under way to abandon: /quests lists your journal."
          : `No quest is on offer to ${name}: /quests lists your journal.`,
      );
    if (quest === "") return host.out(`Name the quest: /${name} <quest>. /quests lists them.`);
    await host.step({ type: "answer", quest, answer: name });
  };

export const PLAY_COMMANDS: readonly PlayCommand[] = [
  {
    name: "help",
    aliases: ["?"],
    usage: "/help",
    help: "this list",
    run: (host) => host.out(helpView(host.saving)),
  },
  {
    name: "quests",
    aliases: ["journal"],
    usage: "/quests",
    help: "your journal: quests, objectives, next steps",
    run: (host) => host.out(questsView(state(host), host.world, host.paint)),
  },
  {
    name: "party",
    usage: "/party",
    help: "the party: resources, traits, attributes",
    run: (host) => host.out(partyView(state(host), host.paint)),
  },
  {
    name: "inventory",
    aliases: ["items"],
    usage: "/inventory",
    help: "what everyone carries",
    run: (host) => host.out(inventoryView(state(host), host.world, host.paint)),
  },
  {
    name: "map",
    usage: "/map",
    help: "the realm and where you are",
    run: (host) => host.out(mapView(state(host), host.world, host.paint)),
  },
  {
    name: "storage",
    usage: "/storage",
    help: "the world's stored flags and counters (for authors)",
    run: (host) => host.out(storageView(state(host))),
  },
  {
    name: "trace",
    usage: "/trace",
    help: "why each trigger did or did not fire on the last turn",
    run: (host, argument) =>
      host.out(
        host.game.last
          ? formatTrace(host.game.last, { color: host.color, verbose: argument === "all" })
          : "No turn to explain yet: play a turn first (an undo or a load clears the last turn).",
      ),
  },
  {
    name: "hint",
    usage: "/hint",
    help: "what the world waited for, when your last act came close",
    run: (host) => host.out(hintView(host.game.last, state(host), host.world)),
  },
  {
    name: "accept",
    usage: "/accept [quest]",
    help: "accept a quest on offer (also /reject, /abandon)",
    run: answer("accept"),
  },
  { name: "reject", run: answer("reject") },
  { name: "abandon", run: answer("abandon") },
  {
    name: "save",
    usage: "/save [file]",
    help: "save the game",
    run: (host, argument) => host.save(argument),
  },
  {
    name: "load",
    usage: "/load [file]",
    help: "load a saved game",
    run: (host, argument) => host.load(argument),
  },
  {
    name: "undo",
    usage: "/undo",
    help: "take back the last turn (your action comes back)",
    run: async (host) => {
      const outcome = await host.step({ type: "undo" });
      if (outcome?.type !== "undo" || !outcome.undone) return;
      const actions = outcome.actions;
      if (actions.length === 1) host.prefill(actions[0]!.text);
    },
  },
  {
    name: "retry",
    usage: "/retry",
    help: "play the last turn again: another draw of the story",
    run: async (host) => {
      await host.step({ type: "retry" });
    },
  },
  {
    name: "alter",
    usage: "/alter [text]",
    help: "rewrite the last narration (no text: in $EDITOR)",
    run: async (host, argument) => {
      if (argument !== "") {
        await host.step({ type: "alter", text: argument });
        return;
      }
      const story = host.game.session.read((s) => s.history.story.at(-1)?.text ?? "");
      const edited = await host.edit(story);
      if ("problem" in edited)
        return host.out(`${edited.problem} Or type the new text on the line: /alter The story says...`);
      if (edited.text.trim() === story.trim()) return host.out("The narration is unchanged.");
      await host.step({ type: "alter", text: edited.text });
    },
  },
  {
    name: "rewind",
    usage: "/rewind <turn>",
    help: "go back to a turn; the story after it stays a branch",
    run: async (host, argument) => {
      const tick = host.game.session.tick;
      if (!/^\d{1,7}$/.test(argument))
        return host.out(`Name a turn: /rewind 3 (this game is at ${turnWords(tick)}; 0 is the start).`);
      await host.step({ type: "rewind", turn: Number(argument) });
    },
  },
  {
    name: "branches",
    usage: "/branches",
    help: "the story's branches: where they split, their turns",
    run: (host) => host.out(branchesView(host.game.branches(), host.game.session.tick, host.paint)),
  },
  {
    name: "branch",
    usage: "/branch <n|name>",
    help: "go to a branch (/branches tells how to name, delete)",
    run: async (host, argument) => {
      const [first = "", ...rest] = argument.split(/\s+/);
      const op = first.toLowerCase();
      if (argument === "") return host.out("Name a branch: /branch 2 (/branches lists them).");
      if ((op === "name" || op === "rename") && rest.length > 0) {
        const [branch = "", ...name] = rest;
        await host.step({ type: "branch", op: "name", branch, name: name.join(" ") });
      } else if ((op === "delete" || op === "remove") && rest.length > 0)
        await host.step({ type: "branch", op: "delete", branch: rest.join(" ") });
      else await host.step({ type: "branch", op: "switch", branch: argument });
    },
  },
  {
    name: "diff",
    usage: "/diff <points>",
    help: "what differs in the world: /diff 3 7, /diff #1 #2",
    run: (host, argument) => {
      const points = argument.split(/\s+/).filter((p) => p !== "");
      if (points.length !== 2)
        return host.out(
          "Name two points: /diff 3 7 (turns of this branch), /diff #1 #2 (branches), /diff 1:4 2:4.",
        );
      const [a, b] = points as [string, string];
      try {
        return host.out(diffView(host.game.diff(a, b), a, b, host.paint));
      } catch (error) {
        if (isHostError(error)) return host.out(error.message);
        throw error;
      }
    },
  },
  {
    name: "export-test",
    usage: "/export-test [file]",
    help: "the game so far as a play-test, for taleforge test",
    run: (host, argument) => host.exportTest(argument),
  },
  { name: "quit", aliases: ["exit"], run: () => "quit" },
];

const BY_NAME = new Map<string, PlayCommand>(
  PLAY_COMMANDS.flatMap((c) => [c.name, ...(c.aliases ?? [])].map((n) => [n, c] as const)),
);

/** The command a typed name stands for (its name or another name), or undefined. */
export function findCommand(name: string): PlayCommand | undefined {
  return BY_NAME.get(name.toLowerCase());
}

/** Every name a command answers to, for "did you mean" and for refusing them before the game starts. */
/**
 * The line to play when an action /undo gave back was on the prompt: the given-back text followed
 * directly by a known slash command ("walk north/undo", the player typed /undo without clearing the
 * line) runs that command, never a turn of "walk north/undo". Any other line is played as it is.
 */
export function lineAfterGivenBack(line: string, givenBack: string | undefined): string {
  if (!givenBack || !line.startsWith(givenBack)) return line;
  const rest = line.slice(givenBack.length).trimStart();
  const name = /^\/(\S+)/.exec(rest)?.[1];
  return name !== undefined && findCommand(name.toLowerCase()) !== undefined ? rest : line;
}

export const COMMAND_NAMES: readonly string[] = [...BY_NAME.keys()];

/** /help, from the table; `saving` is the save file as the player is shown it, when the game is saved. */
export function helpView(saving?: string): string {
  const listed = PLAY_COMMANDS.filter((c) => c.usage !== undefined);
  const width = Math.max(...listed.map((c) => c.usage!.length)) + 2;
  const line = (usage: string, help: string) => `  ${usage.padEnd(width)}${help}`;
  return [
    "Type what your character does, in plain words: walk to the harbour, talk to Mara, read the letter.",
    "",
    ...listed.map((c) => line(c.usage!, c.help ?? "")),
    // One line at 80 columns: the save file's name was said when the game began (and /save says it).
    saving
      ? line("/quit", "leave (the game is saved first)")
      : line("/quit", "leave (this game is not saved: /save FILE keeps it)"),
    "",
    "With several players, each is asked in turn; an empty line passes.",
  ].join("\n");
}
