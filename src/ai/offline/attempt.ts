import { followsWayAt } from "./compass.ts";
import { isVerb, verbRoot } from "./lexicon.ts";
import { negated } from "./patterns.ts";
import { pickStable, tokenize } from "./text.ts";
import { MOVE_VERBS, PERSON_WORDS, QUESTION_OPENERS, TRAVEL_VERBS } from "./vocabulary.ts";

/**
 * An honest echo (issue 14, 1): the offline narrator does not decide what an
 * action achieves, so it must not say it was achieved. When the turn changed
 * nothing (no outcome, no story instruction, no event beat), an action is
 * told as an attempt with no result ("You search the desk; nothing comes of
 * it."); words it cannot read as an act are quoted ("You try “xyzzy”, but
 * nothing comes of it."); a journey with no place the world knows is told as
 * staying put; speech to nobody is told as such. Observing (look, listen,
 * wait) and speaking are acts that always happen, so they keep their echo.
 */

/** Acts that happen whatever the world holds: their plain echo is true. */
const ALWAYS_HAPPEN = new Set(
  "look glance gaze peer listen wait watch rest sit stand think breathe sleep nap pause linger stay smile nod shrug sigh laugh pray hum sing whistle kneel relax say shout whisper call yell dont do want wish will would need am feel hope decide prefer like love hate refuse remember know see hear wonder plan mean intend".split(
    " ",
  ),
);

const SOCIAL = new Set(
  "talk speak ask greet chat question tell thank confront bargain haggle persuade threaten approach demand insist implore urge request plead beg".split(
    " ",
  ),
);

/** Common verbs players type: an action opening with one is an act, anything else is quoted as typed. */
const KNOWN_VERBS = new Set(
  "order search examine inspect check open close take grab pick get fetch collect gather steal pocket drop give hand offer show return bring buy sell trade pay use light ignite burn extinguish douse read study write climb jump swim dive push pull lift carry drag throw kick hit strike attack fight punch stab slash shoot kill dodge block hide sneak follow track hunt fish eat drink cook craft build repair fix mend break smash unlock lock knock ring toll play dance help heal bandage cure feed pet touch smell taste feel search dig bury cut chop saw tie untie free release rescue save call signal wave point leave enter cross explore investigate find seek try attempt cast summon bless curse enchant wear equip remove wash clean sweep light count sort load unload row steer sail board ride mount dismount lead hug kiss comfort calm scare warn bribe rob loot pray forage harvest plant water tend trap set lay place put hang mark sign stamp burn".split(
    " ",
  ),
);

/** Words that name a kind of place: "walk to the village" means a place, "walk to the window" does not. */
const PLACE_NOUNS = new Set(
  "village town city inn tavern pub market temple church chapel castle keep fort harbour harbor docks dock port pier quay forest woods wood road river lake sea shore beach coast mountain mountains hill hills cave caves mill farm camp tower lighthouse square plaza palace hall guild college library shop smithy forge stable stables bridge gate gates ruins crypt cemetery graveyard swamp marsh desert valley cliff cliffs island capital outpost border bazaar district quarter".split(
    " ",
  ),
);

const DIRECTIONS = new Set(
  "north south east west northeast northwest southeast southwest north-east north-west south-east south-west up down upstairs downstairs inside outside onward onwards ahead forward away around back".split(
    " ",
  ),
);

const NOTHING = ["nothing comes of it", "nothing changes", "it makes no difference that you can see"];
/** Acts of one's own body (roots): they happen, even when nothing comes of them. */
const BODILY = new Set(
  "jump hop skip dance clap stretch spin crouch crawl bow wave shiver yawn cough spit scream cry weep grin frown stomp".split(
    " ",
  ),
);
/** An act the world did not carry out, in varied words (never as done): the NOTHING lines and a few more. */
const NOT_DONE = [
  ...NOTHING,
  "it is not possible here",
  "the world does not bend that way",
  "it does not happen",
];

/** Compass words: a way, never a place ("walk north along the road"). */
const COMPASS_WORDS = /^(?:north|south|east|west|northeast|northwest|southeast|southwest)(?:wards?|ern)?$/;
/** Words before a place noun that make it the way, not the end: "along the road", "through the woods". */
const ROUTE_WORDS = new Set(["along", "across", "through", "via", "past", "following", "alongside"]);
/** The map, as the story says it (read in the browser too, where there is no /map command). */
const YOUR_MAP = "Your map shows the places you know.";

