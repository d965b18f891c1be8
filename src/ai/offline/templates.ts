import type { MoveRefusal } from "../../engine/ports.ts";
import type { WorldFacts } from "./facts.ts";
import type { ProperNames } from "./proper.ts";
import { endSentence, fnv1a, lowerFirst } from "./text.ts";

/**
 * The phrasing of the offline narration: every sentence the narrator writes
 * that is not world text comes from here. Second person, present tense, no
 * invented facts: a template only rephrases what the request or the world
 * says (a place, an NPC, a mechanical outcome). Where a template has
 * variants, the choice is stable (keyed by the tick and the place), never
 * random.
 */

/** Head words after which a place name reads better with "the" ("the Lamp Room", but "Gannet Point"). */
const COMMON_HEADS = new Set(
  "room rooms hall house market lofts loft landing stairwell stairs lighthouse temple strand trench hull chamber mouth ring cuttings ledges nave docks dock wreck barrow cairn parlour parlor tavern inn square gate bridge road path tower mill yard garden court cellar attic kitchen library office shop forge smithy stable barn chapel church keep castle fort harbour harbor quay wharf beach shore clifftop crossing ford well bazaar district quarter archive archives college plaza strongroom cave pass walk span halls lodge pens canopy outwall common".split(
    " ",
  ),
);

/**
 * A place name as it reads inside a sentence: "The Gutted Eel" -> "the Gutted Eel", "Lamp Room" ->
 * "the Lamp Room". A name whose first word is itself a proper name of the world (a town, a region,
 * a person: `proper`, proper.ts) reads without "the" whatever its head word, as "London Bridge"
 * does: "Brinewick Docks", never "the Brinewick Docks"; "Mara's Loft" too.
 */
