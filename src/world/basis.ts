/**
 * Why each code has its severity (issue 35): the hosted platform's codec
 * (what its importer refuses), the spec (world-config-v33.md, or
 * resolutions.md where it is silent), or Taleforge's own judgement. The
 * reference rules of the platform's codec are errors: a non-empty name that
 * resolves to nothing is refused there, and `""` is "not set" everywhere a
 * name is optional in practice. docs/rules.md renders this table.
 */

export type BasisSource = "codec" | "spec" | "taleforge";

export interface Basis {
  source: BasisSource;
  /** One sentence: why the severity is what it is. */
  reason: string;
}

const CODEC_REFERENCE =
  'The platform\'s codec checks this reference: a non-empty name that resolves to nothing is refused; `""` is not set.';
const CODEC_TOLERATES = "The platform's codec does not check this; the world plays, so Taleforge warns.";

/** Codes whose basis is not their category's (below). */
const BY_CODE: Record<string, Basis> = {
  "npc/unknown-location": { source: "codec", reason: CODEC_REFERENCE },
  "npc/unknown-faction": { source: "codec", reason: CODEC_REFERENCE },
  "npc/unknown-type": { source: "codec", reason: CODEC_REFERENCE },
  "item/unknown-bonus-variable": { source: "codec", reason: CODEC_REFERENCE },
  "quest/unknown-location": { source: "codec", reason: CODEC_REFERENCE },
  "trait/unknown-ability": { source: "codec", reason: CODEC_REFERENCE },
  "trait/unknown-skill": { source: "codec", reason: CODEC_REFERENCE },
  "trait/unknown-resource": { source: "codec", reason: CODEC_REFERENCE },
  "trait/category-unknown-trait": { source: "codec", reason: CODEC_REFERENCE },
  "location/unknown-region": { source: "codec", reason: CODEC_REFERENCE },
  "story-start/unknown-item": { source: "codec", reason: CODEC_REFERENCE },
  "story-start/unknown-quest": { source: "codec", reason: CODEC_REFERENCE },
  "shape/missing-field": {
    source: "codec",
    reason:
      "The codec requires these fields (a premade character's name, gender and description among them); a missing map that play can default is repaired by `play` and `serve` (docs/cli.md).",
  },
  "compat/missing-field": {
    source: "codec",
    reason: "The codec does not require a premade character's attributes or traits; read as empty.",
  },
  "compat/missing-game-modes": {
    source: "codec",
    reason: "Exports without `gameModes` play on the platform.",
  },
  "compat/missing-setting": {
    source: "codec",
    reason: "Older exports omit it and play; read with a default.",
  },
  "compat/repaired": {
    source: "codec",
    reason:
      "An error with one obvious reading that the platform plays (a missing map, a map written as an array, a trait requirement without amount, a name that differs from its key): `play` and `serve` repair it on a copy and say so; `check` still reports the error.",
  },
  "item/unknown-category": { source: "codec", reason: CODEC_TOLERATES },
  "skill/unknown-attribute": { source: "codec", reason: CODEC_TOLERATES },
  "quest/no-init-trigger": {
    source: "spec",
    reason:
      "Every quest starts hidden and only a trigger's `quest-init` makes it available, so every quest needs a trigger that fires one ([quests](format.md#quests)); `play` and `serve` still play the world, that quest hidden.",
  },
  "keys/name-mismatch": {
    source: "spec",
    reason:
      "In every keyed map the key must equal the record's `name` (references use the key); `play` and `serve` repair it in content maps by taking the key.",
  },
  "trigger/story-at-tick-0": {
    source: "spec",
    reason:
      "The opening is written before any trigger runs, so a `story` effect at tick 0 cannot reach it; a warning, since the world still plays.",
  },
};

/** A category's basis, for the codes not listed above. */
const BY_CATEGORY: Record<string, Basis> = {
  file: { source: "taleforge", reason: "Nothing can be read: there is no world to check." },
  json: {
    source: "spec",
    reason: "A world is one plain JSON object (no comments, no trailing commas); nothing else can be read.",
  },
  world: {
    source: "spec",
    reason:
      'The file must be a whole V33 world, `configVersion` "V33" and `heroesVersion` 33 ([versions](format.md#versions)).',
  },
  shape: {
    source: "spec",
    reason: "Each field's type and whether it is required, as [the world format](format.md) lists them.",
  },
  compat: {
    source: "codec",
    reason: "Real exports omit it and the platform plays them; read with a default.",
  },
  keys: {
    source: "spec",
    reason:
      "In every keyed map (locations, NPCs, quests…) the key is the record's name, which references use.",
  },
  condition: {
    source: "spec",
    reason:
      "Each condition type has its own fields, operators and value types ([triggers](format.md#triggers)); a condition that breaks them cannot be evaluated.",
  },
  effect: {
    source: "spec",
    reason:
      "Each effect type has its own fields, operators and value types ([triggers](format.md#triggers)); an effect that breaks them cannot be applied.",
  },
  limit: {
    source: "spec",
    reason:
      "The format caps the sizes and counts of sections, triggers and texts; over a cap the platform refuses the world.",
  },
  script: {
    source: "taleforge",
    reason: "What the script analysis can prove: errors break every run, warnings may be intended.",
  },
  reference: {
    source: "spec",
    reason:
      "A name a trigger uses must be one the world defines ([triggers](format.md#triggers)); an error where the engine cannot apply it.",
  },
  text: { source: "taleforge", reason: "Control characters are never shown raw (the hardening principles)." },
  lint: {
    source: "taleforge",
    reason: "Found by following what can happen in play: worth a look, never a refusal.",
  },
};

const FALLBACK: Basis = {
  source: "taleforge",
  reason:
    "Taleforge's judgement: an error where the engine cannot play it as written, a warning where it can.",
};

/**
 * Errors the platform plays a world with: they leave only their own content dead (a quest that
 * never becomes available), and real exports have them. `play` plays every rule error; `serve`
 * stores a world whose errors left after its repairs are all of these (and reports them), so a
 * real world `play` accepts is accepted there too; any other error refuses the upload.
 */
export const PLAYED_WITH: ReadonlySet<string> = new Set(["quest/no-init-trigger"]);

export function basisOf(code: string): Basis {
  return BY_CODE[code] ?? BY_CATEGORY[code.split("/")[0] ?? ""] ?? FALLBACK;
}

/** The codes the table names one by one (a catalogue test checks that each exists). */
export const BASIS_CODES: readonly string[] = Object.keys(BY_CODE);
