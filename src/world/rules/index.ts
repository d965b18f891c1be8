import type { Rule } from "../rule.ts";
import condition from "./condition/index.ts";
import effect from "./effect/index.ts";
import item from "./item/index.ts";
import keys from "./keys/index.ts";
import limit from "./limit/index.ts";
import location from "./location/index.ts";
import npc from "./npc/index.ts";
import premade from "./premade/index.ts";
import quest from "./quest/index.ts";
import reference from "./reference/index.ts";
import region from "./region/index.ts";
import resource from "./resource/index.ts";
import script from "./script/index.ts";
import settings from "./settings/index.ts";
import skill from "./skill/index.ts";
import storyStart from "./story-start/index.ts";
import text from "./text/index.ts";
import trait from "./trait/index.ts";
import trigger from "./trigger/index.ts";

/**
 * Every rule, by category folder (the code's prefix). A test checks that this
 * list and the files under rules/ agree, and that codes are unique and match
 * their file paths.
 */
export const RULES: readonly Rule[] = [
  ...keys,
  ...condition,
  ...effect,
  ...limit,
  ...trait,
  ...region,
  ...location,
  ...resource,
  ...settings,
  ...reference,
  ...storyStart,
  ...npc,
  ...item,
  ...skill,
  ...premade,
  ...script,
  ...trigger,
  ...quest,
  ...text,
];
