import { type ProperNames, properNames } from "../../ai/offline/proper.ts";
import { placePhrase } from "../../ai/offline/templates.ts";
import { firstSentence, type Paint, plural } from "../../author/paint.ts";
import type { QuestPrompt, SessionState, TurnResult } from "../../engine/index.ts";
import { knownIn, nextStepOf } from "../../engine/index.ts";
import type { World } from "../../world/schema/index.ts";

/**
 * The in-game views behind the slash commands: pure functions from the state
 * (and the world) to text. Only what the player may know is shown: known
 * places and NPCs, revealed objectives, never hidden info.
 */

export function questsView(state: SessionState, world: World, paint: Paint): string {
  const order = ["accepted", "available", "completed", "expired", "rejected", "abandoned"];
  const entries = Object.entries(state.quests)
    .filter(([, q]) => q.status !== "hidden")
    .sort(([, a], [, b]) => order.indexOf(a.status) - order.indexOf(b.status));
  if (entries.length === 0) return "Your journal is empty. Quests appear here as you hear of them.";
  const lines: string[] = [];
  for (const [key, quest] of entries) {
    const record = world.quests[key];
    lines.push(`${paint("bold", key)} ${paint("gray", `(${quest.status})`)}`);
    if (record && (quest.status === "available" || quest.status === "accepted")) {
      lines.push(`  ${record.questStatement}`);
      lines.push(`  Goal: ${record.mainObjective}`);
    }
    // A quest let go keeps its progress silently: its objectives and next step are not shown as if it were active.
    if (quest.status === "expired" || quest.status === "rejected" || quest.status === "abandoned") continue;
    for (const [id, status] of Object.entries(quest.objectives)) {
      if (status === "hidden") continue;
      const text = record?.objectives?.[id]?.text ?? id;
      lines.push(`  ${status === "completed" ? paint("green", "[x]") : "[ ]"} ${text}`);
    }
    if (quest.nextStep) lines.push(`  Next: ${quest.nextStep.text}`);
  }
  // The party's own next step, unless it names what is already done (next-step.ts).
  if (state.partyNextStep && nextStepOf(state, world) === state.partyNextStep.text)
    lines.push("", `Next step: ${state.partyNextStep.text}`);
  return lines.join("\n");
}

export function partyView(state: SessionState, paint: Paint): string {
  return state.party
    .map((c) => {
      const resources = Object.entries(c.resources)
        .map(([k, v]) => `${k} ${v.current}/${v.max}`)
        .join(", ");
      const lines = [
        `${paint("bold", c.name)}${c.kind === "npc" ? paint("gray", " (companion)") : ""}, level ${c.level}`,
      ];
      if (resources) lines.push(`  ${resources}`);
      if (c.traits.length > 0) lines.push(`  Traits: ${c.traits.join(", ")}`);
      const attributes = Object.entries(c.attributes)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ");
      if (attributes) lines.push(`  ${attributes}`);
      if (c.abilities.length > 0) lines.push(`  Abilities: ${c.abilities.join(", ")}`);
      return lines.join("\n");
    })
    .join("\n");
}

export function inventoryView(state: SessionState, world: World, paint: Paint): string {
  const currency = world.itemSettings.currencyName;
  return state.party
    .map((c) => {
      const items = Object.entries(c.items);
      if (items.length === 0) return `${paint("bold", c.name)}: nothing`;
      const lines = items.map(([item, count]) => {
        const description = world.items[item]?.description;
        const label = count === 1 ? item : `${item} x${count}`;
        return `  ${label}${description && item !== currency ? paint("gray", ` - ${firstSentence(description)}`) : ""}`;
      });
      return [`${paint("bold", c.name)}:`, ...lines].join("\n");
    })
    .join("\n");
}

/**
 * The realm around the party as text: the region grid (north up, the party's
 * region marked), then the known locations of each region with their areas,
 * and the paths out of the party's area.
 */
export function mapView(state: SessionState, world: World, paint: Paint): string {
  const known = knownIn(world);
  const here = state.position;
  const realm = here.realm;
  const regions = Object.entries(world.regions).filter(([, r]) => (r.realm ?? "") === realm);
  if (regions.length === 0) return `You are at ${describePlace(here, world)}.`;
  const lines: string[] = [realm ? paint("bold", realm) : paint("bold", "The map"), ""];
  lines.push(...regionGrid(regions, (name) => known(state, name), here.region, paint));
  for (const [key] of regions) {
    if (!known(state, key)) continue;
    const locations = Object.entries(world.locations).filter(
      ([name, l]) => l.region === key && known(state, name),
    );
    if (locations.length === 0) continue;
    lines.push(key === here.region ? paint("bold", key) : key);
    for (const [name, location] of locations) {
      const areas = Object.keys(location.areas ?? {});
      const marker = name === here.location ? paint("bold", "* ") : "  ";
      lines.push(`${marker}${name}${areas.length > 0 ? paint("gray", `: ${areas.join(", ")}`) : ""}`);
    }
  }
  const area = world.locations[here.location]?.areas?.[here.area];
  lines.push("", `You are at ${describePlace(here, world)}.`);
  if (area && area.paths.length > 0) lines.push(`From here: ${area.paths.join(", ")}.`);
  return lines.join("\n");
}

