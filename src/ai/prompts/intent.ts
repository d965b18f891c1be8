import { MOVE_MIN_CONFIDENCE } from "../../engine/intent.ts";
import { own } from "../../engine/own.ts";
import { INTENTS, type Intent, type IntentRequest } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { PROMPT_BUDGETS, TEXT_CAPS } from "./budgets.ts";
import { placeLines } from "./scene.ts";
import {
  actionLine,
  type Block,
  block,
  bullets,
  cutStart,
  fit,
  fixed,
  inline,
  neutral,
  rankIn,
} from "./sections.ts";
import type { ChatMessage } from "./types.ts";

/**
 * The planning-phase classifier's prompt (spec 3 "Planning-phase intent
 * types"). The system message is the same for every world and turn: the 17
 * intents, the spec's rules, the target rules and the answer format
 * (IntentAnswerSchema). The user message is the turn: the place, the places
 * that can be targets, who is present, the end of the recent story and the
 * action, last, where the model reads it just before answering.
 */

/** One line per intent, in INTENTS order; a test checks that every intent has one. */
export const INTENT_DEFINITIONS: Readonly<Record<Intent, string>> = {
  attack: "the player tries to hurt, kill or seriously harm someone, in earnest.",
  mockAttack:
    "the player pretends to attack or attacks for show: sparring, a feint, a threat not meant to land.",
  subdue: "the player tries to overpower someone without killing: grapple, knock out, pin, tie up, disarm.",
  preventAttack:
    "tries to stop an attack before it happens: steps in between, holds someone back, talks them down.",
  evade: "the player tries to get out of harm's way: dodges, ducks, flees or hides from a threat.",
  defend: "the player braces or guards against harm: raises a shield, holds a door, shields someone.",
  heal: "the player treats wounds, illness or poison, their own or someone else's.",
  buff: "the player strengthens or protects someone in advance: a blessing, a spell, a potion, rousing words.",
  interactNPC:
    "the player talks to, asks, trades with, persuades or otherwise deals with a character who is present.",
  readDocument: "the player reads something written: a letter, book, sign, map, ledger or inscription.",
  teleport: "the player moves instantly to another location by magic or a device.",
  fastTravel: "the player skips the journey to a known location, arriving there directly.",
  travel: "the player sets off now for another location, on foot, by boat, on a mount or in a vehicle.",
  move: "the player goes to another area of the current location, named or plainly pointed at.",
  sleep: "the player sleeps, or rests for the night.",
  acceptQuest: "the player agrees to take on a task, job or quest that was offered.",
  other: "anything else: looking, searching, using or taking things, waiting, talking about plans.",
};

const RULES = [
  "Choose exactly one intent for the action. When it does several things, choose what the player mainly does.",
  'travel needs a real movement verb that the player acts on now ("I walk to", "we sail for", "I set off ' +
    'toward"). Talking, asking or thinking about travel ("should we go to the mill?", "how far is it?") is not travel: it ' +
    "is other, or interactNPC when it is said to a character present.",
  "move needs an explicit nearby destination within the current location: one of the areas listed. Without " +
    "one it is not move.",
  `Answer travel or move only at high confidence (${MOVE_MIN_CONFIDENCE} or more; the game reads a lower one as other). When unsure, answer other.`,
  "acceptQuest only recognises that the player agrees: the game then asks the player to confirm, after the turn.",
  "other is everything that fits no other intent.",
  "When several players act in one turn, the party does one thing: choose the action that decides where the " +
    "party goes or what it mainly does (a travel or move beats talk), classify that action, and name its player " +
    "under leader. With one action, leader is null.",
];

const TARGET_RULES = [
  "travel, fastTravel, teleport: the destination location's name exactly as written under Locations, without " +
    "the region in brackets. If the player names a place that is not listed, give their words.",
  "move: the area's name exactly as written under Areas.",
  "every other intent: null.",
];

const ANSWER =
  "Answer with one JSON object and nothing else:\n" +
  '{"intent": "<one of the intents above>", "target": "<place name>" or null, "confidence": <number from 0 to 1>, "leader": "<player name>" or null}\n' +
  'For example: {"intent": "interactNPC", "target": null, "confidence": 0.9, "leader": null}';

/**
 * Worked cases, each an action (with the places it may name) and the answer. They teach the hard
 * distinctions (talk about travel, move, subdue, accepting, the leader) and make the system message,
 * the same for every world and turn, pass the prompt-cache minimum (CACHE_MIN_TOKENS, budgets.ts).
 */
