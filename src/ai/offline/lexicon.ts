import nlp from "compromise";

/**
 * The offline narrator's one English lexicon (issue 34): verb forms come from compromise's model,
 * not from hand-written suffix rules. Only its conjugation tables are used, never a full parse (a
 * parse costs milliseconds per sentence; a lookup microseconds), and every answer is memoised.
 */

interface VerbForms {
  Infinitive?: string;
  PresentTense?: string;
  PastTense?: string;
  Gerund?: string;
  Participle?: string;
}

type Conjugate = (root: string, model: unknown) => VerbForms;
type ToInfinitive = (word: string, model: unknown, tense?: string) => string;

const world = nlp.world() as unknown as {
  model: { one: { lexicon: Record<string, string | undefined> } };
  methods: { two: { transform: { verb: { conjugate: Conjugate; toInfinitive: ToInfinitive } } } };
};
const VERB = world.methods.two.transform.verb;

/** Forms the tables do not answer as a narrator needs: "be" and the modals, which take no -s. */
const BE_THIRD: Readonly<Record<string, string>> = { be: "is", am: "is", are: "is", were: "was" };
const BE_PLURAL: Readonly<Record<string, string>> = { is: "are", was: "were", am: "are" };
const MODALS = new Set("can could may might must shall should will would ought".split(" "));
const MEMO_LIMIT = 5000;

function memo<T>(fn: (word: string) => T): (word: string) => T {
  const seen = new Map<string, T>();
  return (word) => {
    let answer = seen.get(word);
    if (answer === undefined) {
      answer = fn(word);
      if (seen.size >= MEMO_LIMIT) seen.clear();
      seen.set(word, answer);
    }
    return answer;
  };
}

/** The root of a verb form, lower case: "tries" -> "try", "walked" -> "walk", "has" -> "have". */
export const verbRoot = memo((word: string): string => {
  const lower = word.toLowerCase();
  if (MODALS.has(lower) || !/^[a-z]+$/.test(lower)) return lower;
  if (lower in BE_PLURAL || lower === "are" || lower === "be" || lower === "were") return "be";
  const tense = /ed$/.test(lower) ? "PastTense" : /[^s]s$/.test(lower) ? "PresentTense" : undefined;
  if (tense === undefined) return lower;
  return VERB.toInfinitive(lower, world.model, tense) || lower;
});

/** The third person singular present of a root, in the case of the word given: "Try" -> "Tries". */
export const thirdPerson = memo((word: string): string => {
  const lower = word.toLowerCase();
  const third =
    BE_THIRD[lower] ??
    (MODALS.has(lower) ? lower : (VERB.conjugate(lower, world.model).PresentTense ?? `${lower}s`));
  return sameCase(word, third);
});

/** A third person singular verb made plural: "knows" -> "know", "is" -> "are", "has" -> "have". */
export const plural = memo((word: string): string => {
  const lower = word.toLowerCase();
  const be = BE_PLURAL[lower];
  if (be) return sameCase(word, be);
  if (!/^[a-z]+[^s]s$/.test(lower) && !/^[a-z]+(?:ss|sh|ch|x|z)es$/.test(lower)) return word;
  return sameCase(word, verbRoot(lower));
});

function sameCase(model: string, word: string): string {
  return /^\p{Lu}/u.test(model) ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

const VERB_TAGS = new Set(["Infinitive", "PresentTense", "PastTense", "Gerund", "PhrasalVerb"]);

/** Whether the lexicon knows the word as a verb ("conjure", "juggles"), not only as a noun or a name. */
export const isVerb = memo((word: string): boolean => {
  const root = verbRoot(word);
  return (
    VERB_TAGS.has(world.model.one.lexicon[root] ?? "") ||
    VERB_TAGS.has(world.model.one.lexicon[word.toLowerCase()] ?? "")
  );
});

/** Every form of a verb root the lexicon knows: "go" -> goes, went, going, gone. */
export function verbForms(root: string): string[] {
  const f = VERB.conjugate(root, world.model);
  return [f.PresentTense, f.PastTense, f.Gerund, f.Participle].filter(
    (form): form is string => typeof form === "string" && /^[a-z]+$/.test(form),
  );
}
