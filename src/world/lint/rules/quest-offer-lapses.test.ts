import { testRule } from "../../../../test/helpers/world.ts";
import rule from "./quest-offer-lapses.ts";

const tick = { type: "game-tick", operator: "greaterThan", value: 0 };
const atHut = { type: "party-location", operator: "equals", value: "Fen Hut" };
const atMill = { type: "party-location", operator: "equals", value: "Old Mill" };
const init = { type: "quest-init", operator: "set", value: "Lost Sheep" };
const reveal = (objectiveId: string) => ({
  type: "quest-objective-reveal",
  questId: "Lost Sheep",
  objectiveId,
});
const objectives = {
  ask_ada: { id: "ask_ada", text: "Ask Ada where the flock went.", status: "hidden" },
  to_mill: { id: "to_mill", text: "Search the Loft for the sheep.", status: "hidden" },
};
/** Lost Sheep (given by Ada Reed at Fen Hut), offered by start_sheep under the given conditions and effects. */
const sheep = (
  conditions: unknown[],
  quest: Record<string, unknown>,
  effects: unknown[] = [init],
  more = {},
) => ({
  quests: { "Lost Sheep": { objectives, ...quest } },
  triggers: { start_sheep: { conditions, effects }, ...more },
});
const detailed = { detailType: "detailed" };
const offered = { path: ["triggers", "start_sheep", "effects", 0] };

testRule(rule, {
  valid: [
    { name: "the base world: the quest is never completed by anything", patch: {} },
    { name: "offered where its giver is", patch: sheep([atHut, tick], detailed) },
    {
      name: "offered anywhere, but a quest-complete finishes it from any status",
      patch: sheep([tick], detailed, [init], {
        done: {
          name: "done",
          conditions: [atMill],
          effects: [{ type: "quest-complete", questId: "Lost Sheep" }],
        },
      }),
    },
    { name: "a basic quest with no completer is not this rule's", patch: sheep([tick], {}) },
    {
      name: "offered at the giver with a first step done there",
      patch: sheep([atHut], detailed, [init, reveal("ask_ada")]),
    },
    {
      name: "offered in the giver's area, named by area",
      patch: sheep([{ type: "party-area", operator: "equals", value: "Porch" }], detailed),
    },
  ],
  invalid: [
    {
      name: "offered anywhere, with an engine-made objective trigger as the only completion",
      patch: sheep([tick], detailed),
      errors: [
        {
          ...offered,
          messageId: "away",
          data: { quest: '"Lost Sheep"', where: "anywhere", giver: '"Ada Reed"', giverAt: '"Fen Hut"' },
        },
      ],
    },
    {
      name: "offered at another place; completed only by a trigger gated on accepted",
      patch: sheep([atMill], {}, [init], {
        done: {
          name: "done",
          conditions: [
            { type: "quest-status", questId: "Lost Sheep", operator: "equals", value: "accepted" },
          ],
          effects: [{ type: "quest-complete", questId: "Lost Sheep" }],
        },
      }),
      errors: [
        {
          ...offered,
          messageId: "away",
          data: { quest: '"Lost Sheep"', where: 'at "Old Mill"', giver: '"Ada Reed"', giverAt: '"Fen Hut"' },
        },
      ],
    },
    {
      name: "offered at the giver, but its first step is an area of another location",
      patch: sheep([atHut], detailed, [init, reveal("to_mill")]),
      errors: [
        {
          ...offered,
          messageId: "travel",
          data: { quest: '"Lost Sheep"', place: '"Old Mill"', step: '"Search the Loft for the sheep."' },
        },
      ],
    },
    {
      name: "a next step that names another location",
      patch: sheep([atHut], { questGiverNPC: "Ada Reed", ...detailed }, [
        init,
        {
          type: "quest-next-step-set",
          questId: "Lost Sheep",
          text: "Walk to the old mill.",
          source: "objective",
        },
      ]),
      errors: [{ ...offered, messageId: "travel" }],
    },
  ],
});
