import { FILE_ENCODING } from "./encoding.ts";
import { defineCode } from "./rule.ts";

/**
 * Codes raised while reading a file and checking its shape, before the rules
 * run. Like rules, each has one entry in docs/rules.md.
 */

export const FILE_NOT_FOUND = defineCode({
  code: "file/not-found",
  severity: "error",
  description: "The world file does not exist or cannot be read.",
  why: "Nothing can be checked without the file.",
  messages: {
    missing:
      "Cannot find {file}. Check the path (it is relative to the current directory) or pass - to read stdin.",
    unreadable: "Cannot read {file}: {reason}.",
    directory: "{file} is a directory. Pass the world's .json file.",
  },
});

export const FILE_EMPTY = defineCode({
  code: "file/empty",
  severity: "error",
  description: "The world file is empty or holds only whitespace.",
  why: "An empty file usually means an export or a copy went wrong.",
  messages: { empty: "{file} is empty. Export the world again, or start from examples/harbor.world.json." },
});

export const JSON_SYNTAX = defineCode({
  code: "json/syntax",
  severity: "error",
  description: "The file is not valid JSON.",
  why: "World files are strict JSON: no comments, no trailing commas, double-quoted keys and strings.",
  messages: { syntax: "Invalid JSON: {detail}. Fix the file at this position." },
});

export const JSON_TOO_DEEP = defineCode({
  code: "json/too-deep",
  severity: "error",
  description: "The file nests arrays or objects deeper than any world needs.",
  why: "Worlds nest a few levels deep. Thousands of levels are a broken export or a hostile file; refusing them early keeps every tool safe from stack exhaustion.",
  messages: {
    deep: "The file nests arrays or objects more than {limit} levels deep at this position. Check the export: worlds never need more than a few dozen levels.",
  },
});

export const SHAPE_PROTO_KEY = defineCode({
  code: "shape/proto-key",
  severity: "error",
  description: "An object uses the key `__proto__`.",
  why: "`__proto__` is special in JavaScript: many tools (the schema checker among them) skip it, so whatever sits under it would escape checking and could confuse the engine.",
  messages: { proto: 'Key "__proto__" is not allowed in {parent}. Rename or remove it.' },
  examples: {
    bad: {
      locations: { "Fen Hut": { areas: JSON.parse('{"__proto__": {"description": "x", "paths": []}}') } },
    },
    good: { locations: { "Fen Hut": { areas: { Porch: { description: "Creaking boards.", paths: [] } } } } },
  },
});

export const WORLD_NOT_OBJECT = defineCode({
  code: "world/not-object",
  severity: "error",
  description: "The top level of the file is not a JSON object.",
  why: "A world is one JSON object holding all of its sections.",
  messages: { notObject: "The top level is {actual}; a world must be one JSON object ({ ... })." },
});

export const WORLD_UNSUPPORTED_VERSION = defineCode({
  code: "world/unsupported-version",
  severity: "error",
  description: "The file is a world of another format version.",
  why: "Fields differ between versions; checking another version against V33 would bury the one real problem under hundreds of field errors.",
  messages: {
    version:
      'This world is format {found}; Taleforge reads V33 (configVersion "V33", heroesVersion 33). Export it as V33 or use a tool for {found}.',
    marker:
      'Field "{field}" belongs to a later format version; Taleforge reads V33. Export the world as V33.',
  },
});

export const WORLD_MOD_FRAGMENT = defineCode({
  code: "world/mod-fragment",
  severity: "error",
  description:
    "The file is a mod fragment (a few sections and a `mods` list, no version field, and at most one of a world's own sections: realms, regions, locations, storyStarts, npcs, quests, worldLore), not a whole world.",
  why: "Mods hold only the sections they change; checking one as a world would list every missing section.",
  messages: {
    fragment:
      'This file looks like a mod fragment (sections: {sections}), not a world: it has "mods" but no "configVersion" or "heroesVersion". Merge it into a world and check the world.',
  },
});

