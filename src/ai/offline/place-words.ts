import type { World } from "../../world/schema/index.ts";
import { obj } from "./request.ts";
import { type Token, tokenize } from "./text.ts";

/**
 * What a stranger calls a place when they do not know its name (issue 14):
 * "go to the tavern" (The Gutted Eel is "a low-beamed tavern"), "go to the
 * pier" (Pier End), "go up" in the lighthouse's Stairwell. Read once from the
 * world's public text: place names, location `basicInfo`, area descriptions
 * and area `paths`. Only nouns that say what kind of place a place is count
 * ("walk to the fire" is an act in the tavern, never a journey to it).
 */

/** Nouns of kinds of places, singular and folded (American spelling: spelling() in text.ts). Small and hand-written on purpose. */
const PLACE_NOUNS = new Set(
  "tavern inn pub alehouse temple church chapel shrine lighthouse tower pier dock quay wharf port harbor market cove beach strand shore cave cavern cairn barrow mound tomb crypt wreck hull house hall vault strongroom loft landing stairwell staircase nave belfry headland clifftop moor bog marsh square bridge mill forge smithy stable barn castle fort camp farm garden graveyard cemetery library shop warehouse parlor chamber cellar".split(
    " ",
  ),
);

/**
 * Nouns that name one kind of place: "the harbour" is the world's docks or quay when no place is
 * called a harbour. Looked up only when the noun itself finds nothing in a tier.
 */
const PLACE_KIN: string[][] = [
  ["harbor", "dock", "quay", "wharf", "port"],
  ["tavern", "inn", "pub", "alehouse"],
  ["temple", "church", "chapel", "shrine"],
  ["cave", "cavern"],
];

/** Words that place an area above its neighbours, below them, or on the way between. */
const UP_WORDS = new Set("crown top summit roof loft attic upper gallery belfry".split(" "));
const DOWN_WORDS = new Set("foot bottom base cellar basement crypt undercroft".split(" "));
const STAIR_WORDS = new Set("stair stairwell staircase step ladder".split(" "));

export interface PlaceRef {
  name: string;
  kind: "area" | "location";
  /** The location of an area (the location itself for a location). */
  location: string;
}

export interface PlaceWords {
  /** Noun -> places whose name uses it. */
  names: Map<string, PlaceRef[]>;
  /** Noun -> locations whose basicInfo uses it. */
  locationTexts: Map<string, PlaceRef[]>;
  /** Noun -> areas whose description uses it. */
  areaTexts: Map<string, PlaceRef[]>;
  /** "location\u0000area" -> the area's paths, and whether it reads as high, low or a stair. */
  areas: Map<string, { paths: string[]; up: boolean; down: boolean; stair: boolean }>;
}

function words(text: string): Set<string> {
  return new Set(tokenize(text.slice(0, 4000)).map((t) => t.fold));
}

/**
 * Words of a place's own name that never stand for it alone: ways and directions ("go north", "go
 * back", "go home" are moves of their own), and the small words of names ("of", "the", "old").
 */
const NOT_A_NAME_WORD = new Set(
  "the a an of on in at by to and old new upper lower north south east west northern southern eastern western up down back home here there inside outside left right".split(
    " ",
  ),
);

function add(map: Map<string, PlaceRef[]>, text: string, ref: PlaceRef, anyNameWord = false): void {
  for (const word of words(text)) {
    // A word of the place's own name counts whatever its kind ("go to the reactor": Reactor Deck),
    // so a world's places are found in its own words, not only in the hand-written list above.
    const nameWord = anyNameWord && word.length > 2 && !NOT_A_NAME_WORD.has(word) && !/\d/.test(word);
    if (!nameWord && !PLACE_NOUNS.has(word)) continue;
    const list = map.get(word) ?? [];
    if (!list.some((r) => r.name === ref.name && r.kind === ref.kind)) list.push(ref);
    map.set(word, list);
  }
}

/** Whether a noun says what kind of place a place is ("tavern", "pier"), from the hand-written list. */
export function isKindNoun(noun: string): boolean {
  return PLACE_NOUNS.has(noun);
}

/** Words that may stand beside a name word without being part of the name ("to the reactor", "the reactor now"). */
const BESIDE_A_NAME = new Set(
  "the a an to into onto toward towards at in on by of from through past near far now again back there".split(
    " ",
  ),
);

/**
 * Whether a word of a place's name, at `k`, stands for that place in the text: the words beside it in
 * its phrase are small words or words of the same name. "the Glass Citadel" is not Glass-Field, and
 * "the Tirdor Crossing" is not Ethka Crossing: an unknown name that shares one word with a known one.
 */
export function nameWordFits(tokens: readonly Token[], k: number, name: string): boolean {
  const own = new Set(tokenize(name).map((t) => t.fold));
  for (const j of [k - 1, k + 1]) {
    const beside = tokens[j];
    if (!beside || beside.phrase !== tokens[k]!.phrase) continue;
    if (!own.has(beside.fold) && !BESIDE_A_NAME.has(beside.fold) && !beside.fold.endsWith("ly")) return false;
  }
  return true;
}