/**
 * A movement that reaches no known place: the prose for staying put, or null when the action is
 * no such movement. Each says why: no place known that way ("walk north" where the map has none),
 * no home known, no place of that name, or a name that fits several places (`placesNamed`, the
 * names a noun fits, when the caller knows the world: "the palace" is two of them).
 */
export function journeyToNowhere(
  action: string,
  placesNamed: (noun: string) => readonly string[] = () => [],
): string | null {
  const tokens = tokenize(action);
  for (let i = 0; i < tokens.length; i++) {
    const base = MOVE_VERBS.get(tokens[i]!.raw);
    const travels = (base !== undefined && TRAVEL_VERBS.has(base)) || followsWayAt(tokens, i);
    if (!travels || negated(tokens, i) || tokens[i]!.question) continue;
    const rest = tokens.slice(i + 1).filter((t) => t.clause === tokens[i]!.clause);
    const words = rest.map((t) => t.raw);
    const compass = words.find((w) => COMPASS_WORDS.test(w));
    if (compass !== undefined)
      return `You stay where you are: you know of no place ${compass.replace(/wards?$|ern$/, "")} of here. ${YOUR_MAP}`;
    if (words.includes("home"))
      return `You stay where you are: you know of no home of yours in these parts. Name a place to go; ${YOUR_MAP.toLowerCase()}`;
    const at = words.findIndex(
      (w, k) => PLACE_NOUNS.has(w) && !ROUTE_WORDS.has(words[words[k - 1] === "the" ? k - 2 : k - 1] ?? ""),
    );
    if (at !== -1) {
      const place = words[at]!;
      // The place noun with at most two words before it, after the preposition: "the old mill", never "into the sea".
      const before = words.slice(Math.max(0, at - 2), at);
      const from = before.findLastIndex((w) => TOWARD.has(w) || PREPOSITIONS.has(w) || ROUTE_WORDS.has(w));
      const phrase = [...before.slice(from + 1), place].join(" ").replace(/^(?:the|a|an)\s+/, "");
      const several = placesNamed(place);
      if (several.length > 1)
        return `You stay where you are: “${phrase}” could be ${orList(several.slice(0, 4))}. Name the one you mean.`;
      // A region's word ("the lake": Lake Wildering): a region is no place to stand in, its places are.
      if (several.length === 1)
        return `You stay where you are: do you mean ${several[0]}? Name it, or a place there. ${YOUR_MAP}`;
      return `You stay where you are: you know of no ${phrase} by that name here. ${YOUR_MAP}`;
    }
    // "go back", "head back the way we came": the narrator keeps no trail of where the party was.
    if (words[0] === "back" && !words.some((w) => TOWARD.has(w)))
      return `You stay where you are: say where to go back to. ${YOUR_MAP}`;
    if (
      words.length > 0 &&
      words.length <= 3 &&
      words.every((w) => DIRECTIONS.has(w) || w === "the" || w === "a" || w === "bit" || w === "little")
    )
      return `You stay where you are: no road you know leads that way. Name a place to go; ${YOUR_MAP.toLowerCase()}`;
  }
  return null;
}

