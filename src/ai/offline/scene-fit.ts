import { hasWholeWord } from "../../world/whole-word.ts";
import { quoteSpans } from "./person.ts";
import { sentences } from "./text.ts";

/**
 * A `story` instruction is deferred (spec 2.2): it was written by a trigger
 * of an earlier phase, often at another place, and is told in the next
 * narration, wherever the party is by then. The offline narrator cannot
 * rewrite a scene, so it checks each sentence of the rendered instruction
 * against the scene it would be told in:
 *
 * - a sentence that names an NPC who is not here is told as something the
 *   party learned or remembers when it already reads so ("You now know ...",
 *   "Word comes ...", "... stay with you"), as remembered words when it
 *   quotes them ("You remember Mara Venn's words: '...'"), else dropped;
 * - when the party moved this turn, a sentence that names another location
 *   or an area elsewhere ("the Gutted Eel is loud tonight", "in the Bone
 *   Chamber the water rises") is dropped, unless it reads as knowledge;
 * - after a dropped sentence, the sentences of the same instruction that go
 *   on about it (a pronoun, or no name of their own) are dropped too.
 *
 * What is dropped is returned, so the trace can say so (a narration notice).
 */

export interface SceneNames {
  /** Every NPC of the world. */
  npcNames: readonly string[];
  /** The NPCs present, and the party's members. */
  here: readonly string[];
  /** Every location of the world, with its areas. */
  locationAreas: ReadonlyMap<string, readonly string[]>;
  location: string;
  area: string;
  /** The party moved (travelled, moved between areas, was placed) this turn. */
  moved: boolean;
}

export interface Fitted {
  text: string;
  /** Why sentences were left out: "names Corvin Slade, who is not here". */
  dropped: string[];
}

/** Sentences that tell what the party knows, heard or remembers: true wherever the party is. */
const KNOWLEDGE =
  /\b(?:you|the party)\s+(?:now\s+|already\s+|still\s+)?(?:know|knows|learn|learns|learned|remember|remembers|heard|hear|hears|have heard|has heard|recall|recalls)\b|\bwords? (?:comes?|reaches?|reached|spreads?|has reached|of)\b|\brumou?rs?\b|\bthe talk\b|\bstays? with (?:you|the party)\b|\byou have heard\b|\bnews\b/i;
const CONTINUES = /^(?:he|she|they|his|her|their|it|its|there|then)\b/i;

export function fitToScene(prose: string, scene: SceneNames): Fitted {
  if (prose === "") return { text: "", dropped: [] };
  const kept: string[] = [];
  const dropped: string[] = [];
  let droppedBefore = false;
  for (const sentence of sentences(prose)) {
    const knowledge = KNOWLEDGE.test(sentence);
    const absent = knowledge ? null : absentNpc(sentence, scene);
    if (absent) {
      const quote = quoted(sentence);
      if (quote && !droppedBefore) {
        kept.push(`You remember ${absent.replace(/^The /, "the ")}'s words: ${quote}`);
        continue;
      }
      dropped.push(`names ${absent}, who is not here`);
      droppedBefore = true;
      continue;
    }
    const place = knowledge || !scene.moved ? null : otherPlace(sentence, scene);
    if (place) {
      dropped.push(`is set at ${place}, where the party no longer is`);
      droppedBefore = true;
      continue;
    }
    if (droppedBefore && !knowledge && (CONTINUES.test(sentence) || !namesAnything(sentence, scene))) {
      dropped.push("goes on about a sentence left out");
      continue;
    }
    droppedBefore = false;
    kept.push(sentence);
  }
  return { text: kept.join(" "), dropped };
}

/** The longest name a pattern is built from; a longer one is no one's name in prose. */
const NAME_PATTERN_MAX = 200;

/** Whole-word, case-sensitive: "Slade" but not "SLADE & CO." nor "slade". */
function mentions(text: string, word: string): boolean {
  return hasWholeWord(text, word);
}

