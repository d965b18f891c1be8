import { caseless, foldCase } from "../../case-fold.ts";
import { compileRegex } from "../../pattern.ts";
import { defineRule } from "../../rule.ts";
import { entriesOf, isPlainObject } from "../../values.ts";
import { hasWholeWord } from "../../whole-word.ts";
import { analyse, areaHomes } from "../analysis.ts";
import type { Actor } from "../model.ts";

/** Wording that holds wherever the instruction is told: knowledge, memory, news, or a guard on still being there. */
const HOLDS_ANYWHERE =
  /\b(?:the party|they|the characters?)\s+(?:now\s+|already\s+|still\s+)?(?:knows?|learns?|learned|remembers?|recalls?|heard|hears?|has heard|have heard)\b|\bwords? (?:comes?|reaches?|reached|spreads?|has reached)\b|\brumou?rs?\b|\bstays? with the party\b|\b(?:if|while|when|as long as)\s+(?:the party|they)\s+(?:is|are)\s+still\s+(?:at|in|on|by)\b|\bwherever\b/i;

/** HOLDS_ANYWHERE without `i`, on folded text: the same answers, cheaper to compile (case-fold.ts). */
const FOLDED_HOLDS_ANYWHERE = caseless(HOLDS_ANYWHERE);

export default defineRule({
  code: "lint/story-deferred-scene",
  severity: "warning",
  description:
    "A `story` effect of a trigger bound to a place (or to an NPC there) describes that place or NPC as present, but it is told in the next narration, when the party may be elsewhere.",
  why: "A `story` effect does not shape the turn in which its trigger fires: it joins the pending instructions and shapes the FOLLOWING narration (docs/engine.md). A trigger with a `party-location` or `party-area` condition fires at that place, but the narration that tells its instruction comes a turn later, after the player's next action, which may be a walk away. A model narrator then tells 'the water rises around your ankles' in the tavern, or a Sister blessing the party at a barrow with no Sister there; the offline narrator leaves such sentences out (docs/offline.md). The rule looks for an instruction that names the trigger's place (its location or area) or an NPC who stands there or whom the trigger's `action-text` names. Fix: write the instruction so it holds anywhere: as something the party knows, heard or remembers ('The party now knows …', 'Word comes …', 'Mara's words stay with the party: …'), or with a guard the narrator can resolve ('While the party is still in the Bone Chamber, the water rises …'); or gate the effect differently, on a trigger the next narration is sure to share (an `action` condition on what the player does there, so the instruction follows that very action).",
  messages: {
    scene:
      "This story effect names {name}, which trigger {trigger} is bound to ({bound}), but it is told in the next narration, when the party may have left. Write it so it holds anywhere (what the party knows or remembers, or 'While the party is still at …'), or gate it differently.",
  },
  examples: {
    bad: {
      triggers: {
        start_sheep: {
          conditions: [{ type: "party-location", operator: "equals", value: "Fen Hut" }],
          effects: [
            { type: "quest-init", operator: "set", value: "Lost Sheep" },
            { type: "story", instruction: "Ada Reed waves from the porch of the Fen Hut and asks for help." },
          ],
        },
      },
    },
    good: {
      triggers: {
        start_sheep: {
          conditions: [{ type: "party-location", operator: "equals", value: "Fen Hut" }],
          effects: [
            { type: "quest-init", operator: "set", value: "Lost Sheep" },
            {
              type: "story",
              instruction:
                "While the party is still at the Fen Hut, Ada Reed waves from the porch and asks for help.",
            },
          ],
        },
      },
    },
  },
  check({ raw, report }) {
    const { model } = analyse(raw);
    const areaHome = areaHomes(raw);
    // Each NPC's forms once, not once per trigger: at the caps, 700 triggers by 200 NPCs made most of lint's time.
    const npcs: NamedNpc[] = [];
    for (const [name, npc] of entriesOf(raw.npcs)) {
      if (!isPlainObject(npc)) continue;
      const forms = nameForms(name);
      const location = typeof npc.currentLocation === "string" ? npc.currentLocation : "";
      npcs.push({ name, location, forms, lowerForms: forms.map((form) => form.toLowerCase()) });
    }
    // The NPCs of each location, in NPC order: a trigger bound to a place reads its own NPCs, not all of them.
    const atLocation = new Map<string, number[]>();
    npcs.forEach((npc, i) => {
      const list = atLocation.get(npc.location);
      if (list) list.push(i);
      else atLocation.set(npc.location, [i]);
    });
    const named = new Map<string, readonly boolean[]>();
    for (const actor of model.actors) {
      if (actor.kind !== "trigger" || !actor.effects.some(toldLater)) continue;
      const bound = boundNames(actor, areaHome, npcs, atLocation, named);
      if (bound.length === 0) continue;
      for (const site of actor.effects) {
        if (!toldLater(site)) continue;
        const text = site.fields.instruction;
        if (typeof text !== "string" || FOLDED_HOLDS_ANYWHERE.test(foldCase(text))) continue;
        const hit = bound.find((b) => b.forms.some((form) => (b.npc ? acts(text, form) : names(text, form))));
        if (!hit) continue;
        report({
          path: site.path,
          messageId: "scene",
          data: { name: JSON.stringify(hit.name), trigger: JSON.stringify(actor.key), bound: hit.why },
        });
      }
    }
  },
});