/** "A, B or C". */
function orList(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/** Prepositions of a journey's end: "fly to the moon", "swim out to the ship", "walk into the sea". */
const TOWARD = new Set(["to", "towards", "toward", "into", "onto"]);

/**
 * A journey toward a thing that is no place of the world and not in the scene ("fly to the moon",
 * "swim to the ship" on the pier): the party stays, and the narration says so instead of echoing a
 * journey nobody made. A journey is a verb of going far (fly, swim, sail, ride…) or a far thing
 * (the moon, a ship, an island). Returns the prose, or null when the action is no such journey (the
 * thing is in the scene, a person here, or no thing is named: "go to bed", "walk to the window").
 */
export function journeyToNothing(action: string, sceneText: string): string | null {
  const tokens = tokenize(action);
  for (let i = 0; i < tokens.length; i++) {
    const base = MOVE_VERBS.get(tokens[i]!.raw);
    if (base === undefined || negated(tokens, i) || tokens[i]!.question) continue;
    const rest = tokens
      .slice(i + 1)
      .filter((t) => t.clause === tokens[i]!.clause && t.phrase === tokens[i]!.phrase);
    const at = rest.findIndex((t) => TOWARD.has(t.raw));
    // "swim out to", "go back into", "fly up to": a short way-word between the verb and the preposition.
    if (at === -1 || at > 2 || !/^(?:the|a|an)$/.test(rest[at + 1]?.raw ?? "")) continue;
    const phrase: string[] = [];
    for (const t of rest.slice(at + 1)) {
      if (PREPOSITIONS.has(t.raw) || TOWARD.has(t.raw)) break;
      phrase.push(t.raw);
    }
    const head = (phrase.at(-1) ?? "").replace(/s$/, "");
    if (head.length < 3) return null;
    // Only a journey: a verb of going far, or a far thing. "walk to the window" and "climb onto the
    // bollard" stay acts about the room, described or not.
    if (!FAR_VERBS.has(base) && !FAR_THINGS.has(head)) return null;
    const scene = new Set(sceneText.toLowerCase().match(/[a-z]{3,}/g) ?? []);
    for (const w of scene)
      if (w.startsWith(head) || (w.length >= 4 && head.startsWith(w.replace(/s$/, "")))) return null;
    // As the player wrote it ("the Marigold"), when the words are found in the action as typed.
    const typed = new RegExp(
      `\\b${phrase.map((w) => w.replace(/[^\p{L}\p{N}]/gu, "")).join("[\\s'’]+")}\\b`,
      "iu",
    ).exec(action);
    return `You stay where you are: you know of no way to ${typed?.[0] ?? phrase.join(" ")} from here.`;
  }
  return null;
}

/** Verbs of going a long way (or by means the party does not have): their end must be a place. */
const FAR_VERBS = new Set("fly swim sail row paddle ride drive journey travel trek hike march".split(" "));
/** Things far off that a few steps do not reach: "walk to the moon", "run to the ship". */
const FAR_THINGS = new Set(
  "moon sun star sky heaven cloud horizon ship boat island mainland continent kingdom empire capital city world".split(
    " ",
  ),
);

/** Acts no one in the party can do by wishing ("fly", "levitate"): always told as a try, never as done. */
const BEYOND_YOU = new Set("fly flying flew levitate levitating float soar soaring hover".split(" "));

/**
 * The echo of an action on a turn where nothing happened: null when the plain
 * echo is already true (looking, waiting, speaking to someone present).
 */
export function attemptLine(
  action: string,
  echoed: string,
  ctx: { key: string; npcsPresent: number; quiet?: boolean },
): string | null {
  const text = action.trim();
  const verb = leadingVerb(text);
  const nothing = pickStable(NOTHING, ctx.key);
  // Something else was told this turn (an instruction, an event's beat): it may be what came of the
  // act, so the act is told as tried without saying it came to nothing.
  const end = ctx.quiet ? "." : `, but ${nothing}.`;
  // Digits or signs alone ("1", "???") are no act: quoted as a try, never echoed as "You 1."
  if (verb === "" || /^[0-9-]+$/.test(verb))
    return text === "" || echoed.startsWith("You say:") ? null : `You try “${clipWords(text, 8)}”${end}`;
  if (QUESTION_OPENERS.has(verb) || echoed.startsWith("You say:")) return null;
  // Looking, waiting and moving about the place always happen (a journey to a place is journeyToNowhere's).
  if (hasRoot(ALWAYS_HAPPEN, verb) || MOVE_VERBS.has(verb)) return null;
  if (hasRoot(SOCIAL, verb))
    return ctx.npcsPresent > 0 ? null : "You speak up, but there is no one here to answer.";
  if (!KNOWN_VERBS.has(verbRoot(verb)) && !isVerb(verb)) return `You try “${clipWords(text, 8)}”${end}`;
  // A movement of one's own body happens whatever the world holds, only with no effect ("You jump; ...").
  if (BODILY.has(verbRoot(verb))) return ctx.quiet ? null : `${echoed.replace(/[.!]$/, "")}; ${nothing}.`;
  // Not carried out by the world's rules: tried, never told as done ("summon a thousand gold coins").
  if (!/^You [a-z]/.test(echoed)) return `You try “${clipWords(text, 8)}”${end}`;
  const act = echoed.slice(4).replace(/[.!]+$/, "");
  return ctx.quiet ? `You try to ${act}.` : `You try to ${act}, but ${pickStable(NOT_DONE, ctx.key)}.`;
}

/**
 * Words that read as no act at all ("asdfghjkl qwerty", "1"), whatever else the turn told: quoted
 * as a try ("You try “asdfghjkl qwerty”."), never echoed as "You asdfghjkl qwerty."; null for an
 * act (a verb the narrator knows, a question, speech).
 */
export function unreadableLine(action: string, echoed: string): string | null {
  const text = action.trim();
  if (text === "" || echoed.startsWith("You say:")) return null;
  const verb = leadingVerb(text);
  if (verb !== "" && !/^[0-9-]+$/.test(verb) && (isKnownVerb(verb) || QUESTION_OPENERS.has(verb)))
    return null;
  return `You try “${clipWords(text, 8)}”.`;
}

/** A verb the narrator knows as an act ("light", "go", "ask", "takes"), lower case. */
export function isKnownVerb(word: string): boolean {
  const known = (w: string) =>
    KNOWN_VERBS.has(w) ||
    ALWAYS_HAPPEN.has(w) ||
    SOCIAL.has(w) ||
    MOVE_VERBS.has(w) ||
    STATE_VERBS.has(w) ||
    WORLD_VERBS.has(w);
  return known(word) || known(verbRoot(word)) || isVerb(word);
}

/** The act's first word after "I" or "we", apostrophes dropped, digits kept ("1" is read as no act). */
function leadingVerb(text: string): string {
  const words =
    text
      .toLowerCase()
      .replace(/[’']/g, "")
      .match(/[a-z0-9-]+/g) ?? [];
  return words[words[0] === "i" || words[0] === "we" ? 1 : 0] ?? "";
}

function clipWords(text: string, n: number): string {
  const words = text.split(/\s+/);
  const clipped = words.length > n ? `${words.slice(0, n).join(" ")}…` : text;
  // A run of letters with no spaces ("xxxx…" pasted 300 times) is clipped too.
  const chars = [...clipped];
  return chars.length > 80 ? `${chars.slice(0, 79).join("").trimEnd()}…` : clipped;
}

/**
 * Verbs whose plain echo would claim a change only the game's state may make: an item taken, given,
 * bought, eaten or lost, a wound dealt or healed (issue 19 item 3, docs/engine.md "What the narrator
 * may decide"). The offline narrator never decides such a change, so it tells these acts as tries.
 */
const STATE_VERBS = new Set(
  "order attack take grab pick get fetch collect gather steal pocket loot rob find receive gain earn win buy drop give hand return bring sell trade pay spend lose discard eat drink quaff swallow consume use heal bandage cure stab slash shoot hit strike punch kill cut wound hurt injure".split(
    " ",
  ),
);

/**
 * Verbs that claim a change of the world only a trigger can make ("light the lamp", "ring the
 * bell", "unlock the door"): told plainly only when the turn recorded an outcome, else as a try.
 */
const WORLD_VERBS = new Set(
  "light ignite kindle unlock ring toll repair fix mend free rescue save open break destroy extinguish douse".split(
    " ",
  ),
);

/** "I am wounded", "we got robbed": a state change claimed in the passive. */
const BEING = new Set("am are is was were get gets got become becomes".split(" "));
const SUFFERED = new Set(
  "wounded hurt injured healed cured poisoned killed stabbed bitten robbed paid given rewarded struck hit shot slain dead bleeding cut".split(
    " ",
  ),
);

/**
 * The honest telling of an action that claims a change of items, resources or wounds, or null when
 * it claims none: "You try to take the lamp key." (", but nothing comes of it." on a turn where
 * nothing happened). Whatever the game did record is told by the turn's outcomes, never by the echo.
 */
export function stateClaimLine(
  action: string,
  echoed: string,
  ctx: { key: string; happened: boolean; changed?: boolean },
): string | null {
  if (echoed.startsWith("You say:")) return null;
  const words =
    action
      .toLowerCase()
      .replace(/[’']/g, "")
      .match(/[a-z-]+/g) ?? [];
  const start = words[0] === "i" || words[0] === "we" ? 1 : 0;
  const verb = words[start] ?? "";
  if (QUESTION_OPENERS.has(verb) && !BEING.has(verb)) return null;
  const end = ctx.happened ? "." : `, but ${pickStable(NOTHING, ctx.key)}.`;
  // A passive claim ("I am wounded by the Salt Widow") is the player's words, not an act of theirs.
  if (BEING.has(verb) && SUFFERED.has(words[start + 1] ?? ""))
    return `You try “${clipWords(action.trim(), 8)}”${end}`;
  // The first verb, or one opening a later clause ("look around and take the key").
  const claims = words.some(
    (w, i) => hasRoot(STATE_VERBS, w) && (i === start || ["and", "then"].includes(words[i - 1] ?? "")),
  );
  const changesWorld = !ctx.changed && hasRoot(WORLD_VERBS, verb);
  // "jump out of the window", "leap off the cliff": a fall the story cannot tell without its end.
  const fall =
    /^(?:jump|jumps|leap|leaps|dive|dives|throw)$/.test(verb) &&
    /\b(?:off|out of|from|over the edge)\b/.test(words.join(" "));
  if ((!claims && !changesWorld && !fall && !hasRoot(BEYOND_YOU, verb)) || !/^You [a-z]/.test(echoed))
    return null;
  return `You try to ${echoed.slice(4).replace(/[.!]+$/, "")}${end}`;
}

/** Acts on a thing that must be at hand: the thing is looked for in what the scene shows. */
const OBJECT_VERBS = new Set(
  "read study examine inspect open take grab pick light ignite ring toll unlock search".split(" "),
);
const DETERMINERS = new Set("the a an my your his her their its this that some".split(" "));
const PREPOSITIONS = new Set("with to on in at from into for by under over behind using and then".split(" "));

/**
 * "read the logbook" on the stairwell, where no logbook is: the thing an act
 * needs is not in the scene (the place's text, who is here, what was just
 * told). Returns "There is no logbook here to read." ("There are no rocks
 * here to search." for a plural) or null. A word of the
 * scene that starts the thing's name counts ("log" for "logbook").
 */
export function absentObjectLine(action: string, sceneText: string): string | null {
  const { words, start } = actWords(action);
  const verb = words[start] ?? "";
  if (!OBJECT_VERBS.has(verb)) return null;
  // "my lantern", "your knife": the player's own things are not looked for in the scene.
  if (/^(?:my|your|our)$/.test(words[start + 1] ?? "")) return null;
  const phrase: string[] = [];
  for (const w of words.slice(start + 1)) {
    if (PREPOSITIONS.has(w)) break;
    if (phrase.length === 0 && (DETERMINERS.has(w) || w === "up" || w === "down")) continue;
    phrase.push(w);
  }
  const head = (phrase.at(-1) ?? "").replace(/'s?$/, "");
  if (
    head.length < 3 ||
    /^(?:it|them|him|her|here|there|around|about|everything|something|stairs?)$/.test(head) ||
    // "examine myself" was "There is no myself here to examine.": one's self is always here.
    /^(?:me|myself|yourself|himself|herself|ourselves|yourselves|themselves|itself)$/.test(head)
  )
    return null;
  const scene = new Set(sceneText.toLowerCase().match(/[a-z]{3,}/g) ?? []);
  for (const w of scene) if (head.startsWith(w) || w.startsWith(head.replace(/(?:es|s)$/, ""))) return null;
  return `There ${looksPlural(head) ? "are" : "is"} no ${head} here to ${verb}.`;
}

/** Nouns ending in s that are one thing (the rest ending in a lone s are read as many: rocks, keys). */
const SINGULAR_IN_S = new Set([
  "lens",
  "canvas",
  "atlas",
  "gas",
  "bias",
  "chaos",
  "iris",
  "news",
  "series",
  "bus",
]);

/** Whether a noun as typed names several things: "rocks", "barrels", not "glass", "compass" or "lens". */
function looksPlural(noun: string): boolean {
  return /[^su']s$/.test(noun) && !SINGULAR_IN_S.has(noun);
}

/** Words after which a social act names its topic, not the one it is aimed at. */
const TOPIC_WORDS = new Set(
  "about regarding concerning of for where why what how who whether if me us".split(" "),
);

/** Words of an NPC's name that a player would type for them ("Mara", "Venn", "Widow"), lower case. */
function nameWords(name: string): string[] {
  return (name.toLowerCase().match(/[a-z'-]+/g) ?? []).filter(isNameWord);
}

function isNameWord(word: string): boolean {
  return word.length >= 3 && word !== "the";
}

/**
 * "talk to Mara" on the pier, where Mara is not: a social act aimed at someone of the world who is
 * not in the scene is not told as happening (issue 14: "every NPC narrated as present is present").
 * Returns "Mara Venn is not here." or null (no one named, or someone named is here).
 */
export function absentPersonLine(action: string, present: string[], everyone: string[]): string | null {
  const { words, start } = actWords(action);
  const verb = words[start] ?? "";
  // "go to Slade" from the lighthouse was told as "You go to Slade.": going to someone is seeking them.
  const toward = TRAVEL_VERBS.has(verb) ? towardPerson(words, start + 1) : -1;
  if (!hasRoot(SOCIAL, verb) && toward === -1) return null;
  const from = toward === -1 ? start + 1 : toward;
  const all = words.slice(from).map(withoutPossessive);
  for (const name of present) if (namedIn(all, name)) return null;
  // Only the one spoken to counts: "ask about Mara", "tell me where Slade is" ask after someone elsewhere.
  let topic = -1;
  for (let i = 0; i < all.length && topic === -1; i++) if (TOPIC_WORDS.has(all[i]!)) topic = i;
  const addressed = topic === -1 ? all : all.slice(0, topic);
  const absent: string[] = [];
  for (const name of everyone) if (!present.includes(name) && namedIn(addressed, name)) absent.push(name);
  // "ask Mara Venn's friend Orla": the owner of a possessive is not the one spoken to, when another is named.
  const raw = words.slice(from, from + addressed.length);
  let spoken = absent[0];
  if (absent.length > 1)
    for (const name of absent)
      if (!ownsPossessive(raw, addressed, name)) {
        spoken = name;
        break;
      }
  return spoken === undefined ? null : `${spoken} is not here.`;
}

function withoutPossessive(word: string): string {
  return word.replace(/'s?$/, "");
}

/** Whether a word of the name is among the words said. */
function namedIn(said: readonly string[], name: string): boolean {
  for (const w of nameWords(name)) if (said.includes(w)) return true;
  return false;
}

/** Whether the name is the owner of a possessive among the words ("Mara Venn's friend"). */
function ownsPossessive(raw: readonly string[], addressed: readonly string[], name: string): boolean {
  for (let i = 0; i < raw.length; i++)
    if (/'s?$/.test(raw[i]!) && nameWords(name).includes(addressed[i]!)) return true;
  return false;
}

/** Verbs that speak to a hearer named right after them ("ask the gull about ..."). */
const ASKING = new Set("ask asks question questions".split(" "));
/** Verbs that speak to a hearer after "to" or "with" ("talk to the gull"). */
const TALKING = new Set("talk talks speak speaks chat chats".split(" "));
const ARTICLES = new Set("the a an that this".split(" "));
/** Words that end the hearer's name: what is asked, or a word of a new clause. */
const AFTER_HEARER = new Set([...TOPIC_WORDS, "and", "but", "then", "to", "with", "again"]);
/** People the world names by what they are ("the ferryman", "the old sailor", "the crew"). */
const PERSON_NOUNS = new Set(
  "child children kid kids ghost ghosts spirit spirits god gods saint crew captain soldier soldiers monk monks nun nuns chief king queen prince princess lord lords knight friend friends elder elders widow orphan thief thieves witch wizard mage drunk drunks regular regulars host folks patron patrons boss landlady".split(
    " ",
  ),
);

/**
 * "ask the gull about the lighthouse", "talk to the cat": a social act aimed at a thing or an animal
 * (no one of the world, no word for a person) was echoed as if it were done. Returns the hearer as
 * it reads after "but" ("the gull"), or null. A hearer that may be a person by its ending ("the
 * ferryman", "the sailor", "the merchant") is left to the echo.
 */
export function addressedThing(action: string, everyone: readonly string[]): string | null {
  const { words, start } = actWords(action);
  const verb = words[start] ?? "";
  let at = start + 1;
  if (TALKING.has(verb)) {
    if (words[at] !== "to" && words[at] !== "with") return null;
    at++;
  } else if (!ASKING.has(verb)) return null;
  if (!ARTICLES.has(words[at] ?? "")) return null;
  const hearer: string[] = [];
  for (const w of words.slice(at + 1)) {
    if (AFTER_HEARER.has(w) || ARTICLES.has(w)) break;
    hearer.push(w);
  }
  const end = at + 1 + hearer.length;
  // "ask the gull" alone may ask for the gull: only "ask the gull about ..." speaks to it.
  if (ASKING.has(verb) && !TOPIC_WORDS.has(words[end] ?? "")) return null;
  const head = hearer.at(-1) ?? "";
  if (head.length < 3 || hearer.some((w) => PERSON_WORDS.has(w) || PERSON_NOUNS.has(w))) return null;
  if (/(?:man|men|er|ers|or|ors|ess|ist|ists|ian|ians|ant|ants|ent|ents|ee|ees)$/.test(head)) return null;
  const names = new Set(everyone.flatMap(nameWords));
  if (hearer.some((w) => names.has(w.replace(/'s?$/, "")))) return null;
  return `the ${hearer.join(" ")}`;
}

/** Where the one gone to starts after a travel verb ("go to", "walk over to", "run up to"), or -1. */
function towardPerson(words: readonly string[], at: number): number {
  let i = at;
  if (words[i] === "over" || words[i] === "up" || words[i] === "back") i++;
  return words[i] === "to" || words[i] === "toward" || words[i] === "towards" ? i + 1 : -1;
}

/** An action's lower-case words, and where its verb is ("I read the logbook": after the "I"). */
function actWords(action: string): { words: string[]; start: number } {
  const words =
    action
      .toLowerCase()
      .replace(/[’]/g, "'")
      .match(/[a-z'-]+/g) ?? [];
  return { words, start: words[0] === "i" || words[0] === "we" ? 1 : 0 };
}

/** Acts of violence against someone (roots): with nothing of the world answering, the target reacts. */
const HOSTILE = new Set(
  "punch hit strike slap kick attack stab shove push kill murder strangle choke shoot bite headbutt elbow smack beat assault tackle throttle wrestle trip spit".split(
    " ",
  ),
);

/** How someone meets a blow the world's rules did not carry out (never a wound: the game decides those). */
const REACTIONS = [
  (who: string) => `${who} sees it coming and steps back out of reach. The room goes very quiet.`,
  (who: string) => `${who} twists aside; the blow meets air, and every eye in the place is on you now.`,
  (who: string) => `${who} catches your arm before it lands, holds it a moment, and lets it go, eyes hard.`,
  (who: string) => `${who} is quicker than you thought: the blow glances off, and ${who} does not look away.`,
];

/**
 * "punch Slade in the face" where Corvin Slade stands and no rule answered it: told as tried, with his
 * reaction ("You try to punch Corvin Slade in the face. Corvin Slade sees it coming ..."); null when
 * the act is no violence against someone present.
 */
export function reactionLine(
  action: string,
  echoed: string,
  present: readonly string[],
  key: string,
): string | null {
  if (!/^You [a-z]/.test(echoed) || echoed.startsWith("You say:")) return null;
  if (!HOSTILE.has(verbRoot(leadingVerb(action.trim())))) return null;
  const words = new Set(action.toLowerCase().match(/[\p{L}]+/gu) ?? []);
  const target = present.find((name) =>
    name
      .toLowerCase()
      .split(/\s+/)
      .some((w) => w.length >= 3 && words.has(w)),
  );
  if (target === undefined) return null;
  const act = echoed.slice(4).replace(/[.!]+$/, "");
  return `You try to ${act}. ${pickStable(REACTIONS, key)(target)}`;
}

/** Whether a word list written as roots holds the word, in any of its forms ("takes" in "take"). */
function hasRoot(roots: ReadonlySet<string>, word: string): boolean {
  return roots.has(word) || roots.has(verbRoot(word));
}
