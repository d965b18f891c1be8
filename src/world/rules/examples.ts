/**
 * Records shared by the docs examples and tests of several rules: one quest
 * literal, written once, so the examples of related codes show the same quest.
 */
export const STRAY_GOAT = {
  name: "Stray Goat",
  questSource: "Ada Reed",
  questStatement: "A goat is loose in the loft.",
  mainObjective: "Get the goat down.",
  completionCondition: "The goat is back in the yard.",
  detailType: "basic",
  spatialRelationship: "existingLocalArea",
};
