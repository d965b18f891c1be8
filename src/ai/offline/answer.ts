import type { WorldFacts } from "./facts.ts";
import type { NarrationInput } from "./request.ts";
import { endSentence, sentences, stemmedWords } from "./text.ts";

/**
 * An NPC's answer when a player talks to them and nothing of the world answers
 * this turn (no instruction told, no trigger fired on the action): made only
 * from what the world says anyone may know of the NPC (`basicInfo`,
 * `personality`, the faction and its public `basicInfo`), never `hiddenInfo`.
 * A line the world gives the NPC in quotation marks is said in their voice.
 *
 * - "ask Gavius about the bracket": the sentence of the NPC's public text (or
 *   their faction's) that names the topic, else that they have nothing to say
 *   about it;
 * - "talk to Gavius": their manner (personality) and faction.
 */

const TOPIC = /\b(?:about|regarding|concerning|on the subject of)\s+([^.?!;]+)/i;

export function npcAnswer(input: NarrationInput, facts: WorldFacts): string {
  if (input.opening || input.intent?.intent !== "interactNPC" || input.actions.length === 0) return "";
  const action = input.actions[0]!.text;
  const present = input.scene.npcsPresent.map((n) => n.name);
  const who = addressed(action, present, input.intent.target);
  if (!who) return "";
  const profile = facts.npcProfiles.get(who);
  if (!profile) return "";
  const pronoun = pronounOf(profile.gender);
  const manner = profile.personality.slice(0, 2).join(" and ");
  const subject = manner ? `${who}, ${manner},` : who;
  const quoted = /“[^”]{2,300}”|"[^"]{2,300}"/.exec(profile.info)?.[0];
  const topic = TOPIC.exec(action)?.[1]?.trim().replace(/\s+/g, " ");
  if (topic) {
    const wanted = stemmedWords(topic);
    const known = [...sentences(profile.info), ...sentences(profile.factionInfo)].find((s) =>
      [...stemmedWords(s)].some((w) => wanted.has(w)),
    );
    if (known)
      return `${subject} tells you what ${pronoun.subject} ${pronoun.know} of ${topic}. ${endSentence(known)}`;
    return `${subject} hears you out, but has nothing to tell you about ${topic}.`;
  }
  const parts = [`${subject} talks with you a while.`];
  if (quoted) parts.push(`${capital(pronoun.subject)} ${pronoun.say}: ${quoted}`);
  if (profile.faction)
    parts.push(`${capital(pronoun.subject)} ${pronoun.speak} as one of the ${profile.faction}.`);
  return parts.join(" ");
}

/** The NPC present the action names (a word of three letters or more of their name), else the classifier's target, else the only one. */
function addressed(action: string, present: string[], target: string | undefined): string | undefined {
  const text = action.toLowerCase();
  const named = present.find((name) =>
    name
      .toLowerCase()
      .split(/\s+/)
      .some(
        (w) =>
          w.length >= 3 &&
          w !== "the" &&
          new RegExp(`\\b${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`).test(text),
      ),
  );
  if (named) return named;
  if (target && present.includes(target)) return target;
  return present.length === 1 ? present[0] : undefined;
}

function pronounOf(gender: string): { subject: string; know: string; speak: string; say: string } {
  const g = gender.trim().toLowerCase();
  if (/^(?:m|male|man|he)\b/.test(g)) return { subject: "he", know: "knows", speak: "speaks", say: "says" };
  if (/^(?:f|female|woman|she)\b/.test(g))
    return { subject: "she", know: "knows", speak: "speaks", say: "says" };
  return { subject: "they", know: "know", speak: "speak", say: "say" };
}

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
