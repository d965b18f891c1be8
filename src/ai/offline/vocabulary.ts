import type { Intent } from "../../engine/ports.ts";
import { verbForms } from "./lexicon.ts";
import { compile, type Pattern } from "./patterns.ts";

/**
 * The vocabulary of the offline intent rules (intent.ts): every word list and
 * phrase pattern, in the pattern language of patterns.ts. docs/offline.md
 * lists them rule by rule.
 */

/** Movement verbs, every form -> its base (used by the narration to echo the player's verb). */
export const MOVE_VERBS: ReadonlyMap<string, string> = (() => {
  // Roots only: their forms come from the lexicon ("walks walking walked"), plus the few it lacks.
  const roots =
    "walk go head travel ride sail run return climb enter journey hike march wander stroll hurry rush proceed move descend ascend cross row jog sprint dash trek venture step come leave exit swim fly wade scramble crawl sneak creep slip visit approach drive paddle backtrack";
  const extra: Record<string, string> = {
    travel: "traveling traveled",
    row: "rowed",
    trek: "trekked",
    sneak: "sneaked",
  };
  const map = new Map<string, string>();
  for (const root of roots.split(" ")) {
    map.set(root, root);
    for (const form of [...verbForms(root), ...(extra[root]?.split(" ") ?? [])]) map.set(form, root);
  }
  return map;
})();

/** Verbs whose object is where the party comes FROM ("leave the tavern"). */
export const ORIGIN_VERBS = new Set(["leave", "exit"]);
/** Words right before a place that make it an origin, not a destination ("from", "out of", "past"). */
export const ORIGIN_WORDS = new Set([
  "from",
  "past",
  "behind",
  "leaving",
  "leave",
  "leaves",
  "left",
  "exit",
  "exiting",
]);
export const SKIP_BEFORE_PLACE = new Set(["the", "a", "an", "this", "that"]);

/** Words that make a clause talk about travel rather than travel (before the verb, same clause). */
export const TALK_CUES = new Set(
  "wonder wonders wondering how where whether if about think thinks thinking consider considering imagine imagining remember remembering dream dreaming ask asks asking tell tells telling describe explain hear heard".split(
    " ",
  ),
);
/** A clause opening with one of these is a question, even without "?". */
export const QUESTION_OPENERS = new Set(
  "how where what which why when whether should could would can shall is are do does did may might".split(
    " ",
  ),
);

const p = (...sources: string[]): Pattern[] => sources.map(compile);

export const FAST_TRAVEL = p("fast travel*", "fasttravel*", "quick travel*");
export const TELEPORT = p("teleport*");
export const BLINK = p("blink|blinks|blinking|blinked to|into|away|across|over|back");