/** A trigger's own `story` effect (one at an index of its effects): the only kind this rule reads. */
function toldLater(site: Actor["effects"][number]): boolean {
  return site.type === "story" && site.index !== undefined;
}

interface NamedNpc {
  name: string;
  location: string;
  forms: string[];
  /** The forms in lower case, for action-text matching. */
  lowerForms: string[];
}

interface Bound {
  name: string;
  /** An NPC: flagged only as the subject of something happening ("Slade slides the key"), not as a topic. */
  npc: boolean;
  /** The words that name it in an instruction. */
  forms: string[];
  why: string;
}

/**
 * The place a trigger's conditions bind it to, and the NPCs there or named by its action-text.
 * `named` keeps, per action-text condition (operator and value), which NPCs it names: triggers
 * share their conditions, and each would match every NPC's forms again.
 */
function boundNames(
  actor: Actor,
  areaHome: ReadonlyMap<string, string[]>,
  npcs: readonly NamedNpc[],
  atLocation: ReadonlyMap<string, readonly number[]>,
  named: Map<string, readonly boolean[]>,
): Bound[] {
  const out: Bound[] = [];
  let location = "";
  for (const c of actor.conditions) {
    if (c.operator !== "equals" || typeof c.value !== "string" || c.value === "") continue;
    if (c.type === "party-location") {
      location = c.value;
      out.push({ name: c.value, npc: false, forms: [c.value.replace(/^The\s+/, "")], why: "party-location" });
    } else if (c.type === "party-area") {
      out.push({ name: c.value, npc: false, forms: [c.value], why: "party-area" });
      const homes = areaHome.get(c.value);
      if (!location && homes?.length === 1) location = homes[0]!;
    }
  }
  const patterns: (readonly boolean[])[] = [];
  for (const c of actor.conditions) {
    if (c.type !== "action-text" || typeof c.value !== "string") continue;
    const key = `${c.operator === "regex" ? "regex" : "words"}\u0000${c.value}`;
    let list = named.get(key);
    if (list === undefined) {
      list = namedBy(c.operator === "regex", c.value, npcs);
      named.set(key, list);
    }
    patterns.push(list);
  }
  if (location === "" && patterns.length === 0) return out;
  if (patterns.length === 0) {
    const why = `an NPC at ${JSON.stringify(location)}`;
    for (const i of atLocation.get(location) ?? []) {
      const npc = npcs[i]!;
      out.push({ name: npc.name, npc: true, forms: npc.forms, why });
    }
    return out;
  }
  npcs.forEach((npc, i) => {
    if (location !== "" && npc.location === location)
      out.push({ name: npc.name, npc: true, forms: npc.forms, why: `an NPC at ${JSON.stringify(location)}` });
    else if (patterns.some((list) => list[i]))
      out.push({ name: npc.name, npc: true, forms: npc.forms, why: "named by its action-text" });
  });
  return out;
}

/** Which NPCs an action-text condition names: one of their forms matches it as the engine matches. */
function namedBy(regex: boolean, value: string, npcs: readonly NamedNpc[]): boolean[] {
  // The engine's own matching: RE2 for `regex` (never a native RegExp of world text), else the words.
  if (!regex) {
    const lower = value.toLowerCase();
    return npcs.map((npc) => npc.lowerForms.some((f) => f.includes(lower)));
  }
  const compiled = compileRegex(value);
  return npcs.map((npc) => compiled.ok && npc.forms.some((f) => compiled.test(f)));
}

const CAPITAL = /^\p{Lu}/u;

/** The full name, and its first and last words of 3+ letters ("Slade", "Orla"). */
function nameForms(name: string): string[] {
  const words = name.split(/\s+/).filter((w) => w.length >= 3 && w !== "The" && CAPITAL.test(w));
  return words.length >= 2 ? [name, words[0]!, words.at(-1)!] : [name];
}

/** Whole words, case-sensitive for names ("Slade", not "SLADE & CO."). */
function names(text: string, form: string): boolean {
  return hasWholeWord(text, form);
}

/** The NPC as the subject of a present verb: at a sentence or clause start, a title and an apposition allowed. */
function acts(text: string, form: string): boolean {
  // A pattern is built from the name below: only for a name the text holds, and of a name's length.
  if (form.length > 200 || !text.includes(form)) return false;
  const name = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const subject = `(?:^|[.!?;:]\\s+|,\\s+(?:and|but|while)\\s+|\\band\\s+)(?:(?:Sister|Brother|Old|Master|Mistress|Captain|Mother|Father)\\s+)?${name}(?:\\s+\\p{Lu}\\p{L}+)?(?:,[^,]{1,80},)?`;
  const verb =
    "\\s+(?:(?:already|still|now|just|suddenly|quietly|softly|slowly|never|always)\\s+)?(?:is|are|has|\\p{Ll}+s)\\b";
  return new RegExp(subject + verb, "u").test(text);
}
