import type { Outcome } from "../../engine/ports.ts";
import { isKnownVerb } from "./attempt.ts";
import { thirdPerson } from "./lexicon.ts";
import { quoteSpans } from "./person.ts";
import type { NarrationInput } from "./request.ts";

/**
 * Who the offline narration speaks to (issue 34 item 2). Alone, a player is "you". In a party the
 * story names who does what, in the third person ("Isobel walks to the Gutted Eel; Ada follows."),
 * so every player can tell whose act a line tells; each such line is a segment with its actor.
 */
export interface Voice {
  /** True when several players share the game: nobody is "you". */
  party: boolean;
  /** A line written in the second person ("You try to ..."), told of the actor. */
  of(actor: string | null | undefined, line: string): string;
  /**
   * A line of the story told of nobody in particular (the world's text, the place, a quest's
   * news): as written alone; in a party, its "you" is the party ("She asks you to go east" ->
   * "She asks the party to go east"), so no line speaks to one reader as if alone.
   */
  all(line: string): string;
}

export function voiceOf(input: Pick<NarrationInput, "actions" | "outcomes" | "players">): Voice {
  const players = new Set(input.actions.map((a) => a.player).filter((p) => p !== ""));
  // A party game is one of several players, on every turn: a turn only one of them played too.
  const party =
    players.size > 1 ||
    new Set(input.players).size > 1 ||
    input.outcomes.some((o: Outcome) => o.type === "followed");
  return {
    party,
    of: (actor, line) => (party && actor ? aboutCharacter(line, actor) : line),
    all: (line) => (party ? aboutParty(line) : line),
  };
}

/** Second-person prose told of the whole party, each sentence opening with a capital. */
export function aboutParty(text: string): string {
  return aboutCharacter(text, "the party").replace(
    /(^|[.!?]["”’)]*\s+|\n\s*)the party\b/g,
    (_m, lead: string) => `${lead}The party`,
  );
}

/** Words after which "you" is the subject of a clause ("where you are", "but you see"). */
const CLAUSE_OPENERS = new Set(
  "and but or so yet then still now again where when while as if that because though although until before after than what how why who once".split(
    " ",
  ),
);
/** Adverbs that may stand between a subject and its verb ("you still try", "you cannot"). */
const BETWEEN = new Set("still also only already just again never even now then".split(" "));
const POSSESSIVES: Readonly<Record<string, string>> = {
  your: "their",
  yours: "theirs",
  yourself: "themselves",
  yourselves: "themselves",
};
const CONTRACTIONS: Readonly<Record<string, string>> = {
  "you're": "they're",
  "you've": "they've",
  "you'll": "they'll",
  "you'd": "they'd",
};

/**
 * Second-person prose told of a named character: the first subject "you" of each sentence becomes
 * the name and its verb agrees ("You try" -> "Wren tries"); a later subject "you" becomes "they",
 * an object "you" "them", "your" "their". Quotations (what someone says) are left as written.
 */
export function aboutCharacter(text: string, name: string): string {
  let named = false;
  // The name said anywhere yet: a text whose first "you" or "your" is no subject names them there
  // ("recognises the house in Ada's face"), never only "their" of someone the reader cannot tell.
  let namedOnce = false;
  return quoteSpans(text)
    .map((span) => {
      if (span.quoted) return span.text;
      const tokens = span.text.split(/(\s+)/);
      let previous = "";
      let beforePrevious = "";
      for (let i = 0; i < tokens.length; i++) {
        const token = tokens[i]!;
        if (/^\s*$/.test(token)) continue;
        const m = /^([\p{L}’']+)([^\p{L}’']*)$/u.exec(token);
        const word = m?.[1] ?? "";
        const lower = word.toLowerCase().replace(/’/g, "'");
        const tail = m?.[2] ?? "";
        if (lower === "you" || CONTRACTIONS[lower]) {
          const subject =
            previous === "" ||
            /[.!?:;,—–]$/.test(previous) ||
            CLAUSE_OPENERS.has(bare(previous)) ||
            // A sentence fronted by "once more" ("Once more you try"), as by "again" or "still".
            (bare(previous) === "more" && bare(beforePrevious) === "once");
          if (!subject) {
            tokens[i] =
              lower === "you" && !namedOnce
                ? `${name}${tail}`
                : `${lower === "you" ? "them" : CONTRACTIONS[lower]}${tail}`;
            if (lower === "you") namedOnce = true;
          } else if (!named && lower === "you" && tail === "") {
            tokens[i] = name;
            named = namedOnce = true;
            conjugateNext(tokens, i);
          } else tokens[i] = sameCase(word, CONTRACTIONS[lower] ?? "they") + tail;
        } else if (lower === "your" && !named && (previous === "" || !namedOnce)) {
          // "Your nerve is fraying" told of Ada: "Ada's nerve is fraying".
          tokens[i] = `${name}'s${tail}`;
          named = namedOnce = true;
        } else if (POSSESSIVES[lower]) tokens[i] = sameCase(word, POSSESSIVES[lower]!) + tail;
        beforePrevious = previous;
        previous = token;
        // A sentence ends: its first "you" is the name again.
        if (/[.!?]["”’)]*$/.test(token)) named = false;
      }
      return tokens.join("");
    })
    .join("");
}

/**
 * The verb after the new subject agrees with it ("Wren tries"), past an adverb ("Wren still tries"),
 * and so does a verb the same subject goes on with ("stays here and waits"), up to the clause's end.
 */
function conjugateNext(tokens: string[], at: number): void {
  let j = at + 2;
  for (; j < tokens.length; j += 2) {
    const m = /^([a-z]+)(.*)$/.exec(tokens[j]!);
    if (!m) return;
    if (BETWEEN.has(m[1]!)) continue;
    if (m[1] === "cannot") return;
    tokens[j] = `${thirdPerson(m[1]!)}${m[2]}`;
    break;
  }
  for (j += 2; j + 2 < tokens.length; j += 2) {
    if (/[.!?;:,]$/.test(tokens[j]!)) return;
    const next = /^([a-z]+)(.*)$/.exec(tokens[j + 2]!);
    if (/^(?:and|then)$/.test(tokens[j]!) && next && isKnownVerb(next[1]!)) {
      tokens[j + 2] = `${thirdPerson(next[1]!)}${next[2]}`;
      j += 2;
    }
  }
}

function bare(token: string): string {
  return token.toLowerCase().replace(/[^\p{L}']/gu, "");
}

function sameCase(model: string, word: string): string {
  return /^\p{Lu}/u.test(model) ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}
