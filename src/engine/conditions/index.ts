import type { ConditionType } from "../../world/schema/conditions.ts";
import action from "./action.ts";
import actionText from "./action-text.ts";
import gameTick from "./game-tick.ts";
import knownEntity from "./known-entity.ts";
import narrativeEventStatus from "./narrative-event-status.ts";
import partyArea from "./party-area.ts";
import partyLocation from "./party-location.ts";
import partyRealm from "./party-realm.ts";
import partyRegion from "./party-region.ts";
import playerLevel from "./player-level.ts";
import playerResource from "./player-resource.ts";
import playerTraits from "./player-traits.ts";
import questStatus from "./quest-status.ts";
import questsCompleted from "./quests-completed.ts";
import readArray from "./read-array.ts";
import readBoolean from "./read-boolean.ts";
import readNumber from "./read-number.ts";
import readString from "./read-string.ts";
import type { ConditionSpec } from "./spec.ts";
import story from "./story.ts";
import storyText from "./story-text.ts";

/**
 * Every condition type of spec 2.2, from the module named after it
 * (src/engine/conditions/<type>.ts). The Record makes the compiler report a
 * type of the world schema without a module; test/catalogue.test.ts checks
 * the files and this table agree. Each entry's fields, operators and value
 * kind are the schema's (CONDITION_TYPES of src/world/schema/condition-table.ts,
 * through `defineCondition`), and test/engine/check.test.ts checks each entry
 * is the module of its type.
 */
export const CONDITIONS: Record<ConditionType, ConditionSpec> = {
  "game-tick": gameTick,
  "player-level": playerLevel,
  "player-resource": playerResource,
  "player-traits": playerTraits,
  "party-realm": partyRealm,
  "party-region": partyRegion,
  "party-location": partyLocation,
  "party-area": partyArea,
  "known-entity": knownEntity,
  "quests-completed": questsCompleted,
  "quest-status": questStatus,
  "narrative-event-status": narrativeEventStatus,
  "story-text": storyText,
  "action-text": actionText,
  story: story,
  action: action,
  "read-string": readString,
  "read-number": readNumber,
  "read-boolean": readBoolean,
  "read-array": readArray,
};
