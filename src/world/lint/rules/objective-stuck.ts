import { defineRule } from "../../rule.ts";
import { entriesOf, isPlainObject } from "../../values.ts";
import { analyse, effectSites } from "../analysis.ts";
import type { EffectSite } from "../model.ts";

const PEN = { id: "pen", text: "Mend the pen.", status: "hidden" };
const QUEST = { objectives: { pen: PEN } };
const REVEAL = { type: "quest-objective-reveal", questId: "Lost Sheep", objectiveId: "pen" };
const COMPLETE = { type: "quest-objective-complete", questId: "Lost Sheep", objectiveId: "pen" };

export default defineRule({
  code: "lint/objective-stuck",
  severity: "warning",
  description: "A quest objective is never revealed, or never completed, by anything in the world.",
  why: "An objective moves only through effects: `quest-objective-reveal` makes a hidden one `active` (and the quest's next step its text), `quest-objective-complete` marks it `completed` (docs/format.md, quests). When no trigger, script or narrative event names it, a hidden objective never shows in the journal and an open one can never be ticked off, so the player is left with a step that never ends. Only effects that name the quest and the objective are counted; an effect whose quest or objective is computed at run time, or a script the analysis cannot follow, counts as able to move any objective.",
  messages: {
    hidden:
      'Objective {objective} of quest {quest} starts hidden and nothing reveals or completes it, so the player never sees it. Add {"type": "quest-objective-reveal", "questId": {quest}, "objectiveId": {objective}} to the trigger that should reveal it.',
    open: 'Objective {objective} of quest {quest} is never completed: no quest-objective-complete effect names it, so it stays {status} for ever. Add {"type": "quest-objective-complete", "questId": {quest}, "objectiveId": {objective}} to the trigger that completes it.',
  },
  examples: {
    bad: {
      quests: { "Lost Sheep": QUEST },
      triggers: {
        start_sheep: { effects: [{ type: "quest-init", operator: "set", value: "Lost Sheep" }, REVEAL] },
      },
    },
    good: {
      quests: { "Lost Sheep": QUEST },
      triggers: {
        start_sheep: { effects: [{ type: "quest-init", operator: "set", value: "Lost Sheep" }, REVEAL] },
        pen_mended: {
          name: "pen_mended",
          conditions: [{ type: "party-location", operator: "equals", value: "Fen Hut" }],
          effects: [COMPLETE],
        },
      },
    },
  },
  check({ raw, report }) {
    const analysis = analyse(raw);
    // A script the analysis cannot follow may apply any effect.
    if (analysis.model.actors.some((actor) => actor.opaque !== null)) return;
    const reveals = effectSites(analysis, "quest-objective-reveal").map(({ site }) => site);
    const completes = effectSites(analysis, "quest-objective-complete").map(({ site }) => site);
    for (const [quest, record] of entriesOf(raw.quests)) {
      if (!isPlainObject(record)) continue;
      for (const [id, objective] of entriesOf(record.objectives)) {
        if (!isPlainObject(objective) || objective.status === "completed") continue;
        const data = { quest: JSON.stringify(quest), objective: JSON.stringify(id) };
        const path = ["quests", quest, "objectives", id];
        const completed = completes.some((site) => names(site, quest, id));
        if (completed) continue;
        const revealed = reveals.some((site) => names(site, quest, id));
        if (objective.status === "hidden" && !revealed)
          report({ path, atKey: true, messageId: "hidden", data });
        else
          report({
            path,
            atKey: true,
            messageId: "open",
            data: { ...data, status: objective.status === "hidden" ? "hidden or active" : "active" },
          });
      }
    }
  },
});

/** Whether an effect may move this objective: it names it, or computes the quest or the objective at run time. */
function names(site: EffectSite, quest: string, objective: string): boolean {
  const field = (name: string, value: string) => site.computed.includes(name) || site.fields[name] === value;
  return field("questId", quest) && field("objectiveId", objective);
}
