import type { AnyNode } from "acorn";
import { fullAncestor } from "acorn-walk";
import { literalString } from "../../world/script/ast.ts";
import { parseScript } from "../../world/script/inspect.ts";

/** Trigger keys the scripts of a world may add during play, as far as reading the scripts tells. */
export interface ScriptTriggerNames {
  /** String literals used as keys of `triggers` (`triggers.x`, `triggers["x"]`, `Object.assign(triggers, {x: …})`). */
  names: ReadonlySet<string>;
  /** Some script writes to `triggers` under a key computed at run time (or aliases it), so any key may appear. */
  anyName: boolean;
}

/**
 * What `fired`/`notFired` of a play-test may name beyond the live triggers:
 * a key some script may add, so that an author can assert that a script's
 * addition was discarded (it never fires). Scripts that do not parse add
 * nothing (they never run).
 */
export function scriptTriggerNames(scripts: Iterable<string>): ScriptTriggerNames {
  const names = new Set<string>();
  let anyName = false;
  for (const source of scripts) {
    const parsed = parseScript(source);
    if (!parsed.ok) continue;
    fullAncestor(parsed.program, (node, _state, ancestors) => {
      if (node.type !== "Identifier" || node.name !== "triggers") return;
      const parent = ancestors[ancestors.length - 2];
      if (!parent) return;
      if (parent.type === "MemberExpression" && parent.object === node) {
        const key = parent.computed ? literalString(parent.property) : propertyName(parent.property);
        if (key !== undefined) names.add(key);
        else if (isWriteTarget(parent, ancestors.slice(0, -2))) anyName = true;
        return;
      }
      if (isAssignFirstArgument(parent, node)) {
        const source = (parent as AnyNode & { arguments: AnyNode[] }).arguments[1];
        if (source?.type !== "ObjectExpression") anyName = true;
        else
          for (const property of source.properties) {
            const key =
              property.type === "Property"
                ? property.computed
                  ? literalString(property.key)
                  : propertyName(property.key)
                : undefined;
            if (key !== undefined) names.add(key);
            else anyName = true;
          }
        return;
      }
      // `const t = triggers` (or passing it to a function): writes through the alias cannot be followed.
      if (
        parent.type === "VariableDeclarator" ||
        parent.type === "AssignmentExpression" ||
        parent.type === "CallExpression"
      )
        anyName = true;
    });
  }
  return { names, anyName };
}

function propertyName(node: AnyNode): string | undefined {
  return node.type === "Identifier" ? node.name : literalString(node);
}

/** `triggers[k] = …`, `triggers[k].name = …`, `triggers[k] ??= …`: a write under a computed key. */
function isWriteTarget(member: AnyNode, outer: AnyNode[]): boolean {
  let current: AnyNode = member;
  for (let i = outer.length - 1; i >= 0; i--) {
    const up = outer[i]!;
    if (up.type === "AssignmentExpression") return up.left === current;
    if (up.type === "UpdateExpression") return true;
    if (up.type !== "MemberExpression" || up.object !== current) return false;
    current = up;
  }
  return false;
}

function isAssignFirstArgument(parent: AnyNode, node: AnyNode): boolean {
  if (parent.type !== "CallExpression" || parent.arguments[0] !== node) return false;
  const callee = parent.callee;
  return (
    callee.type === "MemberExpression" &&
    callee.object.type === "Identifier" &&
    callee.object.name === "Object" &&
    !callee.computed &&
    callee.property.type === "Identifier" &&
    callee.property.name === "assign"
  );
}