/** The words that name an NPC on their own: the full name, and its first and last words of 4+ letters. */
function nameForms(name: string): string[] {
  const words = name.split(/\s+/).filter((w) => w.length >= 4 && /^\p{Lu}/u.test(w));
  const forms = [name];
  if (words.length >= 2) forms.push(words[0]!, words.at(-1)!);
  return forms;
}

function absentNpc(sentence: string, scene: SceneNames): string | null {
  const plain = outsideQuotes(sentence);
  const here = new Set(scene.here);
  const hereForms = new Set(scene.here.flatMap(nameForms));
  for (const name of scene.npcNames) {
    if (here.has(name)) continue;
    // A word shared with someone here (a family name) names them, not the absent one.
    for (const form of nameForms(name)) if (!hereForms.has(form) && acts(plain, form)) return name;
  }
  return null;
}

/**
 * Is the NPC the subject of something happening now ("Corvin Slade slides the
 * key", "Mara Venn, the keeper's daughter, is asking", "Sister Orla rehangs
 * the clapper")? A name as a topic ("Ansel borrowed forty silver from Corvin
 * Slade") is not: a past fact holds wherever it is told.
 */
function acts(text: string, form: string): boolean {
  // A pattern is built from the name below: only for a name the text holds, and of a name's length.
  if (form.length > NAME_PATTERN_MAX || !text.includes(form)) return false;
  const name = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const subject = `(?:^|[;:]\\s+|,\\s+(?:and|but|while)\\s+|\\band\\s+)(?:(?:Sister|Brother|Old|Master|Mistress|Captain|Mother|Father)\\s+)?${name}(?:\\s+\\p{Lu}\\p{L}+)?(?:,[^,]{1,80},)?`;
  const verb =
    "\\s+(?:(?:already|still|now|just|suddenly|quietly|softly|slowly|never|always)\\s+)?(?:is|are|has|\\p{Ll}+s)\\b";
  return new RegExp(subject + verb, "u").test(text);
}

function otherPlace(sentence: string, scene: SceneNames): string | null {
  const plain = outsideQuotes(sentence);
  const hereAreas = new Set(scene.locationAreas.get(scene.location) ?? []);
  const hereHeads = new Set([...hereAreas].map(head));
  for (const [location, areas] of scene.locationAreas) {
    if (location !== scene.location && mentionsPlace(plain, location.replace(/^The\s+/, ""))) return location;
    for (const area of areas) {
      if (area === scene.area || hereAreas.has(area)) continue;
      if (mentionsPlace(plain, area)) return area;
      // "the chamber" for the Bone Chamber, unless an area here has that head word.
      const word = head(area);
      if (word.length >= 5 && !hereHeads.has(word) && new RegExp(`\\bthe ${word}\\b`, "i").test(plain))
        return area;
    }
  }
  return null;
}

/**
 * A place named in a sentence: as the world spells it, or a name of two words or more in any case
 * ("In the lamp room the keeper's logbook lies open", told at the Gutted Eel, names the Lamp Room).
 * A one-word name only as spelled: "the stairwell" of the temple is not the lighthouse's Stairwell.
 */
function mentionsPlace(text: string, name: string): boolean {
  if (mentions(text, name)) return true;
  return /\s/.test(name.trim()) && hasWholeWord(text.toLowerCase(), name.toLowerCase());
}

function head(area: string): string {
  return (area.split(/\s+/).at(-1) ?? "").toLowerCase();
}

function namesAnything(sentence: string, scene: SceneNames): boolean {
  return [...scene.here, scene.location, scene.area].some((n) => n !== "" && mentions(sentence, n));
}

function outsideQuotes(text: string): string {
  return quoteSpans(text)
    .filter((s) => !s.quoted)
    .map((s) => s.text)
    .join(" ");
}

function quoted(text: string): string | null {
  const spans = quoteSpans(text).filter((s) => s.quoted);
  const quote = spans.map((s) => s.text.trim()).join(" ");
  return quote.length >= 8 ? quote : null;
}
