import { defineCondition } from "./spec.ts";

/** `story-text` (spec 2.2). */
export default defineCondition("story-text", {
  read: (_condition, snapshot) => snapshot.storyText,
});