export const WORLD_VERSION_FIELD = defineCode({
  code: "world/version-field",
  severity: "error",
  description: "The product version field is not `heroesVersion: 33`.",
  why: "Every V33 world carries `heroesVersion` with the value 33 (the format's `<product>Version` field, here `heroesVersion`).",
  messages: {
    other: 'Version field "{field}" is not recognised. V33 worlds use "heroesVersion": 33; rename it.',
  },
  examples: { bad: { heroesVersion: undefined, storyVersion: 33 }, good: { heroesVersion: 33 } },
});

export const SHAPE_MISSING_FIELD = defineCode({
  code: "shape/missing-field",
  severity: "error",
  description: "A required field is missing.",
  why: "The engine reads every required field; a missing one breaks play or the character creator.",
  messages: { missing: 'Missing required field "{field}" in {parent}. Add it{hint}.' },
  examples: {
    bad: { traits: { Brave: { abilities: undefined } } },
    good: { traits: { Brave: { abilities: [] } } },
  },
});

export const SHAPE_WRONG_TYPE = defineCode({
  code: "shape/wrong-type",
  severity: "error",
  description: "A field holds a value of the wrong JSON type.",
  why: "The engine expects each field's type as docs/format.md gives it; a string where a number belongs is not converted.",
  messages: { type: '"{field}" must be {expected}, but it is {actual}.' },
  examples: {
    bad: { locations: { "Old Mill": { radius: "5" } } },
    good: { locations: { "Old Mill": { radius: 5 } } },
  },
});

export const SHAPE_INVALID_VALUE = defineCode({
  code: "shape/invalid-value",
  severity: "error",
  description: "A field holds a value outside its allowed set.",
  why: "Enumerated fields (complexity, detail type, tier, quest status...) only accept the values listed in docs/format.md.",
  messages: { value: '"{field}" is {actual}; expected {expected}.{suggestion}' },
  examples: {
    bad: { locations: { "Old Mill": { complexityType: "medium" } } },
    good: { locations: { "Old Mill": { complexityType: "simple" } } },
  },
});

export const SHAPE_UNKNOWN_FIELD = defineCode({
  code: "shape/unknown-field",
  severity: "warning",
  description: "A field that the format does not define.",
  why: "Unknown fields are kept and saved back, but the engine ignores them: usually a typo of a real field.",
  messages: {
    unknown: 'Unknown field "{field}" in {parent}: it is kept but the engine ignores it.{suggestion}',
  },
  examples: {
    bad: { locations: { "Old Mill": { complexity: "simple" } } },
    good: { locations: { "Old Mill": { complexityType: "simple" } } },
  },
});

export const COMPAT_MISSING_GAME_MODES = defineCode({
  code: "compat/missing-game-modes",
  severity: "warning",
  description: "`gameModes` is missing; it is read as `{}`.",
  why: "Real exports omit `gameModes`. The world loads, but players get no mode choice.",
  messages: {
    missing: '"gameModes" is missing; loaded as {}. Add "gameModes": {} (or define modes) to silence this.',
  },
  examples: { bad: { gameModes: undefined }, good: { gameModes: {} } },
});

export const COMPAT_MISSING_SETTING = defineCode({
  code: "compat/missing-setting",
  severity: "warning",
  description: "A settings field that older exports omit is missing; it is read with a default.",
  why: "Worlds exported before the field existed are still valid to play; the default matches the older behaviour.",
  messages: { missing: '"{field}" is missing in {section}; loaded as {fallback}. Add it to silence this.' },
  examples: {
    bad: { skillSettings: { newSkillGenerationEnabled: undefined } },
    good: { skillSettings: { newSkillGenerationEnabled: false } },
  },
});

