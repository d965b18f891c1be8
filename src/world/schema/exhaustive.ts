/**
 * The `default` of a switch over every condition or effect type. At run time
 * a type the schema does not have (the check rules report it) lands here and
 * is passed over; at compile time a schema type with no `case` of its own is
 * an error here ("not assignable to parameter of type 'never'"), so a new type
 * names each place that must decide what to do with it. `test/catalogue.test.ts`
 * checks the same by name.
 */
export function otherType(_type: never): void {}