/** The widest line of the region grid: it is never wrapped at an 80-column terminal (79 columns of text). */
const GRID_COLUMNS = 79;
/** The narrowest cell worth drawing: past it, the realm is listed only. */
const MIN_CELL = 6;

/**
 * The region grid, north up, the party's region marked with "*", every line within GRID_COLUMNS.
 * A name too long for its cell is cut with "…" after a number, and the numbers are spelt out under
 * the grid ("1 The Sun-Scoured Plateau"): a name is never cut with no way to read it whole.
 * Realms too wide or tall for that are not drawn (the list that follows names every region).
 */
function regionGrid(
  regions: readonly [string, { x: number; y: number }][],
  known: (name: string) => boolean,
  current: string,
  paint: Paint,
): string[] {
  const xs = regions.map(([, r]) => r.x);
  const ys = regions.map(([, r]) => r.y);
  const columns = Math.max(...xs) - Math.min(...xs) + 1;
  if (Math.max(...ys) - Math.min(...ys) >= 12) return [];
  // "[" + cells joined by "|" + "]": columns * (width + 1) + 1 characters.
  const width = Math.min(
    Math.max(...regions.map(([k]) => k.length)) + 2,
    Math.floor((GRID_COLUMNS - 1) / columns) - 1,
  );
  if (width < MIN_CELL) return [];
  const lines: string[] = [];
  const legend: string[] = [];
  for (let y = Math.max(...ys); y >= Math.min(...ys); y--) {
    const row: string[] = [];
    for (let x = Math.min(...xs); x <= Math.max(...xs); x++) {
      const cell = regions.find(([, r]) => r.x === x && r.y === y);
      const mark = cell && cell[0] === current ? "*" : " ";
      let name = cell && known(cell[0]) ? cell[0] : cell ? "?" : "";
      if (mark.length + name.length > width) {
        legend.push(`${legend.length + 1} ${name}`);
        const cut = `${legend.length} ${name}`.slice(0, width - mark.length - 1).trimEnd();
        name = `${cut}…`;
      }
      const text = `${mark}${name}`.padEnd(width);
      row.push(cell && cell[0] === current ? paint("bold", text) : text);
    }
    lines.push(`[${row.join("|")}]`);
  }
  lines.push(...legend.map((line) => paint("gray", line)));
  lines.push(paint("gray", "North is up; * marks where you are."), "");
  return lines;
}

export function storageView(state: SessionState): string {
  const keys = Object.keys(state.storage);
  if (keys.length === 0) return "Storage is empty.";
  return keys.map((k) => `${k} = ${JSON.stringify(state.storage[k])}`).join("\n");
}

export function promptView(prompt: QuestPrompt, paint: Paint): string {
  const heading = prompt.reason === "new" ? "New quest" : "Quest on offer";
  return [
    `${paint("bold", `${heading}: ${prompt.quest}`)}${prompt.source ? paint("gray", ` (from ${prompt.source})`) : ""}`,
    `  ${prompt.statement}`,
    `  Goal: ${prompt.mainObjective}`,
  ].join("\n");
}

/** The world's proper names, read once per world (they decide "Brinewick Docks" against "the Lamp Room"). */
const properOfWorld = new WeakMap<World, ProperNames>();

/** Where the party is, to follow "at": "the Hearth Room of the Gutted Eel, in Brinewick" (placePhrase). */
export function describePlace(p: { location: string; area: string; region: string }, world: World): string {
  let proper = properOfWorld.get(world);
  if (!proper) {
    proper = properNames(world);
    properOfWorld.set(world, proper);
  }
  return placePhrase(p, proper);
}

/** A location's name inside a sentence: "The Gutted Eel" is "the Gutted Eel" there. */
export function locationInSentence(location: string, world: World): string {
  return describePlace({ location, area: "", region: "" }, world);
}

/** The slash commands of the game, for "did you mean" (/help lists them for the player). */
/** Words a player types for a command without its slash ("inventory", "i", "check my map"). */
const COMMAND_WORDS: Readonly<Record<string, string>> = {
  help: "help",
  commands: "help",
  inventory: "inventory",
  inv: "inventory",
  i: "inventory",
  items: "inventory",
  map: "map",
  quests: "quests",
  journal: "quests",
  party: "party",
  stats: "party",
  save: "save",
  load: "load",
  undo: "undo",
  quit: "quit",
  exit: "quit",
};
const COMMAND_LINE =
  /^(?:(?:check|show|open|see|view|look at)\s+(?:(?:my|the|our)\s+)?)?([a-z]+)(?:\s+(?:the\s+)?game)?\s*[.!?]*$/;

