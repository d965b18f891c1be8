import { z } from "zod";
import type { JsonPath } from "../../world/diagnostic.ts";
import { kindOf, parseText } from "./parse.ts";
import { byPosition, type Problem, problemAt } from "./problem.ts";
import { findUnknownKeys } from "./shape.ts";

/**
 * Labelled cases for `taleforge eval` (docs/eval.md): for an AI-judged
 * condition of a trigger, a story so far and/or an action, and whether the
 * condition should pass. Read with the play-tests' YAML parser (the same
 * limits, positions and problem codes).
 */
export const LabelledCase = z.object({
  /** The trigger's key. */
  trigger: z.string().regex(/\S/, "must not be empty"),
  /** The condition's index in the trigger's `conditions` (default: its first AI-judged one). */
  condition: z.number().int().min(0).optional(),
  /** The story so far, judged by `story` conditions. */
  story: z.string().max(20_000).optional(),
  /** The player's action this turn, judged by `action` conditions. */
  action: z.string().max(2_000).optional(),
  /** Whether the condition should pass. */
  expect: z.union([z.boolean(), z.enum(["pass", "fail"])]),
  /** A note for the author (where the case came from). */
  note: z.string().optional(),
});

export const CasesFile = z.object({
  /** The world the cases are for (informational; `taleforge eval` names its world). */
  world: z.string().optional(),
  cases: z.array(LabelledCase).max(10_000),
});

export type LabelledCase = z.infer<typeof LabelledCase>;
export type CasesFile = z.infer<typeof CasesFile>;

/** A cases file's text, checked: its cases, or the problems that keep it from running (with positions). */
export function parseCases(text: string, file: string): { cases: LabelledCase[]; problems: Problem[] } {
  const parsed = parseText(text, kindOf(file));
  if (parsed.problems.length > 0) return { cases: [], problems: parsed.problems };
  const problems: Problem[] = [];
  findUnknownKeys(CasesFile, parsed.value, [], parsed.locate, problems);
  const result = CasesFile.safeParse(parsed.value);
  if (!result.success)
    for (const issue of result.error.issues) {
      const path = issue.path as JsonPath;
      problems.push(
        problemAt(
          parsed.locate,
          "playtest/invalid-value",
          path,
          "other",
          { field: path.length > 0 ? `\`${path.join(".")}\`` : "The file", issue: issue.message },
          false,
        ),
      );
    }
  if (problems.length > 0) return { cases: [], problems: problems.sort(byPosition) };
  return { cases: result.data!.cases, problems: [] };
}
