import type fc from "fast-check";

/**
 * How many random cases the property suites try. The default keeps the whole
 * property suite well under 30 s on a 2-core machine; set
 * TALEFORGE_PROPERTY_RUNS (e.g. 50000) for a deeper local hunt, and
 * TALEFORGE_PROPERTY_SEED to replay a failure that fast-check printed.
 */
export const TOTAL_RUNS = positiveInteger(process.env.TALEFORGE_PROPERTY_RUNS) ?? 2000;

const SEED = integer(process.env.TALEFORGE_PROPERTY_SEED);

/** A share of the total run budget, never less than one run. */
export function runs(share: number): number {
  return Math.max(1, Math.round(TOTAL_RUNS * share));
}

/** Options for `fc.assert`: the run count, plus the replay seed when one was given. */
export function assertOptions(share: number): fc.Parameters<unknown> {
  // The error and its stack in the report: a crash must be diagnosable from the test output alone.
  const options = { numRuns: runs(share), includeErrorInReport: true };
  return SEED === undefined ? options : { ...options, seed: SEED };
}

function integer(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const value = Number(text);
  if (!Number.isInteger(value)) throw new Error(`Expected an integer, got ${JSON.stringify(text)}`);
  return value;
}

function positiveInteger(text: string | undefined): number | undefined {
  const value = integer(text);
  if (value !== undefined && value < 1)
    throw new Error(`TALEFORGE_PROPERTY_RUNS must be at least 1, got ${value}`);
  return value;
}