export function placeName(name: string, proper?: ProperNames): string {
  if (/^the\s/i.test(name)) return `the ${name.slice(4)}`;
  const words = (name.includes(" of ") ? name.split(" of ")[0]! : name).trim().split(/\s+/);
  const head = words.at(-1) ?? "";
  if (!COMMON_HEADS.has(head.toLowerCase().replace(/[^a-z]/g, ""))) return name;
  // "Mara's Loft" as "Mara Venn" is a name; "Widows' Cairn" keeps its "the" (widows are no one's name).
  const first = words[0]!.toLowerCase().replace(/’/g, "'").replace(/'s$/, "");
  return words.length > 1 && /^\p{Lu}/u.test(words[0]!) && proper?.words.has(first) ? name : `the ${name}`;
}

/**
 * Where the party stands, to follow "at": "the Hearth Room of the Gutted Eel, Brinewick", "the
 * Stairwell of the Old Lighthouse, Gull Coast". Not the list "Hearth Room, The Gutted Eel,
 * Brinewick", with its capital "The" mid-sentence. The region closes it as in an address, with no
 * preposition to guess ("in Gull Coast" reads wrong); it is left out when the location already
 * names it ("Pier End of Brinewick Docks"). An area whose name has its own "of" ("Plaza of the
 * Queen") is "in" its location.
 */
export function placePhrase(
  p: { area: string; location: string; region: string },
  proper?: ProperNames,
): string {
  const area = p.area === "" ? "" : placeName(p.area, proper);
  const location = p.location === "" ? "" : placeName(p.location, proper);
  const spot =
    area && location && p.area !== p.location
      ? `${area} ${/\sof\s/i.test(p.area) ? "in" : "of"} ${location}`
      : area || location;
  const region = p.region === "" ? "" : placeName(p.region, proper);
  if (spot === "") return region || "an unnamed place";
  return region && !namesRegion(p.location, p.region) ? `${spot}, ${region}` : spot;
}

/** "Brinewick Docks" names the region Brinewick: saying "Brinewick Docks, Brinewick" would repeat it. */
function namesRegion(location: string, region: string): boolean {
  const words = (name: string) =>
    name
      .toLowerCase()
      .replace(/^the\s+/, "")
      .split(/\s+/);
  const inLocation = words(location);
  const regionWords = words(region);
  return inLocation.some((_, i) => regionWords.every((w, j) => inLocation[i + j] === w));
}

/** "A", "A and B", "A, B and C". */
function listNames(names: readonly string[], last: "and" | "or" = "and"): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} ${last} ${names.at(-1)}`;
}

/** The areas an area's paths lead to: "From here you can go to the Fish Market." ("" with none). */
export function waysOn(paths: readonly string[], proper?: ProperNames): string {
  if (paths.length === 0) return "";
  return `From here you can go to ${listNames(paths.map((p) => placeName(p, proper)))}.`;
}

export const moved = {
  teleported: (place: string, proper?: ProperNames) => `You teleport to ${placeName(place, proper)}.`,
  travelled: (place: string, proper?: ProperNames) => `You make your way to ${placeName(place, proper)}.`,
  area: (area: string, proper?: ProperNames) => `You make your way to ${placeName(area, proper)}.`,
  placed: (place: string, proper?: ProperNames) => `You find yourself at ${placeName(place, proper)}.`,
};

const STAY = "You stay where you are";

/** Why the party did not move (a "refused" outcome's data), in prose. */
export function refusal(r: MoveRefusal, facts: WorldFacts): string {
  const name = placeName(r.place, facts.proper);
  switch (r.why) {
    case "no-destination":
      return `${STAY}: you have not named a place to go.`;
    case "unknown-place": {
      const places = facts.regionLocations.get(r.place);
      return places && places.length > 0
        ? `${STAY}: ${r.place} is a whole region, not a single place. Name one of its places: ${listNames(places, "or")}.`
        : `${STAY}: nobody knows a place called ${r.place}.`;
    }
    case "unknown-realm":
      return `${STAY}: ${name} lies in ${r.realm}, and you do not know the way there yet.`;
    case "already-at":
      return `You are already at ${name}.`;
    case "already-in":
      return `You are already in ${name}.`;
    case "no-area": {
      const areas = facts.locationAreas.get(r.place) ?? [];
      const here =
        areas.length > 0 ? ` Here there are ${listNames(areas.map((a) => placeName(a, facts.proper)))}.` : "";
      return `${STAY}: there is no ${r.area} at ${name}.${here}`;
    }
    case "no-region":
      return `${STAY}: no road leads to ${name}.`;
  }
}

/** A movement toward words that name no place the request knows ("go to the Pantry"). */
export function unknownPlace(words: string): string {
  return `${STAY}: you know of no place called ${words}.`;
}

/** "go up" with no single way up from here: the party stays, and is told where it can go. */
export function noWayThere(
  direction: "up" | "down",
  here: string,
  options: readonly string[],
  proper?: ProperNames,
): string {
  const name = (place: string) => placeName(place, proper);
  const ways = options.length > 0 ? ` From ${name(here)} you can go to ${listNames(options.map(name))}.` : "";
  return `${STAY}: no ${options.length > 1 ? "single " : ""}way leads ${direction} from ${name(here)}.${ways}`;
}

export const npc = {
  here: (name: string, info: string) => (info ? `${name} is here. ${info}` : `${name} is here.`),
  alsoHere: (names: readonly string[]) => `${listNames(names)} ${names.length > 1 ? "are" : "is"} here too.`,
};

export const journal = {
  objectiveNew: (quest: string, text: string) => `New in ${quest}: ${endSentence(lowerFirst(text))}`,
  objectiveDone: (quest: string, text: string) => `Done for ${quest}: ${endSentence(lowerFirst(text))}`,
  quest: (quest: string, status: string): string => {
    switch (status) {
      case "available":
        return `${quest} is open to you now.`;
      case "accepted":
        return `You take on ${quest}.`;
      case "completed":
        return `${quest} is complete.`;
      case "rejected":
        return `You turn down ${quest}.`;
      case "expired":
        return `${quest} is no longer on offer, though its trail is still there to follow.`;
      case "abandoned":
        return `You set ${quest} aside.`;
      default:
        return `${quest}: ${status}.`;
    }
  },
  eventBegan: (title: string) => `${title} begins.`,
  eventCompleted: (title: string) => `${title} has run its course.`,
  eventStopped: (title: string) => `You leave ${title} behind you, for now.`,
};

const PROMPTS = ["What do you do?", "What do you do next?", "What now?"];
/** A party's: several players are never one "you" (voice.ts). */
const PARTY_PROMPTS = ["What does the party do?", "What does the party do next?", "What now?"];

export const closing = {
  /** A retried turn's draw takes the next prompt along: another draw never ends as the first did. */
  prompt: (key: string, draw = 0, party = false) =>
    (party ? PARTY_PROMPTS : PROMPTS)[(fnv1a(key) + draw) % PROMPTS.length]!,
};

/** One player's action, echoed in the second person ("walk to the pier" -> "You walk to the pier."). */
export function echo(action: string, isName: (firstWord: string) => boolean): string {
  const text = action.replace(/\s+/g, " ").trim();
  if (text === "") return "You wait.";
  const first = /^[\p{L}'’-]+/u.exec(text)?.[0] ?? "";
  const vocative = /^[^,]{1,40},\s/.test(text) && first !== "" && isName(first);
  // A question without its "?" ("what is this place") is still a question: never "You what is this place."
  const question = QUESTION_WORDS.test(text) && !/[.!]\s*$/.test(text);
  if (/["“”]/.test(text) || /\?\s*$/.test(text) || vocative || question || INTERJECTION.test(text)) {
    const said = text.replace(/^["“]|["”]$/g, "");
    return `You say: “${question && !/[?!.]\s*$/.test(said) ? `${said}?` : endSentence(said)}”`;
  }
  // Words to the narrator or to whoever listens: "tell me about the lighthouse" -> "You ask about the lighthouse."
  const request = /^(?:please\s+)?(tell|show|give)\s+(?:me|us)\b\s*(.*)$/i.exec(text);
  if (request) {
    const rest = fromFirstPerson(request[2]!.replace(/^(?:about\s+)/i, ""));
    const verb = request[1]!.toLowerCase();
    if (verb === "tell") return endSentence(`You ask about ${rest || "what is going on"}`);
    if (verb === "show") return endSentence(`You ask to see ${rest || "it"}`);
    return endSentence(`You ask for ${rest || "it"}`);
  }
  const firstPerson = /^(?:i|we|let's|let us|lets)\b\s*/i.exec(text);
  if (firstPerson) return endSentence(`You ${fromFirstPerson(text.slice(firstPerson[0].length))}`);
  const body = first && !isName(first) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
  return endSentence(`You ${fromFirstPerson(body)}`);
}

/**
 * A greeting or a word said for itself ("hi Mara", "thanks", "bye"): speech, never an act ("You
 * thanks.", "You try “hi mara”."). Only when nothing but a name or a few words follows it.
 */
const INTERJECTION =
  /^(?:hi|hello|hey|hiya|howdy|greetings|ahoy|good\s+(?:morning|evening|afternoon|day|night)|thanks|thank\s+you|cheers|bye|goodbye|farewell|sorry|yes|no|yeah|nope|okay|ok)\b(?:[\s,]+[\p{L}'’-]+){0,3}[\s.!]*$/iu;

/** The opening words of a question typed without its "?". */
const QUESTION_WORDS =
  /^(?:how|where|what|which|why|when|who|whom|whose|is|are|was|were|can|could|should|would|will|shall|may|might|do|does|did|have|has)\b\s+\S/i;

function fromFirstPerson(text: string): string {
  return text
    .replace(/^(?:am|'m)\b/i, "are")
    .replace(/^was\b/i, "were")
    .replace(/\b(?:I'm|I am)\b/g, "you're")
    .replace(/\bI was\b/g, "you were")
    .replace(/\bI\b/g, "you")
    .replace(/\bmyself\b/gi, "yourself")
    .replace(/\bourselves\b/gi, "yourselves")
    .replace(/\bmy\b/gi, "your")
    .replace(/\bmine\b/gi, "yours")
    .replace(/\bour\b/gi, "your")
    .replace(/\bme\b/gi, "you")
    .replace(/\bus\b/gi, "you");
}
