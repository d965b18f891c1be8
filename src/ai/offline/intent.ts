import type { IntentAnswer } from "../../engine/ports.ts";
import { directionAfter, followsWayAt, locationToward } from "./compass.ts";
import type { WorldFacts } from "./facts.ts";
import { NameIndex, type NameMatch } from "./names.ts";
import { asNoun, findFirst, negated } from "./patterns.ts";
import {
  isKindNoun,
  nameWordFits,
  onlyWayOn,
  placeForNoun,
  placesWithWord,
  verticalMove,
} from "./place-words.ts";
import type { IntentInput, Place } from "./request.ts";
import { type Token, tokenize } from "./text.ts";
import {
  ACCEPT_ALONE,
  ACCEPT_STRONG,
  ACCEPT_WEAK,
  BLINK,
  COMBAT,
  DOCUMENTS,
  FAST_TRAVEL,
  MOVE_VERBS,
  ORIGIN_VERBS,
  ORIGIN_WORDS,
  PERSON_WORDS,
  QUESTION_OPENERS,
  READ_VERBS,
  SKIP_BEFORE_PLACE,
  SLEEP,
  SOCIAL_VERBS,
  STUDY_VERBS,
  TALK_CUES,
  TELEPORT,
  TRAVEL_VERBS,
} from "./vocabulary.ts";

/**
 * The offline intent classifier (spec 3 "Planning-phase intent types"): rules
 * over the player's words, tried in a fixed order; the first that applies
 * decides. Every rule is listed, with examples, in docs/offline.md.
 *
 *  1. nothing to read                  -> other (0.5)
 *  2. "fast travel" + place            -> fastTravel
 *  3. "teleport" / "blink to" + place  -> teleport
 *  4. movement verb + destination      -> travel (a location) or move (an area here)
 *  5. combat words                     -> preventAttack, mockAttack, subdue, attack,
 *                                         evade, defend, heal, buff (in that order)
 *  6. accepting a quest or job         -> acceptQuest
 *  7. social verb + someone            -> interactNPC
 *  8. reading verb + a document        -> readDocument
 *  9. sleeping or resting              -> sleep
 * 10. an NPC present named             -> interactNPC (0.6)
 * 11. anything else                    -> other (0.5)
 *
 * Confidence: 0.9 for a clear rule (a full name, an unambiguous verb), 0.75
 * when it rests on an alias ("the lighthouse") or a generic person ("her"),
 * 0.6 for the weakest rules. travel and move are answered only with a verb
 * AND a place from the request: talk about travel (a question, "I wonder",
 * "tell me about", a negation) never moves the party.
 */

const CLEAR = 0.9;
const ALIAS = 0.75;
const WEAK = 0.6;
const NONE = 0.5;

// ---------------------------------------------------------------------------
// The classifier
// ---------------------------------------------------------------------------

const KIND_ORDER: Record<string, number> = { area: 0, location: 1, region: 2, realm: 3 };

/**
 * Place indexes by their places (kind and name, in order), most recently used last: a party asks
 * about the same places turn after turn (a server's games about a few of a world's), and an index
 * (each name's tokens, its aliases) costs far more to make than its key. A NameIndex never changes
 * once made, so one serves every request with those places.
 */
const placeIndexes = new Map<string, NameIndex>();
const PLACE_INDEXES = 256;

/** Places in the order ties prefer them: areas of the current location first, then locations, regions, realms. */
function placeIndex(places: readonly Place[]): NameIndex {
  let key = "";
  for (const place of places) {
    // Anything but text is left to the index's own checks, uncached; text is quoted (no two lists alike).
    if (typeof place?.name !== "string" || typeof place.kind !== "string") return makePlaceIndex(places);
    key += JSON.stringify(place.kind) + JSON.stringify(place.name);
  }
  let index = placeIndexes.get(key);
  if (index !== undefined) {
    placeIndexes.delete(key);
    placeIndexes.set(key, index);
    return index;
  }
  index = makePlaceIndex(places);
  placeIndexes.set(key, index);
  if (placeIndexes.size > PLACE_INDEXES) placeIndexes.delete(placeIndexes.keys().next().value as string);
  return index;
}

