import { defineCondition } from "./spec.ts";

/** `story` (spec 2.2): judged by the AI; a script's check() reads the story text. */
export default defineCondition("story", {
  read: (_condition, snapshot) => snapshot.storyText,
});
