import { defineRule } from "../../rule.ts";
import { entriesOf, isPlainObject } from "../../values.ts";
import { hasWholeWord } from "../../whole-word.ts";
import { analyse, areaHomes } from "../analysis.ts";
import type { Actor, EffectSite } from "../model.ts";

const SHEEP_DETAILED = { "Lost Sheep": { detailType: "detailed", questLocation: "Fen Hut" } };

export default defineRule({
  code: "lint/quest-offer-lapses",
  severity: "warning",
  description:
    "A quest that can only be completed once accepted is offered where its offer can lapse before the player can answer: away from its giver, or by a trigger whose next step sends the party elsewhere.",
  why: "An offer lapses at the end of the turn in which the party leaves the location where the quest became available, or 3 turns after (docs/engine.md, quests). A quest completed only through `quest-progress`, an engine-made `{quest}_objective` trigger (a `detailed` quest with a completion condition) or a trigger gated on `quest-status … equals accepted` is lost with its offer. Players meet this as a quest taken away while they do what it asks: offered on the pier, it expires on the walk to the giver in the tavern; offered with 'go to the cove' as its first objective, it expires when a player goes before typing y. Fix: offer the quest where its giver is (a `party-location` condition on the giver's location), and make the first objective something done there (speak to the giver), so the prompt is answered before anyone leaves; or complete the quest with `quest-complete`, which works from any status, so acceptance is not needed. A quest-init with no place condition counts as offered anywhere.",
  messages: {
    away: "Quest {quest} is completed only once accepted, but this quest-init offers it {where}, away from its giver {giver} at {giverAt}: the offer lapses when the party leaves, on the way to the giver. Add a party-location condition on {giverAt} to the offering trigger, or complete the quest with quest-complete so it need not be accepted.",
    travel:
      "Quest {quest} is completed only once accepted, and the trigger that offers it points the party to {place} next ({step}): a player who goes before answering the prompt loses the quest. Make the first step something done where it is offered, or complete the quest with quest-complete so it need not be accepted.",
  },
  examples: {
    bad: {
      quests: SHEEP_DETAILED,
      triggers: { start_sheep: { conditions: [{ type: "game-tick", operator: "greaterThan", value: 0 }] } },
    },
    good: {
      quests: SHEEP_DETAILED,
      triggers: {
        start_sheep: { conditions: [{ type: "party-location", operator: "equals", value: "Fen Hut" }] },
      },
    },
  },
  check({ raw, report }) {
    const { model } = analyse(raw);
    const areaHome = areaHomes(raw);
    const locations = entriesOf(raw.locations).map(([name]) => name);
    // The effects by the quest they name, once: each quest walked every effect of every trigger twice.
    const completers = new Map<unknown, Site[]>();
    const inits = new Map<unknown, Site[]>();
    for (const actor of model.actors)
      for (const site of actor.effects) {
        const by =
          site.type === "quest-init"
            ? { map: inits, key: site.fields.value }
            : site.type === "quest-progress" || site.type === "quest-complete"
              ? { map: completers, key: site.fields.questId }
              : undefined;
        if (!by) continue;
        const list = by.map.get(by.key);
        if (list) list.push({ actor, site });
        else by.map.set(by.key, [{ actor, site }]);
      }
    for (const [quest, record] of entriesOf(raw.quests)) {
      if (!isPlainObject(record) || !needsAccepted(completers.get(quest) ?? [], quest)) continue;
      const giver = giverOf(raw, record);
      for (const { actor, site } of inits.get(quest) ?? []) {
        const offeredAt = placeOf(actor, areaHome);
        if (giver && offeredAt !== giver.location) {
          report({
            path: site.path,
            messageId: "away",
            data: {
              quest: JSON.stringify(quest),
              where: offeredAt ? `at ${JSON.stringify(offeredAt)}` : "anywhere",
              giver: JSON.stringify(giver.name),
              giverAt: JSON.stringify(giver.location),
            },
          });
          continue;
        }
        const travel = nextStepElsewhere(actor, quest, record, offeredAt, locations, areaHome);
        if (travel)
          report({
            path: site.path,
            messageId: "travel",
            data: { quest: JSON.stringify(quest), place: JSON.stringify(travel.place), step: travel.step },
          });
      }
    }
  },
});