/** Combat rules, in the order they are tried (the more specific first). */
export const COMBAT: { intent: Intent; patterns: Pattern[] }[] = [
  {
    intent: "preventAttack",
    patterns: p(
      "stop|stops|stopping|keep|keeps ~3 from attacking|hitting|hurting|fighting|striking|killing|stabbing|shooting",
      "stop|stops|stopping ~3 attacking|hitting|hurting|fighting|striking|killing|stabbing|shooting|attack|fight",
      "break|breaks ~1 up ~2 fight|fighting|brawl|scuffle",
      "prevent|prevents|preventing",
      "intervene|intervenes|intervening",
      "hold|holds|pull|pulls|drag|drags ~2 back|off|apart",
      "step|steps|stand|stands|get|gets|jump|jumps ~1 between",
      "call|calls ~1 off ~2 attack|fight",
    ),
  },
  {
    intent: "mockAttack",
    patterns: p(
      "spar|spars|sparring|sparred",
      "feint|feints|feinting|feinted",
      "mock ~1 attack*|fight*|duel*|combat|battle",
      "play|playful ~1 fight*",
      "practice|practise|practices|practises|practicing|practising ~2 fight*|swordplay|combat|sparring|duel*|blows|fencing",
      "friendly ~1 duel*|bout|match|fight",
      "pretend|pretends ~2 attack|strike|hit|fight|punch",
    ),
  },
  {
    intent: "subdue",
    patterns: p(
      "knock|knocks|knocking ~3 out|unconscious|senseless|cold",
      "restrain|restrains|restraining|restrained",
      "grapple|grapples|grappling|grappled",
      "subdue|subdues|subduing|subdued",
      "pin|pins|pinning ~3 down",
      "tie|ties|tying ~3 up",
      "wrestle|wrestles|wrestling",
      "disarm|disarms|disarming",
      "tackle|tackles|tackling",
      "choke|chokes ~3 out",
      "hold|holds ~3 down",
      "capture|captures|capturing|apprehend|apprehends|overpower|overpowers",
      "put ~2 in|into ~1 headlock|chokehold",
    ),
  },
  {
    intent: "attack",
    patterns: p(
      "attack|attacks|attacking",
      "strike|strikes|striking|stab|stabs|stabbing|hit|hits|hitting|punch|punches|punching",
      "kick|kicks|kicking|slash|slashes|slashing|shoot|shoots|shooting|fight|fights|fighting",
      "kill|kills|killing|murder|murders|smite|smites|bash|bashes|assault|assaults|ambush|ambushes",
      "lunge|lunges|lunging|charge|charges ~1 at",
      "swing|swings|fire|fires|throw|throws ~3 at",
      "cut|cuts ~1 down",
      "draw|draws ~2 sword|blade|knife|dagger|weapon|steel|bow|pistol",
    ),
  },
  {
    intent: "evade",
    patterns: p(
      "dodge|dodges|dodging|flee|flees|fleeing|hide|hides|hiding",
      "duck|ducks|ducking|sidestep|sidesteps|evade|evades|evading|escape|escapes|escaping",
      "run|runs|get|gets|back|backs|slip|slips ~1 away",
      "retreat|retreats|retreating",
      "take|takes ~1 cover",
      "roll|rolls|jump|jumps|leap|leaps|throw|throws ~1 aside|clear",
    ),
  },
  {
    intent: "defend",
    patterns: p(
      "block|blocks|blocking|guard|guards|guarding|brace|braces|bracing",
      "parry|parries|parrying|defend|defends|defending|shield|shields|shielding",
      "protect|protects|protecting",
      "raise|raises ~2 shield|guard",
      "stand|stands|hold|holds ~1 guard|ground",
    ),
  },
  {
    intent: "heal",
    patterns: p(
      "heal|heals|healing|bandage|bandages|bandaging",
      "tend|tends|tending ~3 to|wound*|injur*|hurt|sick|wounded",
      "patch|patches ~3 up",
      "treat|treats|bind|binds|stitch|stitches|sew|sews|clean|cleans|dress|dresses ~3 wound*|injur*|cut|cuts|burn|burns",
      "nurse|nurses|nursing|cure|cures|curing|mend|mends ~3 wound*|injur*",
      "first aid",
      "give|gives|apply|applies ~3 potion|medicine|remedy|poultice|salve|herbs|bandage*",
    ),
  },
  {
    intent: "buff",
    patterns: p(
      "bless|blesses|blessing|inspire|inspires|inspiring|strengthen|strengthens|strengthening",
      "encourage|encourages|encouraging|rally|rallies|rallying|embolden|emboldens|hearten|heartens",
      "empower|empowers|fortify|fortifies|bolster|bolsters|boost|boosts",
      "pray|prays ~1 for",
    ),
  },
];

