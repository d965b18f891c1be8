import type { JudgeVerdict } from "../../engine/ports.ts";
import { contentWords, coverage } from "../../engine/relevance.ts";
import { NameIndex } from "./names.ts";
import { findFirst, negated } from "./patterns.ts";
import {
  type Alternative,
  alternativePasses,
  alternativesOf,
  canonicalWords,
  nounCoverage,
  sharesWord,
} from "./phrasing.ts";
import type { JudgeInput } from "./request.ts";
import { stem, stemmedWords, stems, type Token, tokenize } from "./text.ts";
import { DOCUMENTS, STUDY_VERBS } from "./vocabulary.ts";

/**
 * AI-judged conditions, offline: lexical similarity. A question passes when
 * the text covers at least JUDGE_THRESHOLD of the query's content words
 * (relevance.ts contentWords, stemmed by text.ts stem(), minus the generic
 * words below), and, for an action question, no query word of the action is
 * negated ("I don't read the logbook").
 *
 * Story questions are judged against `storyText`, action questions against
 * each player's action. Credited players (`players`, for scope-player
 * triggers): for an action question, the players whose own action passes;
 * for a story question, the players the story names (full name or a word of
 * it), or every player when it names none.
 *
 * Why 0.75: the authored queries of the example world are phrased for a
 * lexical judge ("Does the player read the keeper's logbook?" -> read,
 * keeper, logbook) and pass at 1.0 with the obvious command; a command that
 * drops one of three words ("read the logbook": 2/3) fails, and so does a text
 * that merely shares half of the words ("Corvin Slade threatens the player or
 * their friends" against a story naming Slade: 2/4). One missing word in four
 * is tolerated (3/4), one in three is not. test/ai/offline-judge.test.ts keeps
 * these cases.
 */

export const JUDGE_THRESHOLD = 0.75;

/** Words of a query that say who, not what. */
const GENERIC_WORDS = new Set(
  "player party character group someone something anyone anything everyone their them they his her him she has have had any one ever now currently".split(
    " ",
  ),
);

export function queryWords(query: string): Set<string> {
  const words: string[] = [];
  for (const w of contentWords(query)) if (!GENERIC_WORDS.has(w)) words.push(w);
  return stems(words);
}

interface ReadAction {
  player: string;
  words: Set<string>;
  /** Canonical words (phrasing.ts): stems with synonyms folded. */
  canonical: Set<string>;
  tokens: ReturnType<typeof tokenize>;
}

interface ReadQuery {
  words: Set<string>;
  alternatives: Alternative[];
}

function readQuery(query: string): ReadQuery {
  return { words: queryWords(query), alternatives: alternativesOf(query) };
}

/**
 * An action does what the query asks when it covers JUDGE_THRESHOLD of the
 * query's words, or when it does the act of one of the query's alternatives
 * (phrasing.ts: the verb or a synonym, and the nouns weighted by head noun).
 * A negated query word, verb or synonym fails it ("I don't read the logbook").
 */
function actionPasses(query: ReadQuery, action: ReadAction): boolean {
  const lexical = coverage(query.words, action.words) >= JUDGE_THRESHOLD && doesAnAct(query, action);
  if (!lexical && !query.alternatives.some((a) => alternativePasses(a, action.canonical))) return false;
  const asked = new Set([
    ...query.words,
    ...query.alternatives.flatMap((a) => [...a.verbs, ...a.nouns.keys()]),
  ]);
  return !action.tokens.some(
    (t, i) => (asked.has(stem(t.fold)) || asked.has(canonicalOf(t.fold))) && negated(action.tokens, i),
  );
}

/**
 * Word coverage alone does not pass an action that does another act: when
 * every alternative of the query names an act, the action must do one of them
 * ("steal the star chart from the trader" shares three of four words with "buy
 * the star chart from the trader", but it is not buying).
 */
function doesAnAct(query: ReadQuery, action: ReadAction): boolean {
  if (query.alternatives.length === 0) return true;
  return query.alternatives.some((a) => a.verbs.size === 0 || sharesWord(a.verbs, action.canonical));
}

/**
 * "look at the book", "examine the logbook", "open the journal": looking at a
 * document is reading it, as the intent classifier (intent.ts rule 8) and so
 * the narrator take it (the logbook's pages are shown). The judge adds the act
 * "read" so that it agrees (issue 14); the nouns must still match the query.
 */
function withReading(canonical: Set<string>, tokens: Token[]): Set<string> {
  const study = findFirst(STUDY_VERBS, tokens);
  if (
    study &&
    tokens.some(
      (t, k) => k > study.start && t.clause === tokens[study.start]!.clause && DOCUMENTS.has(t.fold),
    )
  )
    canonical.add("read");
  return canonical;
}

function canonicalOf(word: string): string {
  return [...canonicalWords(word)].at(-1) ?? word;
}

/** Story text passes on coverage, or on an alternative with its act and at least STORY_NOUNS of its nouns (stricter: a story has many words). */
const STORY_NOUNS = 0.75;

function storyPasses(query: ReadQuery, words: Set<string>, canonical: Set<string>): boolean {
  if (coverage(query.words, words) >= JUDGE_THRESHOLD) return true;
  for (const a of query.alternatives)
    if (
      a.verbs.size > 0 &&
      a.nouns.size > 0 &&
      sharesWord(a.verbs, canonical) &&
      nounCoverage(a, canonical) >= STORY_NOUNS
    )
      return true;
  return false;
}

export function judgeAll(input: JudgeInput): JudgeVerdict[] {
  // Each text is read once, however many questions there are.
  const storyWords = stemmedWords(input.storyText);
  let storyCanonical: Set<string> | null = null;
  const actions: ReadAction[] = input.actions.map((a) => {
    const tokens = tokenize(a.text);
    return {
      player: a.player,
      words: stemmedWords(a.text),
      canonical: withReading(canonicalWords(a.text.slice(0, 4000)), tokens),
      tokens,
    };
  });
  let named: string[] | null = null;
  const storyPlayers = () => {
    if (named === null) {
      const index = new NameIndex(
        input.players.map((name) => ({ name, kind: "player" })),
        "any",
      );
      const found = new Set(index.match(tokenize(input.storyText, 100_000)).map((m) => m.name));
      named = input.players.filter((p) => found.has(p));
      if (named.length === 0) named = [...input.players];
    }
    return named;
  };
  return input.questions.map((question) => {
    const query = readQuery(question.query);
    const base = { trigger: question.trigger, conditionIndex: question.conditionIndex };
    if (question.kind === "story") {
      storyCanonical ??= canonicalWords(input.storyText);
      const passed = storyPasses(query, storyWords, storyCanonical);
      return passed ? { ...base, passed, players: storyPlayers() } : { ...base, passed, players: [] };
    }
    const passing = new Set<string>();
    for (const a of actions) if (actionPasses(query, a)) passing.add(a.player);
    const players = [...passing];
    return { ...base, passed: players.length > 0, players: players.filter((p) => p !== "") };
  });
}