/** An effect and the trigger (or event) it belongs to. */
interface Site {
  actor: Actor;
  site: EffectSite;
}

/** Every way the quest can be completed (its quest-progress and quest-complete effects) needs it accepted; there is one. */
function needsAccepted(completers: readonly Site[], quest: string): boolean {
  for (const { actor, site } of completers)
    if (site.type === "quest-complete" && !gatedOnAccepted(actor, quest)) return false;
  return completers.length > 0;
}

function gatedOnAccepted(actor: Actor, quest: string): boolean {
  if (actor.objectiveOf === quest) return true;
  return actor.conditions.some(
    (c) => c.type === "quest-status" && c.ref === quest && c.operator === "equals" && c.value === "accepted",
  );
}

/** The giver NPC (questGiverNPC, else a questSource naming an NPC) and the location it stands in. */
function giverOf(
  raw: Readonly<Record<string, unknown>>,
  quest: Record<string, unknown>,
): { name: string; location: string } | null {
  const npcs = isPlainObject(raw.npcs) ? raw.npcs : {};
  for (const name of [quest.questGiverNPC, quest.questSource]) {
    if (typeof name !== "string" || !Object.hasOwn(npcs, name)) continue;
    const npc = npcs[name];
    if (isPlainObject(npc) && typeof npc.currentLocation === "string" && npc.currentLocation !== "")
      return { name, location: npc.currentLocation };
  }
  return null;
}

/** The location a trigger's conditions pin the party to (party-location, or an area of one location). */
function placeOf(actor: Actor, areaHome: ReadonlyMap<string, string[]>): string | null {
  for (const c of actor.conditions) {
    if (c.operator !== "equals" || typeof c.value !== "string") continue;
    if (c.type === "party-location") return c.value;
    const homes = c.type === "party-area" ? areaHome.get(c.value) : undefined;
    if (homes?.length === 1) return homes[0]!;
  }
  return null;
}

/** The first step the offering trigger reveals or sets, when it names a place other than the offer's. */
function nextStepElsewhere(
  actor: Actor,
  quest: string,
  record: Record<string, unknown>,
  offeredAt: string | null,
  locations: readonly string[],
  areaHome: ReadonlyMap<string, string[]>,
): { place: string; step: string } | null {
  const objectives = isPlainObject(record.objectives) ? record.objectives : {};
  for (const site of actor.effects) {
    const text = stepText(site, quest, objectives);
    if (!text) continue;
    const place = placeNamed(text, offeredAt, locations, areaHome);
    if (place) return { place, step: JSON.stringify(text) };
  }
  return null;
}

function stepText(site: EffectSite, quest: string, objectives: Record<string, unknown>): string | null {
  if (site.fields.questId !== quest) return null;
  if (site.type === "quest-next-step-set" && typeof site.fields.text === "string") return site.fields.text;
  if (site.type !== "quest-objective-reveal" || typeof site.fields.objectiveId !== "string") return null;
  const objective = Object.hasOwn(objectives, site.fields.objectiveId)
    ? objectives[site.fields.objectiveId]
    : undefined;
  return isPlainObject(objective) && typeof objective.text === "string" ? objective.text : null;
}

/** A location, or an area of a location, named in the text (whole words, any case) that is not `here`. */
function placeNamed(
  text: string,
  here: string | null,
  locations: readonly string[],
  areaHome: ReadonlyMap<string, string[]>,
): string | null {
  const names = (name: string) => hasWholeWord(text, name, { ignoreCase: true, boundary: "word" });
  for (const location of locations) if (location !== here && names(location)) return location;
  for (const [area, homes] of areaHome)
    if (homes.length === 1 && homes[0] !== here && names(area)) return homes[0]!;
  return null;
}
