import type { Rule } from "../../rule.ts";
import contradictoryConditions from "./contradictory-conditions.ts";
import eventNeverStarted from "./event-never-started.ts";
import judgedWording from "./judged-wording.ts";
import moveNowhere from "./move-nowhere.ts";
import narratorDirective from "./narrator-directive.ts";
import neverTrueCondition from "./never-true-condition.ts";
import objectiveStuck from "./objective-stuck.ts";
import objectiveTriggerUnreachable from "./objective-trigger-unreachable.ts";
import overLimit from "./over-limit.ts";
import questNeverAvailable from "./quest-never-available.ts";
import questOfferLapses from "./quest-offer-lapses.ts";
import storageNeverRead from "./storage-never-read.ts";
import storageNeverWritten from "./storage-never-written.ts";
import storyDeferredScene from "./story-deferred-scene.ts";

/**
 * The rules of `taleforge lint`, beyond `check`: what silently breaks play.
 * They are in the catalogue (docs, SARIF) but not in RULES, so `check` does
 * not run them. A test checks that this list and the files beside it agree.
 */
export const LINT_RULES: readonly Rule[] = [
  questNeverAvailable,
  questOfferLapses,
  objectiveTriggerUnreachable,
  objectiveStuck,
  eventNeverStarted,
  neverTrueCondition,
  contradictoryConditions,
  storageNeverWritten,
  storageNeverRead,
  storyDeferredScene,
  narratorDirective,
  moveNowhere,
  overLimit,
  judgedWording,
];
