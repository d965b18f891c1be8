import type { Rule } from "../../rule.ts";
import npcInOpeningZone from "./npc-in-opening-zone.ts";
import pathToNpc from "./path-to-npc.ts";
import startingQuests from "./starting-quests.ts";
import unknownArea from "./unknown-area.ts";
import unknownItem from "./unknown-item.ts";
import unknownLocation from "./unknown-location.ts";
import unknownNpc from "./unknown-npc.ts";
import unknownQuest from "./unknown-quest.ts";

const rules: Rule[] = [
  unknownLocation,
  unknownArea,
  unknownNpc,
  unknownItem,
  unknownQuest,
  startingQuests,
  npcInOpeningZone,
  pathToNpc,
];

export default rules;