function makePlaceIndex(places: readonly Place[]): NameIndex {
  const sorted: { place: Place; order: number }[] = [];
  for (let order = 0; order < places.length; order++) sorted.push({ place: places[order]!, order });
  sorted.sort(byKindThenOrder);
  const ordered: Place[] = [];
  for (const { place } of sorted) ordered.push(place);
  return new NameIndex(ordered, "head");
}

function byKindThenOrder(a: { place: Place; order: number }, b: { place: Place; order: number }): number {
  return (KIND_ORDER[a.place.kind] ?? 9) - (KIND_ORDER[b.place.kind] ?? 9) || a.order - b.order;
}

/** Each world's areas, by name, with the one location that has an area of that name (shared names are left out). */
const areaHomes = new WeakMap<WorldFacts, { index: NameIndex; home: Map<string, string> }>();

/**
 * "walk to the Fish Market" typed at another location: the Fish Market is an
 * area of Brinewick Docks, which the request does not list (it lists the
 * areas of the current location only). The target is the area: the engine
 * takes the party there through its location (movement.ts, issue 14, 7).
 */
function areaElsewhere(tokens: Token[], input: IntentInput, facts: WorldFacts): IntentAnswer | null {
  let cached = areaHomes.get(facts);
  if (!cached) {
    const home = new Map<string, string>();
    const shared = new Set<string>();
    for (const [location, areas] of facts.locationAreas)
      for (const area of areas) {
        if (home.has(area) && home.get(area) !== location) shared.add(area);
        home.set(area, location);
      }
    for (const area of shared) home.delete(area);
    cached = {
      index: new NameIndex(
        [...home.keys()].map((name) => ({ name, kind: "area" })),
        "none",
      ),
      home,
    };
    areaHomes.set(facts, cached);
  }
  const matches = cached.index.match(tokens);
  if (matches.length === 0) return null;
  for (let i = 0; i < tokens.length; i++) {
    const base = movementVerbAt(tokens, i);
    if (base === null || negated(tokens, i) || talksAboutTravel(tokens, i)) continue;
    const m = matches.find((x) => x.start > i && tokens[x.start]!.clause === tokens[i]!.clause);
    const location = m ? cached.home.get(m.name) : undefined;
    if (location && location.toLowerCase() !== input.position.location.toLowerCase())
      return { intent: "travel", target: m!.name, confidence: ALIAS };
  }
  return null;
}

