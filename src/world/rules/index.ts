import type { CodeInfo, Rule } from "../rule.ts";
import { LOAD_CODES } from "../codes.ts";
import condition from "./condition/index.ts";
import keys from "./keys/index.ts";

/**
 * Every rule, by category folder. A test checks that this list and the files
 * under rules/ agree, and that codes are unique and match their file paths.
 */
export const RULES: readonly Rule[] = [...keys, ...condition];

/** Every code the checker can report, loading and shape codes included: the rules catalogue. */
export const CATALOGUE: readonly CodeInfo[] = [...LOAD_CODES, ...RULES];
