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
  "item/unknown-category": { source: "codec", reason: CODEC_TOLERATES },
  "skill/unknown-attribute": { source: "codec", reason: CODEC_TOLERATES },
  "quest/no-init-trigger": {
    source: "spec",
    reason: "Spec 1.7: every quest needs at least one trigger that fires its `quest-init`.",
  },
  "keys/name-mismatch": {
    source: "spec",
    reason:
      "Spec 2: the outer key must equal the inner name; `play` and `serve` repair it in content maps by taking the key.",
  },
  "trigger/story-at-tick-0": {
    source: "spec",
    reason:
      "Spec 3: a story effect at tick 0 cannot reach the opening; a warning, since the world still plays.",
  },
};

/** A category's basis, for the codes not listed above. */
const BY_CATEGORY: Record<string, Basis> = {
  file: { source: "taleforge", reason: "Nothing can be read: there is no world to check." },
  json: { source: "spec", reason: "A world is one JSON object (spec 1.1)." },
  world: { source: "spec", reason: "The file must be a whole V33 world (spec 2.1)." },
  shape: { source: "spec", reason: "The field types and required fields of spec 2." },
  compat: {
    source: "codec",
    reason: "Real exports omit it and the platform plays them; read with a default.",
  },
  keys: { source: "spec", reason: "Spec 2: keyed maps." },
  condition: { source: "spec", reason: "Spec 2.2 and 8: condition types, fields and operators." },
  effect: { source: "spec", reason: "Spec 2.2 and 8: effect types, fields and operators." },
  limit: { source: "spec", reason: "The caps of spec 8; over a cap the platform refuses the world." },
  script: {
    source: "taleforge",
    reason: "What the script analysis can prove: errors break every run, warnings may be intended.",
  },
  reference: {
    source: "spec",
    reason: "A trigger's names must resolve (spec 2.2); an error where the engine cannot apply it.",
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