const EXAMPLES = [
  '"I take the coast road to Saltmarsh." (Saltmarsh is listed) -> {"intent": "travel", "target": "Saltmarsh", ' +
    '"confidence": 0.95, "leader": null}',
  '"Should we go to the mill before dark?" -> {"intent": "other", "target": null, "confidence": 0.9, "leader": null}',
  '"I climb the stairs to the lamp room." (Lamp Room is an area listed) -> {"intent": "move", "target": ' +
    '"Lamp Room", "confidence": 0.9, "leader": null}',
  '"I twist the knife out of the thug\'s hand and pin him." -> {"intent": "subdue", "target": null, ' +
    '"confidence": 0.9, "leader": null}',
  '"Fine, I will find your brother." (a job was offered) -> {"intent": "acceptQuest", "target": null, ' +
    '"confidence": 0.85, "leader": null}',
  '"I ask Mara what the letter says." (Mara is present) -> {"intent": "interactNPC", "target": null, ' +
    '"confidence": 0.85, "leader": null}',
  'Ana: "I ask the ferryman the fare." Bo: "We board the ferry to Gull Point." (Gull Point is listed) -> ' +
    '{"intent": "travel", "target": "Gull Point", "confidence": 0.9, "leader": "Bo"}',
];

export const INTENT_SYSTEM = [
  "You classify one player action in a turn-based text role-playing game into exactly one intent. You write " +
    "no story.",
  `## Intents\n${bullets(INTENTS.map((intent) => `${intent}: ${INTENT_DEFINITIONS[intent]}`)).join("\n")}`,
  `## Rules\n${bullets(RULES).join("\n")}`,
  `## Target\n${bullets(TARGET_RULES).join("\n")}`,
  `## Examples\n${bullets(EXAMPLES).join("\n")}`,
  `## Answer\n${ANSWER}`,
].join("\n\n");

/**
 * Trim order when over budget, first to go first: realms, regions, locations
 * (other regions' first), characters present, the recent story (its start
 * first), areas of the current location. Never trimmed: the action, the
 * place and the rules.
 */
export const INTENT_TRIM_ORDER = [
  "realms",
  "regions",
  "locations",
  "characters present",
  "recent story",
  "areas",
] as const;

const rank = rankIn(INTENT_TRIM_ORDER);

export function intentPrompt(
  world: World,
  request: IntentRequest,
  budget: number = PROMPT_BUDGETS.intent,
): ChatMessage[] {
  const position = request.position;
  const names = (kind: IntentRequest["places"][number]["kind"]) =>
    request.places.filter((p) => p.kind === kind).map((p) => inline(p.name, TEXT_CAPS.name));
  const user: Block[] = [
    block("## Where the party is", placeLines(position), "protected"),
    placesBlock(
      `## Areas of ${inline(position.location, TEXT_CAPS.name) || "the current location"} (targets for move)`,
      names("area"),
      rank("areas"),
    ),
    placesBlock(
      "## Locations (targets for travel, fastTravel and teleport)",
      locationsNearFirst(world, names("location"), position.region),
      rank("locations"),
    ),
    placesBlock("## Regions", names("region"), rank("regions")),
    placesBlock("## Realms", names("realm"), rank("realms")),
    block(
      "## Characters present",
      bullets(request.npcsPresent.map((n) => inline(n, TEXT_CAPS.name))),
      rank("characters present"),
      { omitted: (n) => `(and ${n} more)` },
    ),
    block(
      "## Recent story (its end)",
      [cutStart(neutral(request.recentStory).trim(), TEXT_CAPS.intentStory)],
      rank("recent story"),
      { from: "start" },
    ),
    actionsBlock(request),
  ];
  return fit(
    [
      { role: "system", blocks: [fixed(null, INTENT_SYSTEM)] },
      { role: "user", blocks: user },
    ],
    budget,
  );
}

/**
 * The action to classify, or with several players every player's action
 * (issue 39): the model picks the leader. Last, so the model reads it just
 * before answering.
 */
function actionsBlock(request: IntentRequest): Block {
  const actions = Array.isArray(request.actions) && request.actions.length > 1 ? request.actions : null;
  if (actions === null)
    return block("## The action to classify", [actionLine(request.player, request.text)], "protected");
  return block(
    "## The players' actions this turn (classify the one that decides what the party does; name its player as leader)",
    bullets(actions.map((a) => actionLine(a.player, a.text))),
    "protected",
  );
}

/** `lines` are already made safe (names inlined). */
function placesBlock(heading: string, lines: readonly string[], trim: number): Block {
  return block(heading, bullets(lines), trim, {
    omitted: (n) => `(and ${n} more)`,
  });
}

/**
 * Locations of the party's region first, then the rest, each in request
 * order, with their region named: players often say "go to the coast", and
 * trimming then keeps the nearest places.
 */
function locationsNearFirst(world: World, names: readonly string[], region: string): string[] {
  const regionOf = (name: string) => {
    const r = own(world.locations, name)?.region;
    return typeof r === "string" ? r : "";
  };
  const label = (name: string) => {
    const r = regionOf(name);
    return r === "" ? name : `${name} (region: ${inline(r, TEXT_CAPS.name)})`;
  };
  const near = names.filter((n) => regionOf(n) === region && region !== "");
  const far = names.filter((n) => !(regionOf(n) === region && region !== ""));
  return [...near, ...far].map(label);
}
