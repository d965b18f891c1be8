import { type Node, parseTree } from "jsonc-parser";
import { JSON_TOO_DEEP } from "../world/codes.ts";
import type { Diagnostic as WorldDiagnostic } from "../world/diagnostic.ts";
import { LINT_RULES } from "../world/lint/index.ts";
import overLimit, { overTriggerLimits } from "../world/lint/rules/over-limit.ts";
import { type LoadedWorld, parseWorld } from "../world/load.ts";
import { type ValidationResult, validateWorld } from "../world/validate.ts";
import { indexNames, type NameIndex } from "./names.ts";

/**
 * One open world file, analysed for one version of its text. Each part is
 * computed when first asked for and kept until the text changes: diagnostics
 * need the loader and the checker only (no syntax tree: a valid world's
 * positions come from the loader's lazy index), while hover, completion and
 * the name features share one tolerant syntax tree and its name index.
 */
export class WorldDocument {
  readonly uri: string;
  readonly version: number;
  readonly text: string;
  #loaded: LoadedWorld | undefined;
  #validation: ValidationResult | undefined;
  #lint: WorldDiagnostic[] | undefined;
  #tree: Node | undefined | null = null;
  #names: NameIndex | undefined;

  constructor(uri: string, version: number, text: string) {
    this.uri = uri;
    this.version = version;
    this.text = text;
  }

  get loaded(): LoadedWorld {
    this.#loaded ??= parseWorld(this.text, fileNameOf(this.uri));
    return this.#loaded;
  }

  /** What `taleforge check` reports. */
  check(): WorldDiagnostic[] {
    return this.validation.diagnostics;
  }

  /** check's whole result (the frozen world with it): what a play-test of this world runs on. */
  get validation(): ValidationResult {
    this.#validation ??= validateWorld(this.loaded);
    return this.#validation;
  }

  /**
   * What `taleforge lint` adds to check: its own rules only, run on the world
   * check has already loaded and frozen (the rules' per-world caches are
   * shared), so that check's results are published first and lint's follow.
   */
  lint(): WorldDiagnostic[] {
    if (this.#lint) return this.#lint;
    const loaded = this.loaded;
    if (loaded.fatal || !loaded.value) {
      this.#lint = [];
      return this.#lint;
    }
    const rules = overTriggerLimits(loaded.value) ? [overLimit] : LINT_RULES;
    const codes = new Set(rules.map((rule) => rule.code));
    // validateWorld reports the loader's and the shape's problems again: only the lint rules' are new.
    // Check's shaped world is reused: the shape is not walked (nor frozen) a second time.
    this.#lint = validateWorld(
      { ...loaded, diagnostics: [] },
      { rules, reuse: this.validation },
    ).diagnostics.filter((d) => codes.has(d.code) || d.code.startsWith("internal/"));
    return this.#lint;
  }

  /**
   * Nested deeper than the loader allows: every parser that recurses (the
   * syntax tree, the JSON language service) is kept away from it; only its
   * diagnostic is published.
   */
  get tooDeep(): boolean {
    return this.loaded.diagnostics.some((d) => d.code === JSON_TOO_DEEP.code);
  }

  /** The tolerant syntax tree (undefined for an empty text). */
  get tree(): Node | undefined {
    // The tree is built by recursion: a text nested deeper than the loader allows (json/too-deep) gets none.
    if (this.#tree === null)
      this.#tree = this.tooDeep
        ? undefined
        : parseTree(this.text, [], { allowTrailingComma: true, disallowComments: false });
    return this.#tree;
  }

  get names(): NameIndex {
    this.#names ??= indexNames(this.tree, this.text);
    return this.#names;
  }

  /** The parsed world as the checker saw it, when it loaded. */
  get value(): Record<string, unknown> | undefined {
    return this.loaded.value;
  }
}

/** The name a diagnostic's file goes by: the path of a file URI, else the URI. */
export function fileNameOf(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}

/** World files by name, and any JSON whose top level says it is a V33 world. */
export function isWorldFile(uri: string, text: string): boolean {
  if (/\.world\.json$/i.test(uri)) return true;
  if (!/\.json$/i.test(uri)) return false;
  const head = text.slice(0, 4096);
  return /"configVersion"\s*:\s*"V33"/.test(head) || /"heroesVersion"\s*:\s*33\b/.test(head);
}

export function isPlaytestFile(uri: string): boolean {
  return /\.test\.ya?ml$/i.test(uri);
}