export const COMPAT_MISSING_FIELD = defineCode({
  code: "compat/missing-field",
  severity: "warning",
  description:
    "A record field that real worlds omit and the hosted platform tolerates is missing (a premade character's `attributes` or `traits`); it is read with an empty default. A missing `gender` or `description` is a `shape/missing-field` error: the platform's codec requires them.",
  why: "Worlds written for the hosted platform are played there without these fields. Refusing them would make a playable world unplayable; the empty default (no attribute bonus, no trait, no text) is what the platform evidently does.",
  messages: {
    missing:
      '"{field}" is missing in {record}; loaded as {fallback}. Add "{field}": {fallback} (or fill it in) to silence this.',
  },
  examples: {
    bad: { premadeCharacters: [{ name: "Ada", gender: "female", description: "A miller.", traits: [] }] },
    good: {
      premadeCharacters: [
        { name: "Ada", gender: "female", description: "A miller.", attributes: {}, traits: [] },
      ],
    },
  },
});

export const COMPAT_REPAIRED = defineCode({
  code: "compat/repaired",
  severity: "warning",
  description:
    "`serve` (like `play`) repaired an error with one obvious reading before playing the world: a missing map, a map written as an array, a trait requirement without `amount`, a name that differs from its key (src/world/repair.ts).",
  why: "The hosted platform plays worlds with these errors; refusing them would make a playable world unplayable. `check` still reports each as an error, and `play --strict` refuses them: fix them in the file to silence this.",
  messages: {
    repaired: "Repaired for play: {repair}. `taleforge check` reports it as an error; fix it in the file.",
  },
});

export const TRAIT_NARRATIVE_FIELD = defineCode({
  code: "trait/narrative-field",
  severity: "error",
  description:
    "A trait needs exactly one of `traitNarrativeEffects` (docs/format.md, traits) or `quirk` (older exports).",
  why: "The narrator reads the trait's narrative guidance from one of these fields; with both, it is unclear which one wins.",
  messages: {
    none: 'Trait "{trait}" has neither "traitNarrativeEffects" nor "quirk". Add "traitNarrativeEffects" (the narrator\'s guidance for the trait).',
    both: 'Trait "{trait}" has both "traitNarrativeEffects" and "quirk". Keep one ("traitNarrativeEffects" is the current name).',
  },
  examples: {
    bad: { traits: { Brave: { quirk: "Fearless.", traitNarrativeEffects: "Fearless." } } },
    good: { traits: { Brave: { traitNarrativeEffects: "Fearless." } } },
  },
});

export const JSON_DUPLICATE_KEY = defineCode({
  code: "json/duplicate-key",
  severity: "warning",
  description: "A JSON object has the same key twice.",
  why: "JSON readers keep only the last of two equal keys, so the first value is silently lost: usually a record pasted twice, or two records given the same name. Both places are reported, each pointing at the other.",
  messages: {
    ignored:
      "Key {key} appears again in {parent} at line {otherLine}, column {otherColumn}; the later one wins, so this value is ignored. Remove one, or rename it.",
    wins: "Key {key} already appears in {parent} at line {otherLine}, column {otherColumn}; this later one wins and that value is lost. Remove one, or rename it.",
  },
});

export const LOAD_CODES = [
  FILE_NOT_FOUND,
  FILE_EMPTY,
  JSON_SYNTAX,
  JSON_TOO_DEEP,
  JSON_DUPLICATE_KEY,
  WORLD_NOT_OBJECT,
  WORLD_UNSUPPORTED_VERSION,
  WORLD_MOD_FRAGMENT,
  WORLD_VERSION_FIELD,
  SHAPE_MISSING_FIELD,
  SHAPE_WRONG_TYPE,
  SHAPE_INVALID_VALUE,
  SHAPE_UNKNOWN_FIELD,
  SHAPE_PROTO_KEY,
  COMPAT_MISSING_GAME_MODES,
  COMPAT_MISSING_SETTING,
  COMPAT_MISSING_FIELD,
  COMPAT_REPAIRED,
  TRAIT_NARRATIVE_FIELD,
  FILE_ENCODING,
];
