import { LOAD_CODES } from "./codes.ts";
import { LINT_RULES } from "./lint/rules/index.ts";
import type { CodeInfo } from "./rule.ts";
import { RULES } from "./rules/index.ts";

/**
 * Every code the toolkit can report, loading and shape codes included, and the
 * rules of `taleforge lint` (src/world/lint/rules/, not run by `check`): the
 * rules catalogue. A module of its own, not rules/index.ts: importing the lint
 * rules there started them (and the lint analysis they import) in every
 * `check`, which runs none of them (docs/benchmarks.md, issue 38, round 7).
 */
export const CATALOGUE: readonly CodeInfo[] = [...LOAD_CODES, ...RULES, ...LINT_RULES];