export function placeWords(world: World | undefined): PlaceWords {
  const out: PlaceWords = {
    names: new Map(),
    locationTexts: new Map(),
    areaTexts: new Map(),
    areas: new Map(),
  };
  for (const [location, raw] of Object.entries(obj(obj(world).locations)).slice(0, 20_000)) {
    const loc = obj(raw);
    const ref: PlaceRef = { name: location, kind: "location", location };
    add(out.names, location, ref, true);
    if (typeof loc.basicInfo === "string") add(out.locationTexts, loc.basicInfo, ref);
    for (const [area, rawArea] of Object.entries(obj(loc.areas)).slice(0, 200)) {
      const a = obj(rawArea);
      const areaRef: PlaceRef = { name: area, kind: "area", location };
      const description = typeof a.description === "string" ? a.description : "";
      add(out.names, area, areaRef, true);
      add(out.areaTexts, description, areaRef);
      const all = words(`${area} ${description}`);
      const has = (set: ReadonlySet<string>) => [...all].some((w) => set.has(w));
      out.areas.set(`${location}\u0000${area}`, {
        paths: Array.isArray(a.paths) ? a.paths.filter((p): p is string => typeof p === "string") : [],
        up: has(UP_WORDS),
        down: has(DOWN_WORDS),
        stair: has(STAIR_WORDS) || /\bladder-reached\b/i.test(description),
      });
    }
  }
  return out;
}

/**
 * The one place a kind-of-place noun stands for, tier by tier: place names
 * ("pier" -> Pier End), then location descriptions ("tavern" -> The Gutted
 * Eel), then area descriptions. A tier with two or more places ends the
 * search with no answer: "the tower" could be the lighthouse or the temple's.
 */
export function placeForNoun(noun: string, words: PlaceWords): PlaceRef | null {
  if (!PLACE_NOUNS.has(noun)) {
    // Any other word counts only as a word of one place's name ("the reactor", "the tents": Tent Row).
    const singular = words.names.has(noun) ? noun : noun.replace(/e?s$/, "");
    const found =
      words.names.get(singular) ?? (singular === noun ? [] : (words.names.get(noun.slice(0, -1)) ?? []));
    return found.length === 1 ? found[0]! : null;
  }
  const kin = (PLACE_KIN.find((group) => group.includes(noun)) ?? []).filter((w) => w !== noun);
  for (const tier of [words.names, words.locationTexts, words.areaTexts]) {
    let found = tier.get(noun) ?? [];
    // "the harbour" where no place says harbour: the one place a word of its kind names ("Brinewick Docks").
    if (found.length === 0) {
      const kinFound = kin.flatMap((w) => tier.get(w) ?? []);
      found = kinFound.filter(
        (r, i) => kinFound.findIndex((o) => o.name === r.name && o.kind === r.kind) === i,
      );
    }
    if (found.length === 1) return found[0]!;
    if (found.length > 1) return null;
  }
  return null;
}

/**
 * The places whose own name uses a word ("palace": The Palace District, The Wooden Palace), areas
 * with their location; for saying which a word could mean, and for preferring the one at hand.
 */
export function placesWithWord(noun: string, words: PlaceWords): readonly PlaceRef[] {
  return words.names.get(noun) ?? words.names.get(noun.replace(/e?s$/, "")) ?? [];
}

/**
 * Where "go up" / "go down" leads from an area: the one neighbour that reads
 * as higher (its description says crown, top, roof, loft…) or lower (foot,
 * bottom, cellar…), else the one stair ("Stairwell", "ladder-reached")
 * unless the area is itself the top (for up) or the bottom (for down).
 * An area at an end with a single path leads back along it.
 * `options` are the area's neighbours (for a clear refusal); `to` is null when
 * the way is not exactly one.
 */
/** "go inside" at the foot of the tower: the one area a path leads to from here, or null when there are several or none. */
export function onlyWayOn(location: string, area: string, words: PlaceWords): string | null {
  const here = words.areas.get(`${location}\u0000${area}`);
  const options = here ? here.paths.filter((p) => words.areas.has(`${location}\u0000${p}`)) : [];
  return options.length === 1 ? options[0]! : null;
}

export function verticalMove(
  location: string,
  area: string,
  direction: "up" | "down",
  words: PlaceWords,
): { to: string | null; options: string[] } {
  const here = words.areas.get(`${location}\u0000${area}`);
  if (!here) return { to: null, options: [] };
  const options = here.paths.filter((p) => words.areas.has(`${location}\u0000${p}`));
  const info = (p: string) => words.areas.get(`${location}\u0000${p}`)!;
  const toward = options.filter((p) => (direction === "up" ? info(p).up : info(p).down));
  if (toward.length > 0) return { to: toward.length === 1 ? toward[0]! : null, options };
  const atEnd = direction === "up" ? here.up : here.down;
  if (atEnd) return { to: null, options };
  const stairs = options.filter((p) => info(p).stair);
  if (stairs.length > 0) return { to: stairs.length === 1 ? stairs[0]! : null, options };
  // From the top, down leads back the only way (and from the bottom, up).
  const fromEnd = direction === "down" ? here.up || here.stair : here.down || here.stair;
  return { to: fromEnd && options.length === 1 ? options[0]! : null, options };
}
