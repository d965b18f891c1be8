import { firstSentence, type Paint } from "../../author/paint.ts";
import type { PlayerSpec } from "../../engine/index.ts";
import type { World } from "../../world/schema/index.ts";
import { didYouMean } from "../../world/suggest.ts";
import { COMMAND_NAMES } from "./commands.ts";
import type { LineSource } from "./lines.ts";
import { beforeStartHelpView } from "./views.ts";

/**
 * Asking at a terminal what the command line did not say: the story start
 * (when there are several) and who plays (premades, or a character made from
 * a name and a pick of traits per category, within each category's
 * maxSelections, the only creation rule the spec enforces). Returns
 * undefined when the input ends. The slash commands that make sense before
 * the game starts work at every one of these prompts: /help, and /quit, which
 * throws LeftBeforeStart.
 */
/** Thrown when the player types /quit (or /exit) before the game has started. */
export class LeftBeforeStart extends Error {
  constructor() {
    super("the player left before the game started");
  }
}

/**
 * The next line of a question asked before the game starts; null when the
 * input ends. Slash commands are answered here and the question asked again:
 * /help, /quit (throws LeftBeforeStart); the game's own commands are refused
 * with what to do instead.
 */
async function ask(lines: LineSource, prompt: string, out: (text: string) => void): Promise<string | null> {
  for (;;) {
    const line = await lines.read(prompt);
    if (line === null || !line.trim().startsWith("/")) return line;
    const name = (line.trim().slice(1).split(/\s+/)[0] ?? "").toLowerCase();
    if (name === "quit" || name === "exit") throw new LeftBeforeStart();
    if (name === "help" || name === "?") out(`${beforeStartHelpView()}\n`);
    else if (COMMAND_NAMES.includes(name))
      out(`/${name} works once the game has started. Here: /help, /quit.\n`);
    else out(`Unknown command /${name}.${didYouMean(name, ["help", "quit"])} Here: /help, /quit.\n`);
  }
}

export async function askStoryStart(
  world: World,
  lines: LineSource,
  out: (text: string) => void,
  paint: Paint,
): Promise<string | undefined> {
  const starts = Object.entries(world.storyStarts);
  if (starts.length < 2) return starts[0]?.[0];
  out(`${paint("bold", "Where does your story begin?")}\n`);
  starts.forEach(([key, start], i) => {
    out(`  ${i + 1}. ${key}${paint("gray", ` - ${start.description}`)}\n`);
  });
  const pick = await choose(lines, starts.length, out);
  return pick === null ? undefined : starts[pick]![0];
}

export async function askPlayers(
  world: World,
  lines: LineSource,
  out: (text: string) => void,
  paint: Paint,
): Promise<PlayerSpec[] | undefined> {
  const players: PlayerSpec[] = [];
  const taken = new Set<string>();
  for (;;) {
    out(`${paint("bold", players.length === 0 ? "Who will you play?" : "Who plays next?")}\n`);
    const premades = world.premadeCharacters.filter((p) => !taken.has(p.name.toLowerCase()));
    premades.forEach((p, i) => {
      const traits = p.traits.length > 0 ? ` (${p.traits.join(", ")})` : "";
      out(`  ${i + 1}. ${p.name}${traits}${paint("gray", ` - ${p.description}`)}\n`);
    });
    out(`  ${premades.length + 1}. Make your own character\n`);
    const pick = await choose(lines, premades.length + 1, out);
    if (pick === null) return players.length > 0 ? players : undefined;
    if (pick < premades.length) {
      players.push({ premade: premades[pick]!.name });
      taken.add(premades[pick]!.name.toLowerCase());
    } else {
      const made = await makeCharacter(world, lines, out, paint, taken);
      if (!made) return players.length > 0 ? players : undefined;
      players.push(made);
      taken.add(made.name.toLowerCase());
    }
    if (!(await askYesNo(lines, "Add another player at this keyboard? (y/N) ", out))) return players;
  }
}

/**
 * A yes or no (Enter: no). Anything else is asked again: an action typed too early ("walk to the
 * Gutted Eel") was taken for a no, and lost.
 */
async function askYesNo(lines: LineSource, prompt: string, out: (text: string) => void): Promise<boolean> {
  for (;;) {
    const answer = await ask(lines, prompt, out);
    const said = answer?.trim().toLowerCase() ?? "";
    if (answer === null || said === "" || said === "n" || said === "no") return false;
    if (said === "y" || said === "yes") return true;
    out("Type y to add another player, or press Enter to start the game.\n");
  }
}

async function makeCharacter(
  world: World,
  lines: LineSource,
  out: (text: string) => void,
  paint: Paint,
  taken: Set<string>,
): Promise<{ name: string; traits: string[] } | undefined> {
  let name = "";
  while (name === "") {
    const line = await ask(lines, "Your character's name: ", out);
    if (line === null) return undefined;
    name = line.trim();
    if (taken.has(name.toLowerCase())) {
      out(`${name} is already in the party; choose another name.\n`);
      name = "";
    }
  }
  const traits: string[] = [];
  for (const category of Object.values(world.traitCategories)) {
    const options = category.traits.filter((t) => Object.hasOwn(world.traits, t));
    if (options.length === 0 || category.maxSelections < 1) continue;
    out(`${paint("bold", category.name)} (up to ${category.maxSelections}):\n`);
    options.forEach((t, i) => {
      out(`  ${i + 1}. ${t}${paint("gray", ` - ${firstSentence(world.traits[t]!.description)}`)}\n`);
    });
    const question =
      category.maxSelections === 1
        ? "A number (or a name), or Enter for none: "
        : "Numbers (or names) separated by commas, or Enter for none: ";
    for (;;) {
      const line = await ask(lines, question, out);
      if (line === null) return undefined;
      const picks = line
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");
      const numbers = picks.map((pick) => traitNumber(pick, options));
      if (numbers.some((n) => !Number.isInteger(n) || n < 1 || n > options.length)) {
        out(`Type numbers from 1 to ${options.length}, or the names shown.\n`);
        continue;
      }
      const unique = [...new Set(numbers)];
      if (unique.length > category.maxSelections) {
        out(`Choose at most ${category.maxSelections}.\n`);
        continue;
      }
      traits.push(...unique.map((n) => options[n - 1]!));
      break;
    }
  }
  return { name, traits };
}

/**
 * A pick as its number in the list: "3", or the trait's name as shown ("outlander", "Fog-Sighted",
 * "fog sighted"), which a player types as readily as its number (typing "outlander" was refused).
 */
function traitNumber(pick: string, options: readonly string[]): number {
  const plain = (text: string) =>
    text
      .toLowerCase()
      .replace(/[\s_-]+/g, " ")
      .trim();
  const named = options.findIndex((option) => plain(option) === plain(pick));
  return named === -1 ? Number(pick) : named + 1;
}

/** A number from 1 to count, asked until given; the 0-based pick, or null when the input ends. */
async function choose(lines: LineSource, count: number, out: (text: string) => void): Promise<number | null> {
  for (;;) {
    const line = await ask(lines, `Choose 1-${count}: `, out);
    if (line === null) return null;
    const n = Number(line.trim());
    if (Number.isInteger(n) && n >= 1 && n <= count) return n - 1;
    out(`Type a number from 1 to ${count}.\n`);
  }
}