/**
 * A line that is a command typed without its slash ("help", "inventory", "i", "check my map"): the
 * line that says how to type it, or null. Played as an action it was told as "You help; it makes no
 * difference that you can see." and "You try “inventory”, but nothing comes of it."
 */
export function bareCommandHint(line: string): string | null {
  const word = COMMAND_LINE.exec(line.trim().toLowerCase())?.[1];
  const command = word === undefined ? undefined : COMMAND_WORDS[word];
  if (command === undefined) return null;
  if (command === "help")
    return 'Commands start with "/": /help lists them. Anything else you type is what your character does.';
  return `Commands start with "/": type /${command} (/help lists them all).`;
}

/** /help before the game starts, while the story start and the characters are chosen. */
export function beforeStartHelpView(): string {
  return [
    "Answer the question above: type a number and press Enter (a name, or trait numbers, when asked for them).",
    "",
    "  /help              this list",
    "  /quit              leave without playing",
    "",
    "The game's own commands (/quests, /map, /save, ...) work once it has started; /help then lists them.",
  ].join("\n");
}

/** The warning of a save loaded into an edited world: what the edit changed that matters to this game. */
export function resumedNote(
  resumed: { edited: boolean; warnings: readonly string[] } | null,
  paint: (style: "yellow", text: string) => string,
): string {
  if (!resumed?.edited) return "";
  if (resumed.warnings.length === 0)
    return `${paint("yellow", "The world file changed since this save; nothing the game depends on did.")}\n`;
  const lines = [
    `The world file changed since this save. What matters to this game (${plural(resumed.warnings.length, "change")}):`,
    ...resumed.warnings.map((w) => `  - ${w}`),
  ];
  return `${paint("yellow", lines.join("\n"))}\n`;
}

/** How each answer to an offer is told when /undo takes it back. */
const ANSWERED: Readonly<Record<string, string>> = {
  accepted: "accepting",
  rejected: "declining",
  abandoned: "abandoning",
};

/**
 * What /undo took back: a turn ("Undone: back to turn 3."), or an answer to a quest offer, which is
 * no turn: two undos in a row both said "back to turn 3", and the second had quietly taken back
 * the acceptance (the offer then lapsed on the next move).
 */
export function undoneLine(before: SessionState, after: SessionState): string {
  if (after.tick !== before.tick) return `Undone: back to ${turnWords(after.tick)}.`;
  const quest = Object.keys(before.quests).find(
    (key) => before.quests[key]?.status !== after.quests[key]?.status,
  );
  const answer = quest === undefined ? undefined : ANSWERED[before.quests[quest]!.status];
  return answer === undefined
    ? `Undone: the last step, still at ${turnWords(after.tick)}.`
    : `Undone: ${answer} "${quest}", still at ${turnWords(after.tick)}.`;
}

/** A tick in a player's words: "the start of the game" (the opening, tick 0) or "turn 12". */
export function turnWords(tick: number): string {
  return tick === 0 ? "the start of the game" : `turn ${tick}`;
}

/**
 * `/hint`: when the last turn came close (a trigger whose every other
 * condition held was judged on the player's action and failed), the act the
 * world waits for, as a verb and an object from the judge's question ("Does
 * the player light the lighthouse lamp?" -> "light the lighthouse lamp"); the
 * trigger itself is never named. Otherwise the next step, if any.
 */
export function hintView(last: TurnResult | null, state: SessionState, world: World): string {
  const acts = new Set<string>();
  for (const phase of last?.trace.phases ?? [])
    for (const trigger of phase.triggers) {
      if (!trigger.candidate || trigger.fired || trigger.verdict !== "failed") continue;
      for (const c of trigger.conditions) {
        if (c.type !== "action" || c.passed !== false || typeof c.expected !== "string") continue;
        const act = actOf(c.expected);
        if (act) acts.add(act);
      }
    }
  if (acts.size > 0)
    return `You are close. The world is waiting for you to ${[...acts].slice(0, 2).join(", or to ")}.`;
  const next = nextStepOf(state, world);
  return next ? `No act came close last turn. Next: ${next}` : "No act came close last turn.";
}

/** "Does the player light the lighthouse lamp?" -> "light the lighthouse lamp" (null when it is no such question). */
function actOf(query: string): string | null {
  const m =
    /^\s*(?:does|did|do|is|has)\s+(?:the\s+)?(?:player|party|anyone|someone|a player)\s+(.+?)\s*\??\s*$/i.exec(
      query,
    );
  if (!m) return null;
  const act = m[1]!.replace(/^(?:try to|attempt to)\s+/i, "");
  return act.length > 0 && act.length <= 120 ? act : null;
}
