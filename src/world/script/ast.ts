import type { AnyNode, Property } from "acorn";
import type { ScriptPosition } from "./position.ts";

/**
 * Small readings of a script's syntax tree shared by the script analyses
 * (inspect.ts: storage, quest-inits, checks; effects.ts: effects and
 * trigger edits), so both read member chains and static keys the same way.
 */

/** A string literal or a template literal without substitutions. */
export function literalString(node: AnyNode | undefined): string | undefined {
  if (node?.type === "Literal" && typeof node.value === "string") return node.value;
  if (node?.type === "TemplateLiteral" && node.expressions.length === 0)
    return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** A number literal, or `-` before one. */
export function literalNumber(node: AnyNode): number | undefined {
  if (node.type === "Literal" && typeof node.value === "number") return node.value;
  if (
    node.type === "UnaryExpression" &&
    node.operator === "-" &&
    node.argument.type === "Literal" &&
    typeof node.argument.value === "number"
  )
    return -node.argument.value;
  return undefined;
}

/**
 * The static name of an object literal's property: `a`, `"a"`, `1`, `["a"]`,
 * `` [`a`] ``, `[1]`, `[-1]`; undefined when it is computed at run time.
 */
export function propertyKey(property: Property): string | undefined {
  const { key } = property;
  if (!property.computed) {
    if (key.type === "Identifier") return key.name;
    if (key.type === "Literal") return String(key.value);
    return undefined;
  }
  const number = literalNumber(key);
  return number === undefined ? literalString(key) : String(number);
}

/** Where a node starts: 1-based line and column, 0-based offset. */
export function positionOf(node: AnyNode): ScriptPosition {
  const start = node.loc?.start;
  return { line: start?.line ?? 1, column: (start?.column ?? 0) + 1, offset: node.start };
}

/** The static name of `a.b`, `a["b"]`, `a[0]` or `` a[`b`] ``; undefined when computed at run time. */
export function memberKey(node: AnyNode & { type: "MemberExpression" }): string | undefined {
  if (!node.computed) return node.property.type === "Identifier" ? node.property.name : undefined;
  if (node.property.type === "Literal" && typeof node.property.value === "number")
    return String(node.property.value);
  return literalString(node.property);
}

/**
 * From an identifier (the last of `ancestors`, outermost first) used as
 * `id.x.y.z` (optional chains included), climbs to the whole member
 * expression: `top`, how many members deep it goes, the node around it
 * (`context`) and that node's index in `ancestors`.
 */
export function climbMembers(ancestors: readonly AnyNode[]): {
  top: AnyNode;
  depth: number;
  context: AnyNode | undefined;
  at: number;
} {
  let top: AnyNode = ancestors[ancestors.length - 2]!;
  let depth = 1;
  let i = ancestors.length - 3;
  for (; i >= 0; i--) {
    const up = ancestors[i]!;
    if (up.type === "MemberExpression" && up.object === top) depth++;
    else if (!(up.type === "ChainExpression" && up.expression === top)) break;
    top = up;
  }
  return { top, depth, context: ancestors[i], at: i };
}
