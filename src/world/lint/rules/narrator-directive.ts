import { type Directive, directiveOf } from "../../directive.ts";
import { defineRule } from "../../rule.ts";
import { entriesOf, isPlainObject } from "../../values.ts";

/** The texts a player may be shown as story: story starts and `story` effects (of triggers and events). */
function* storyTexts(raw: Readonly<Record<string, unknown>>) {
  for (const [name, start] of entriesOf(raw.storyStarts))
    if (isPlainObject(start) && typeof start.storyStart === "string")
      yield {
        path: ["storyStarts", name, "storyStart"],
        text: start.storyStart,
        what: `story start ${name}`,
      };
  const owners = [
    ...entriesOf(raw.triggers).map(([key, t]) => ({ section: "triggers", key, t, lists: ["effects"] })),
    ...entriesOf(raw.narrativeEvents).map(([key, t]) => ({
      section: "narrativeEvents",
      key,
      t,
      lists: ["onCompleteEffects"],
    })),
  ];
  for (const { section, key, t, lists } of owners) {
    if (!isPlainObject(t)) continue;
    for (const list of lists) {
      const effects = t[list];
      if (!Array.isArray(effects)) continue;
      for (const [i, effect] of effects.entries())
        if (isPlainObject(effect) && effect.type === "story" && typeof effect.instruction === "string")
          yield {
            path: [section, key, list, i, "instruction"],
            text: effect.instruction,
            what: `a story effect of ${key}`,
          };
    }
  }
}

export default defineRule({
  code: "lint/narrator-directive",
  severity: "warning",
  description:
    'A story start or `story` effect is written as directions to the narrator ("Set the scene …", "mention that …", "the PC", "X should …"), so Taleforge takes the whole text as narrator-only and never shows a sentence of it as story.',
  why: 'Many worlds for the hosted platform write a story start or a story effect as a prompt for a model. A model follows it; a player must never read it. Taleforge decides per text, not per sentence (docs/offline.md, "Narrator-only text"): one sentence that addresses the writer (names the PC, the player, the narrator, the response or the scene to set; opens with a writer\'s verb such as describe, mention, generate, set the scene, end, keep, make it clear; says what someone should do; or is a stage direction in brackets) makes the whole text a direction, since the sentences around it are the writer\'s notes too. The offline narrator then opens from the start\'s `description`, the place and the people there, and tells a story effect only through its changes to the game. This rule lists each text so taken, with the sentence that decided, so you can see what players will not read. Fix, if the text is meant as story: write it as what happens, in the second person, without directions ("You stand at the palisade as the horn sounds."); if it is meant for the narrator, nothing to do.',
  messages: {
    directive:
      "Taleforge takes {what} as directions to the narrator and never shows it as story ({why}: {sentence}). If it is meant as story, write it as what happens, without directions to the writer.",
  },
  examples: {
    bad: {
      storyStarts: {
        Morning: {
          storyStart:
            "The PC has just woken at the Old Mill. Set the scene at dawn and mention that the wheel has stopped.",
        },
      },
    },
    good: {
      storyStarts: {
        Morning: {
          storyStart: "You wake at the Old Mill at dawn. The wheel has stopped, and the millyard is silent.",
        },
      },
    },
  },
  check({ raw, report }) {
    // Worlds repeat their instructions (one per quest stage, per region): each text is read once.
    const seen = new Map<string, Directive | null>();
    for (const { path, text, what } of storyTexts(raw)) {
      let directive = seen.get(text);
      if (directive === undefined) {
        directive = directiveOf(text);
        seen.set(text, directive);
      }
      if (!directive) continue;
      report({
        path,
        messageId: "directive",
        data: { what, why: directive.why, sentence: JSON.stringify(directive.sentence) },
      });
    }
  },
});