const MOVING_INTENTS: ReadonlySet<string> = new Set(["travel", "move", "teleport", "fastTravel"]);
/** "stay here", "we should not leave", "wait here": an action that holds the party where it is. */
const HOLD =
  /\b(?:stay|stays|staying|remain|remains|wait here|hold on|not (?:leave|go|move)|don'?t (?:leave|go|move)|no one (?:leaves|moves))\b/i;

/**
 * The party's intent from every player's action (one classifier call, docs/play.md "A party"):
 * a move asked for by any player moves the party, unless another player's
 * action holds it where it is; otherwise the first action decides. The
 * answer names the player who led (`leader`); the others follow.
 */
export function classifyParty(input: IntentInput, facts: WorldFacts): IntentAnswer {
  const all = (input.actions ?? []).filter((a) => a.text.trim() !== "");
  if (all.length <= 1) return classifyIntent(input, facts);
  const answers = all.map((a) => ({
    player: a.player,
    answer: classifyIntent({ ...input, text: a.text }, facts),
  }));
  const mover = answers.find((a) => MOVING_INTENTS.has(a.answer.intent) && a.answer.target);
  const held = answers.some(
    (a) => a !== mover && HOLD.test(all.find((x) => x.player === a.player)?.text ?? ""),
  );
  const chosen = mover && !held ? mover : answers[0]!;
  return chosen.player ? { ...chosen.answer, leader: chosen.player } : chosen.answer;
}

export function classifyIntent(input: IntentInput, facts: WorldFacts): IntentAnswer {
  const tokens = tokenize(input.text);
  if (tokens.length === 0) return { intent: "other", confidence: NONE };
  const people = npcIndex(input.npcsPresent, facts).match(tokens);
  // One longest-match-wins over places and people: "Sorrow-in-the-Wood" (an NPC) hides "the wood" (a place alias).
  const places = placeIndex(input.places)
    .match(tokens)
    .filter(
      (m) => !people.some((p) => p.start < m.end && m.start < p.end && p.end - p.start > m.end - m.start),
    );

  const fast = findFirst(FAST_TRAVEL, tokens);
  if (fast) return jump("fastTravel", places, fast.end);
  const teleport = findFirst(TELEPORT, tokens) ?? findFirst(BLINK, tokens);
  if (teleport) return jump("teleport", places, teleport.end - 1);

  const movement =
    moveIntent(tokens, places, input) ??
    areaElsewhere(tokens, input, facts) ??
    areaByStem(tokens, input) ??
    vertical(tokens, input, facts) ??
    compassMove(tokens, input, facts) ??
    homeMove(tokens, input) ??
    placeByNoun(tokens, places, input, facts) ??
    inward(tokens, input, facts);
  if (movement) return movement;

  for (const rule of COMBAT) {
    if (findFirst(rule.patterns, tokens)) return { intent: rule.intent, confidence: CLEAR };
  }

  if (findFirst(ACCEPT_STRONG, tokens)) return { intent: "acceptQuest", confidence: CLEAR };
  if (findFirst(ACCEPT_WEAK, tokens) || acceptsAlone(tokens))
    return { intent: "acceptQuest", confidence: ALIAS };

  const social = findFirst(SOCIAL_VERBS, tokens);
  if (social) {
    const named = people.find((m) => m.kind === "present");
    if (named) return { intent: "interactNPC", confidence: named.alias ? 0.85 : CLEAR };
    if (people.some((m) => m.kind === "absent")) return { intent: "interactNPC", confidence: 0.7 };
    if (input.npcsPresent.length > 0) {
      const person = tokens.some((t, i) => i > social.start && PERSON_WORDS.has(t.raw));
      return { intent: "interactNPC", confidence: person ? ALIAS : WEAK };
    }
  }

  const reading = readIntent(tokens);
  if (reading) return reading;

  if (findFirst(SLEEP, tokens)) return { intent: "sleep", confidence: CLEAR };

  if (people.some((m) => m.kind === "present" && !negated(tokens, m.start)))
    return { intent: "interactNPC", confidence: WEAK };
  return { intent: "other", confidence: NONE };
}

/**
 * "climb the stairs" where the area is the Stairwell: a word of five letters
 * or more (a plural "s" aside) that starts a one-word area name of the
 * current location, after a movement verb in the same clause (issue 14: a
 * stranger's first try at the lighthouse).
 */
function areaByStem(tokens: Token[], input: IntentInput): IntentAnswer | null {
  const areas: Place[] = [];
  for (const p of input.places) if (p.kind === "area" && !/\s/.test(p.name.trim())) areas.push(p);
  if (areas.length === 0) return null;
  for (let i = 0; i < tokens.length; i++) {
    if (movementVerbAt(tokens, i) === null || negated(tokens, i) || talksAboutTravel(tokens, i)) continue;
    for (const t of tokens.slice(i + 1)) {
      if (t.clause !== tokens[i]!.clause) break;
      const stem = t.raw.replace(/s$/, "");
      if (stem.length < 5) continue;
      const area = areaStartingWith(areas, stem, input.position.area);
      if (area) return { intent: "move", target: area.name, confidence: ALIAS };
    }
  }
  return null;
}

/** The first of the areas whose name starts with the stem, other than the party's own area. */
function areaStartingWith(areas: readonly Place[], stem: string, current: string): Place | undefined {
  for (const a of areas) if (a.name.toLowerCase().startsWith(stem) && a.name !== current) return a;
  return undefined;
}

/** The movement verb at i, asked for: not negated, not talk about travel. */
function askedMove(tokens: Token[], i: number): boolean {
  return (
    movementVerbAt(tokens, i) !== null &&
    !negated(tokens, i) &&
    !talksAboutTravel(tokens, i) &&
    !(MOVE_VERBS.has(tokens[i]!.raw) && asNoun(tokens, i))
  );
}

const UP = /^(?:up|upstairs|upward|upwards)$/;
const DOWN = /^(?:down|downstairs|downward|downwards)$/;
const CLIMBED = /^(?:stairs|stair|staircase|stairway|steps|ladder)$/;

/**
 * "go up", "climb down", "head upstairs": the direction of a movement verb
 * followed by up/down and no place (null otherwise). The narration uses it
 * to say where one can go when no single way leads there.
 */
export function verticalDirection(text: string): "up" | "down" | null {
  return directionOf(tokenize(text));
}

function directionOf(tokens: Token[]): "up" | "down" | null {
  for (let i = 0; i < tokens.length - 1; i++) {
    if (!askedMove(tokens, i)) continue;
    const next = tokens[i + 1]!;
    if (next.clause !== tokens[i]!.clause) continue;
    if (UP.test(next.raw)) return "up";
    if (DOWN.test(next.raw)) return "down";
  }
  // "up", "down the stairs", "climb": a direction alone, as adventure games are played (it was
  // "You try “up”."). Only the whole line: "up there, a gull" is no move.
  const alone = tokens.slice(1).every((t) => BARE_DIRECTION_REST.test(t.raw));
  if (alone && (UP.test(tokens[0]?.raw ?? "") || /^(?:climb|climbs)$/.test(tokens[0]?.raw ?? "")))
    return "up";
  if (alone && DOWN.test(tokens[0]?.raw ?? "")) return "down";
  if (/^(?:ascend|ascends)$/.test(tokens[0]?.raw ?? "")) return "up";
  // "climb the stairs": a climb of something one climbs goes up (down was said in the loop above).
  if (/^(?:climb|climbs)$/.test(tokens[0]?.raw ?? "") && tokens.slice(1).some((t) => CLIMBED.test(t.raw)))
    return "up";
  if (/^(?:descend|descends)$/.test(tokens[0]?.raw ?? "")) return "down";
  return null;
}

/** What may follow a bare "up" or "down" for it to stay a move: "up the stairs", "down the ladder". */
const BARE_DIRECTION_REST = /^(?:the|stairs?|steps?|stairway|staircase|ladder|again|please)$/;

/** "go up" in the Stairwell -> the Lamp Room: the one area a climb leads to from here (place-words.ts). */
function vertical(tokens: Token[], input: IntentInput, facts: WorldFacts): IntentAnswer | null {
  const direction = directionOf(tokens);
  if (direction === null) return null;
  const { to } = verticalMove(input.position.location, input.position.area, direction, facts.places);
  return to ? { intent: "move", target: to, confidence: ALIAS } : null;
}

/**
 * "walk north along the road": the nearest known location the map puts in that direction
 * (compass.ts). None there: no answer, and the narration says nothing known lies that way.
 */
function compassMove(tokens: Token[], input: IntentInput, facts: WorldFacts): IntentAnswer | null {
  for (let i = 0; i < tokens.length; i++) {
    if (
      !askedMove(tokens, i) &&
      !(followsWayAt(tokens, i) && !negated(tokens, i) && !talksAboutTravel(tokens, i))
    )
      continue;
    const direction = directionAfter(tokens, i);
    if (direction === null) continue;
    // "walk east to the tavern": the place named is the end, whichever way it lies (placeByNoun's).
    let aimed = false;
    for (let k = i + 1; k < tokens.length && tokens[k]!.clause === tokens[i]!.clause; k++)
      if (AIMING.has(tokens[k]!.raw)) aimed = true;
    if (aimed) continue;
    const candidates: string[] = [];
    for (const p of input.places) if (p.kind === "location") candidates.push(p.name);
    const to = locationToward(input.position.location, direction, candidates, facts.locationPoints);
    return to ? { intent: "travel", target: to, confidence: ALIAS } : null;
  }
  return null;
}

/**
 * "go home", "head back home": the one place the party may go to whose name says home ("Ada's
 * Homestead", "Home Farm"). The world keeps no home of a character: with none or several such
 * places, no answer, and the narration says the party has no home it knows of here.
 */
function homeMove(tokens: Token[], input: IntentInput): IntentAnswer | null {
  for (let i = 0; i < tokens.length; i++) {
    if (!askedMove(tokens, i)) continue;
    let home = -1;
    for (let k = i + 1; k < tokens.length && tokens[k]!.clause === tokens[i]!.clause; k++)
      if (tokens[k]!.raw === "home") home = k;
    if (home === -1) continue;
    const homes = input.places.filter(
      (p) =>
        (p.kind === "location" || p.kind === "area") &&
        /\bhome(?:stead)?s?\b/i.test(p.name) &&
        p.name !== input.position.area,
    );
    if (homes.length !== 1) return null;
    const place = homes[0]!;
    return { intent: place.kind === "area" ? "move" : "travel", target: place.name, confidence: ALIAS };
  }
  return null;
}

/** Words before a place noun that make it the way, not the end: "along the road", "through the woods". */
const ROUTE_WORDS = new Set(["along", "across", "through", "via", "past", "following", "alongside"]);

const INWARD = /^(?:in|inside|indoors|within)$/;

/**
 * "go inside", "step in": a movement verb followed by nothing but an inward word, where exactly
 * one path leads on from the party's area (Rock Landing -> Stairwell). Anything else is no guess.
 */
function inward(tokens: Token[], input: IntentInput, facts: WorldFacts): IntentAnswer | null {
  for (let i = 0; i < tokens.length - 1; i++) {
    if (!askedMove(tokens, i)) continue;
    const rest = tokens.slice(i + 1).filter((t) => t.clause === tokens[i]!.clause);
    if (rest.length !== 1 || !INWARD.test(rest[0]!.raw)) continue;
    const to = onlyWayOn(input.position.location, input.position.area, facts.places);
    return to ? { intent: "move", target: to, confidence: ALIAS } : null;
  }
  return null;
}

/**
 * "go to the tavern": a kind-of-place noun after a movement verb, in the
 * same clause, that stands for exactly one place of the world
 * (place-words.ts): an area of here is a move, anything else travel (an
 * area elsewhere is reached through its location, as areaElsewhere).
 */
function placeByNoun(
  tokens: Token[],
  named: readonly NameMatch[],
  input: IntentInput,
  facts: WorldFacts,
): IntentAnswer | null {
  for (let i = 0; i < tokens.length; i++) {
    if (!askedMove(tokens, i)) continue;
    const base = movementVerbAt(tokens, i)!;
    for (let k = i + 1; k < tokens.length; k++) {
      const t = tokens[k]!;
      if (t.clause !== tokens[i]!.clause) break;
      // A word of a place already named is that place's ("leave the Fish Market" is no trip to a market).
      if (named.some((m) => m.start <= k && k < m.end)) continue;
      // "walk along the road": the way taken, not where it ends.
      const before = tokens[k - 1]?.raw === "the" ? tokens[k - 2] : tokens[k - 1];
      if (before && ROUTE_WORDS.has(before.raw)) continue;
      const place = placeForNoun(t.fold, facts.places) ?? placeAtHand(t.fold, input, facts);
      if (!place || (!isKindNoun(t.fold) && !nameWordFits(tokens, k, place.name))) continue;
      // "leave the tavern", "come back from the tavern": where the party comes from, not where it goes.
      if (
        isOrigin(tokens, { name: place.name, kind: place.kind, start: k, end: k + 1, alias: true }, i, base)
      )
        continue;
      const here = place.location.toLowerCase() === input.position.location.toLowerCase();
      if (place.kind === "area" && here) return { intent: "move", target: place.name, confidence: ALIAS };
      return {
        intent: "travel",
        target: place.kind === "area" ? place.name : place.location,
        confidence: ALIAS,
      };
    }
  }
  return null;
}

/**
 * "go to the palace" where two places are named so, one of them at the party's location (The
 * Palace District of Avenor, in Avenor; The Wooden Palace far off): the one at hand.
 */
function placeAtHand(noun: string, input: IntentInput, facts: WorldFacts) {
  const here = input.position.location.toLowerCase();
  const near = placesWithWord(noun, facts.places).filter((p) => p.location.toLowerCase() === here);
  return near.length === 1 ? near[0]! : null;
}

/** teleport / fastTravel: the first location (else any place) named after the keyword. */
function jump(intent: "teleport" | "fastTravel", places: NameMatch[], after: number): IntentAnswer {
  const later = places.filter((m) => m.start >= after);
  const target = later.find((m) => m.kind === "location") ?? later.find((m) => m.kind !== "realm") ?? null;
  return target
    ? { intent, target: target.name, confidence: target.alias ? ALIAS : CLEAR }
    : { intent, confidence: WEAK };
}

const REPEL = new Set(["off", "back", "away", "out"]);
const AIMING = new Set(["to", "towards", "toward", "into", "for", "onto"]);

/** Whether a place is the aim of the movement verb at `verb`: right after it, or after to/into/towards. */
function aimedAt(tokens: readonly Token[], verb: number, m: NameMatch): boolean {
  let k = m.start - 1;
  while (k > verb && SKIP_BEFORE_PLACE.has(tokens[k]!.raw)) k--;
  if (k === verb) return true;
  while (
    k > verb &&
    /^(?:up|down|back|over|out|across|along|on|way|my|our|your)$/.test(tokens[k]!.raw) &&
    !AIMING.has(tokens[k]!.raw)
  )
    k--;
  return AIMING.has(tokens[k]!.raw);
}

/**
 * Rule 4. For each movement verb (in order) that is not negated and not in a
 * clause that talks about travel: the places named after it in the same
 * clause, minus origins ("from the pier", "leave the tavern"), are its
 * destinations. A location other than the current one wins (travel); else an
 * area of the current location (move); else the current location itself
 * (travel: the engine answers that the party is already there); else a
 * region (travel with the region as target: the engine refuses it, and the
 * narration names the region's locations).
 */
function moveIntent(tokens: Token[], places: NameMatch[], input: IntentInput): IntentAnswer | null {
  for (let i = 0; i < tokens.length; i++) {
    const base = movementVerbAt(tokens, i);
    if (base === null || negated(tokens, i) || talksAboutTravel(tokens, i)) continue;
    if (MOVE_VERBS.has(tokens[i]!.raw) && asNoun(tokens, i)) continue;
    // "drive off the raiders", "drive back the wolves": repelling, not a journey.
    if (/^(?:drive|drives|driving|drove|driven)$/.test(tokens[i]!.raw) && REPEL.has(tokens[i + 1]?.raw ?? ""))
      continue;
    const clause = tokens[i]!.clause;
    const destinations = places.filter(
      (m) => m.start > i && tokens[m.start]!.clause === clause && !isOrigin(tokens, m, i, base),
    );
    const current = input.position.location.toLowerCase();
    const elsewhere = destinations.find((m) => m.kind === "location" && m.name.toLowerCase() !== current);
    const area = destinations.find((m) => m.kind === "area");
    // The place the party is at counts only when the movement aims at it ("walk to the inn", "enter the inn"):
    // "put out the fire at the inn" names it as the scene of another act (issue 18, 8).
    const here = destinations.find((m) => m.kind === "location" && aimedAt(tokens, i, m));
    const region = destinations.find((m) => m.kind === "region");
    const confidence = (m: NameMatch) => (m.alias ? ALIAS : CLEAR);
    if (elsewhere) return { intent: "travel", target: elsewhere.name, confidence: confidence(elsewhere) };
    if (area) return { intent: "move", target: area.name, confidence: confidence(area) };
    if (here) return { intent: "travel", target: here.name, confidence: confidence(here) };
    if (region) return { intent: "travel", target: region.name, confidence: WEAK };
  }
  return null;
}

const UNKNOWN_PLACE = new RegExp(
  String.raw`\b(?:${[...MOVE_VERBS.entries()]
    .filter(([, base]) => TRAVEL_VERBS.has(base))
    .map(([form]) => form)
    .join(
      "|",
    )})\b(?:\s+(?:up|down|back|over|out|across|along|off|on|away|north|south|east|west|inland))*\s+(?:to|towards?)\s+((?:the\s+)?\p{L}[^.,;:!?"“”]{0,59})`,
  "iu",
);

/**
 * The destination of a movement that names no place the request knows, when
 * it looks like a proper name ("go to the Pantry", "travel to Avalon" ->
 * "the Pantry", "Avalon") and the movement is really asked for (not negated,
 * not talk about travel); null otherwise. The narration uses it to say the
 * party did not move instead of echoing a journey that never happened.
 * Lower-case destinations ("walk to the window") are ordinary actions, unless
 * `isName` knows them for a name of the world ("go back to brinewick").
 */
export function unknownDestination(text: string, isName: (words: string) => boolean = never): string | null {
  const tokens = tokenize(text);
  const asked = tokens.some(
    (t, i) =>
      TRAVEL_VERBS.has(MOVE_VERBS.get(t.raw) ?? "") && !negated(tokens, i) && !talksAboutTravel(tokens, i),
  );
  if (!asked) return null;
  const words = UNKNOWN_PLACE.exec(text.slice(0, 2000))?.[1]?.trim();
  if (!words) return null;
  const destination = words.replace(/\s+(?:and|then|but)\b.*$/i, "");
  return /^(?:[Tt]he\s+)?\p{Lu}/u.test(words) || isName(destination) ? destination : null;
}

function never(): boolean {
  return false;
}

/** The base of the movement verb at token i ("make my way" counts, at "way"; "set off/out/sail" at "set"). */
export function movementVerbAt(tokens: readonly Token[], i: number): string | null {
  const t = tokens[i]!;
  const base = MOVE_VERBS.get(t.raw);
  if (base !== undefined) return base;
  if (
    t.raw === "way" &&
    i >= 2 &&
    /^(make|makes|making|made|wend|wends|find|finds)$/.test(tokens[i - 2]!.raw)
  )
    return "go";
  if (/^(set|sets|setting)$/.test(t.raw) && /^(off|out|sail)$/.test(tokens[i + 1]?.raw ?? "")) return "go";
  return null;
}

function talksAboutTravel(tokens: readonly Token[], i: number): boolean {
  const t = tokens[i]!;
  if (t.question) return true;
  let first = i;
  while (first > 0 && tokens[first - 1]!.clause === t.clause) first--;
  if (QUESTION_OPENERS.has(tokens[first]!.raw)) return true;
  for (let k = first; k < i; k++) if (TALK_CUES.has(tokens[k]!.raw)) return true;
  return false;
}

function isOrigin(tokens: readonly Token[], m: NameMatch, verbAt: number, base: string): boolean {
  let k = m.start - 1;
  while (k > verbAt && SKIP_BEFORE_PLACE.has(tokens[k]!.raw)) k--;
  if (k === verbAt) return ORIGIN_VERBS.has(base);
  const before = tokens[k]!.raw;
  if (ORIGIN_WORDS.has(before)) return true;
  return before === "of" && tokens[k - 1]?.raw === "out";
}

/** NPC indexes per world, by the names present: a scene's index is built once, not on every classify. */
const npcIndexes = new WeakMap<WorldFacts, Map<string, NameIndex>>();
/** Scenes remembered per world; the oldest is forgotten first. */
const NPC_INDEXES_KEPT = 32;

function npcIndex(present: readonly string[], facts: WorldFacts): NameIndex {
  let byPresent = npcIndexes.get(facts);
  if (!byPresent) {
    byPresent = new Map();
    npcIndexes.set(facts, byPresent);
  }
  const key = JSON.stringify(present);
  let index = byPresent.get(key);
  if (!index) {
    const here = new Set(present.map((n) => n.toLowerCase()));
    index = new NameIndex(
      [
        ...present.map((name) => ({ name, kind: "present" })),
        ...facts.npcNames.filter((n) => !here.has(n.toLowerCase())).map((name) => ({ name, kind: "absent" })),
      ],
      "any",
    );
    if (byPresent.size >= NPC_INDEXES_KEPT) byPresent.delete(byPresent.keys().next().value!);
    byPresent.set(key, index);
  }
  return index;
}

function acceptsAlone(tokens: readonly Token[]): boolean {
  const found = findFirst([ACCEPT_ALONE], tokens);
  if (!found) return false;
  const next = tokens[found.end];
  return next === undefined || next.clause !== tokens[found.start]!.clause;
}

/** Rule 8: "read" + anything (0.8, 0.9 with a document word); study/examine/look at/open + a document word (0.9). */
function readIntent(tokens: Token[]): IntentAnswer | null {
  const documentAfter = (start: number) =>
    tokens.some((t, k) => k > start && t.clause === tokens[start]!.clause && DOCUMENTS.has(t.fold));
  const read = findFirst(READ_VERBS, tokens);
  if (read && read.end < tokens.length && tokens[read.end]!.clause === tokens[read.start]!.clause)
    return { intent: "readDocument", confidence: documentAfter(read.start) ? CLEAR : 0.8 };
  const study = findFirst(STUDY_VERBS, tokens);
  if (study && documentAfter(study.start)) return { intent: "readDocument", confidence: CLEAR };
  return null;
}
