import fc from "fast-check";

/**
 * Values near the format's own, for property tests of the shape step: the right types and wrong
 * ones, missing fields and extra ones. `keys` are the field names records are made of, `words` the
 * strings and numbers that pick a branch (condition and effect types, operators, the version).
 */
export function formatValues(
  keys: readonly string[],
  words: readonly (string | number)[],
): { scalar: fc.Arbitrary<unknown>; value: fc.Arbitrary<unknown> } {
  const scalar = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.string(),
    fc.constantFrom(...words),
  );
  const value = fc.letrec((tie) => ({
    any: fc.oneof(
      { depthSize: "small" },
      scalar,
      fc.array(tie("any"), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom(...keys), tie("any"), { maxKeys: 5 }),
    ),
  })).any;
  return { scalar, value };
}