export const ACCEPT_STRONG = p(
  "accept|accepts|accepting ~3 quest*|job*|task*|offer*|request*|commission*|work|mission*|errand*|contract*|bounty|challenge|plea",
  "take|takes|taking ~1 on ~3 quest*|job*|task*|mission*|errand*|contract*|bounty|work|challenge",
  "take|takes|taking ~3 quest*|job*|task*|mission*|errand*|contract*|bounty",
);
export const ACCEPT_WEAK = p(
  "accept|accepts|accepting|accepted it|that|this|gladly|happily|then|yes",
  "agree|agrees|agreeing ~2 to ~1 help|do|find|take",
  "i|we will help",
  "i|we will do ~1 it",
  "ill|well help",
  "ill|well do ~1 it",
  "count ~1 me|us in",
);
/** "I accept." / "accept" alone at the end of a clause. */
export const ACCEPT_ALONE = compile("accept|accepts|accepting|accepted");

export const SOCIAL_VERBS = p(
  "talk*|speak*|spoke|ask|asks|asked|asking|greet*|confront*|chat|chats|chatting|question|questions|questioning|interrogat*",
  "tell|tells|telling|told|thank|thanks|thanking|bargain*|haggl*|persuad*|convinc*|threaten*|flirt*",
  "apologi*|introduce|introduces|call|calls|wave|waves|say|says|said|shout|shouts|whisper*|approach*",
  "answer|answers|reply|replies|plead|pleads|beg|begs|bribe|bribes|console|consoles|comfort|comforts",
  "demand|demands|demanded|demanding|insist|insists|implore|implores|urge|urges|request|requests",
  "meet|meets|negotiate*|insult*|joke|jokes|mention*|inquire*|enquire*|trade|trades|buy|buys|sell|sells|barter*",
  "chat ~1 with|up",
  "hail|hails|salute|salutes|nod|nods ~1 to|at",
);
/** Words that stand for someone (not a name): "talk to her", "ask the barkeep". */
export const PERSON_WORDS = new Set(
  "him her them he she they woman man women men stranger strangers barkeep bartender innkeeper keeper sister brother guard guards fisher fishers fisherman fishermen people someone somebody everyone everybody local locals folk townsfolk crowd moneylender girl boy lady gentleman sir madam merchant sailor sailors priest priestess old".split(
    " ",
  ),
);

export const READ_VERBS = p("read|reads|reading|peruse*|decipher*|skim|skims");
export const STUDY_VERBS = p(
  "study|studies|studying|examine*|inspect*|scan|scans|browse*|consult*|check|checks",
  "look|looks|looking ~1 at|over|through|into",
  "leaf|leafs|flip|flips|thumb|thumbs ~1 through",
  "open|opens|opening|unroll|unrolls|unfold|unfolds",
);
export const DOCUMENTS = new Set(
  "book logbook log letter note map sign journal diary ledger scroll page inscription notice poster chart record entry entrie tome manuscript register plaque writing word message document paper will contract deed epitaph rune carving tablet label list file report menu correspondence almanac newspaper bulletin edict proclamation warrant tally mark name verse prayer text recipe clue logbooks".split(
    " ",
  ),
);

export const SLEEP = p(
  "sleep|sleeps|sleeping|slept|rest|rests|resting|camp|camps|camping|nap|naps|napping|doze|dozes|dozing|snooze",
  "lie|lies|lay|lays ~1 down",
  "bed|beds ~1 down",
  "turn|turns in",
  "make|makes ~1 camp",
  "go|goes to ~1 bed|sleep",
  "retire|retires ~3 night",
  "call ~1 it ~1 night",
  "spend|spends ~2 night",
  "wait|waits until|till|for ~1 dawn|morning|daylight|daybreak",
  "get|gets|take|takes|have|has|grab|grabs|catch|catches ~2 rest|sleep|nap|shuteye|kip",
);

/** Verbs that only ever mean going somewhere (not "climb onto the bollard", "step to the window"). */
export const TRAVEL_VERBS = new Set([
  "walk",
  "go",
  "head",
  "travel",
  "ride",
  "sail",
  "run",
  "return",
  "journey",
  "hike",
  "march",
  "hurry",
  "proceed",
  "trek",
  "venture",
]);
