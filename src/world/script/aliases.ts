import type { AnyNode, Program, Property } from "acorn";
import { fullAncestor } from "acorn-walk";
import { memberKey, propertyKey } from "./ast.ts";

/**
 * Local names that stand for `storage` or for one of its keys, so that the
 * storage analysis (inspect.ts) can attribute reads and writes through them.
 * Real scripts write:
 *
 *   const s = storage;                          // s is storage itself
 *   const guild = storage.factions.guild;       // guild is inside key "factions"
 *   let f = storage.factions || {};             // a default: still "factions"
 *   const { factions, gold = 0, rank: r } = storage;  // reads; factions and r are aliases
 *   const g = storage?.factions?.guild;         // optional chaining
 *
 * A name is followed only when it is bound exactly once in the whole script
 * (any scope), and is never assigned again except by the default idiom
 * `x = x || {}` / `x ??= {}`: anything else could make it point elsewhere,
 * and the analysis would then have to guess.
 */

export interface StorageAlias {
  /** The storage key the name is inside of; null when the name is `storage` itself. */
  key: string | null;
}

export interface Aliases {
  /** Name -> what it stands for. */
  names: Map<string, StorageAlias>;
  /** Declarator `init` nodes (and destructured `storage` nodes) that only create aliases: not a use of storage as a value. */
  sources: Set<AnyNode>;
  /** Keys read by destructuring `storage` (`const { a, b: c } = storage`). */
  destructuredReads: string[];
  /** Destructuring of `storage` that cannot be followed (a rest element, a computed key). */
  dynamic: boolean;
}

/** The storage alias an expression evaluates to, given the aliases known so far; undefined when none. */
function aliasOf(
  node: AnyNode | null | undefined,
  names: Map<string, StorageAlias>,
): StorageAlias | undefined {
  if (!node) return undefined;
  switch (node.type) {
    case "Identifier":
      return node.name === "storage" ? { key: null } : names.get(node.name);
    case "ChainExpression":
      return aliasOf(node.expression, names);
    case "LogicalExpression":
      // `storage.x || {}`, `storage.x ?? []`: the default object is only stored if written back.
      return node.operator === "&&" ? undefined : aliasOf(node.left, names);
    case "MemberExpression": {
      const inner = aliasOf(node.object, names);
      if (!inner) return undefined;
      if (inner.key !== null) return inner;
      const key = memberKey(node);
      return key === undefined ? undefined : { key };
    }
    default:
      return undefined;
  }
}

/**
 * In one walk: how many times each name is bound or assigned (the default
 * idiom `x = x || {}` excepted), and the declarators with an initial value,
 * in the walk's order.
 */
function bindingsAndDeclarators(program: Program): {
  counts: Map<string, number>;
  declarators: (AnyNode & { type: "VariableDeclarator" })[];
} {
  const counts = new Map<string, number>();
  const declarators: (AnyNode & { type: "VariableDeclarator" })[] = [];
  fullAncestor(program, (node, _state, ancestors, type) => {
    if (node.type === "VariableDeclarator") {
      if (node.init) declarators.push(node);
      return;
    }
    if (type !== "VariablePattern" || node.type !== "Identifier") return;
    const parent = ancestors[ancestors.length - 2];
    if (parent?.type === "AssignmentExpression" && parent.left === node && isDefaultIdiom(parent, node.name))
      return;
    counts.set(node.name, (counts.get(node.name) ?? 0) + 1);
  });
  return { counts, declarators };
}

function isDefaultIdiom(node: AnyNode & { type: "AssignmentExpression" }, name: string): boolean {
  if (node.operator === "||=" || node.operator === "??=") return true;
  const right = node.right;
  return (
    node.operator === "=" &&
    right.type === "LogicalExpression" &&
    right.operator !== "&&" &&
    right.left.type === "Identifier" &&
    right.left.name === name
  );
}

export function collectAliases(program: Program): Aliases {
  // One walk collects both: a name's binding count must be known in full before its declarator is read.
  const { counts, declarators } = bindingsAndDeclarators(program);
  const names = new Map<string, StorageAlias>();
  const sources = new Set<AnyNode>();
  const destructuredReads: string[] = [];
  let dynamic = false;
  const once = (name: string) => counts.get(name) === 1 && name !== "storage";
  // Declarations in source order: an alias may be made from an earlier one.
  for (const node of declarators) {
    const init = node.init!;
    const target = aliasOf(init, names);
    if (!target) continue;
    if (node.id.type === "Identifier") {
      if (!once(node.id.name)) continue;
      names.set(node.id.name, target);
      sources.add(init);
      continue;
    }
    if (node.id.type !== "ObjectPattern") continue;
    sources.add(init);
    for (const property of node.id.properties) {
      if (property.type === "RestElement") {
        if (target.key === null) dynamic = true;
        continue;
      }
      // propertyKey reads only `key` and `computed`, which a pattern property has too.
      const key = target.key ?? propertyKey(property as unknown as Property);
      if (key === undefined) {
        dynamic = true;
        continue;
      }
      if (target.key === null) destructuredReads.push(key);
      const value = property.value.type === "AssignmentPattern" ? property.value.left : property.value;
      if (value.type === "Identifier" && once(value.name)) names.set(value.name, { key });
    }
  }
  return { names, sources, destructuredReads, dynamic };
}

/** Whether the node at the end of `ancestors` sits inside one of the alias-making sources (not a use of storage as a value). */
export function insideAliasSource(ancestors: readonly AnyNode[], aliases: Aliases): boolean {
  return ancestors.some((n) => aliases.sources.has(n));
}
