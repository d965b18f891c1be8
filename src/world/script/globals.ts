import type { AnyNode, Program } from "acorn";
import { fullAncestor } from "acorn-walk";
import { memberKey, positionOf } from "./ast.ts";
import type { ScriptPosition } from "./position.ts";

/**
 * Globals of Node or of browsers that the script sandbox does not have
 * (docs/scripts.md, "What is absent"). A test runs `typeof` of each in the
 * real sandbox, so that this list cannot claim what is not true.
 */
export const ABSENT_GLOBALS = [
  "require",
  "module",
  "exports",
  "process",
  "Buffer",
  "fetch",
  "XMLHttpRequest",
  "setTimeout",
  "setInterval",
  "setImmediate",
  "clearTimeout",
  "clearInterval",
  "clearImmediate",
  "__dirname",
  "__filename",
  "eval",
  "Function",
  "WebAssembly",
  "SharedArrayBuffer",
  "Atomics",
  "WeakRef",
  "FinalizationRegistry",
] as const;

const ABSENT = new Set<string>(ABSENT_GLOBALS);
/** Names through which a global can be reached as a property. */
const GLOBAL_OBJECTS = new Set(["globalThis", "self", "window", "global"]);

/** The first use of each absent global in a script, in source order. */
export function absentGlobals(program: Program): { name: string; at: ScriptPosition }[] {
  const declared = declaredNames(program);
  const found = new Map<string, ScriptPosition>();
  const note = (name: string, node: AnyNode) => {
    if (!found.has(name)) found.set(name, positionOf(node));
  };
  fullAncestor(program, (node, _state, ancestors, type) => {
    if (node.type === "ImportExpression") return note("import()", node);
    if (node.type === "MemberExpression" && node.object.type === "Identifier") {
      const key = memberKey(node);
      if (GLOBAL_OBJECTS.has(node.object.name) && !declared.has(node.object.name) && key && ABSENT.has(key))
        note(`${node.object.name}.${key}`, node);
      return;
    }
    if (node.type !== "Identifier" || type === "VariablePattern") return;
    if (!ABSENT.has(node.name) || declared.has(node.name)) return;
    const parent = ancestors[ancestors.length - 2];
    // `typeof require` is how a script tests for a global safely.
    if (parent?.type === "UnaryExpression" && parent.operator === "typeof") return;
    note(node.name, node);
  });
  return [...found].map(([name, at]) => ({ name, at })).sort((a, b) => a.at.offset - b.at.offset);
}

/** Every name the script declares anywhere (variables, functions, parameters, classes, catch bindings): never reported. */
function declaredNames(program: Program): Set<string> {
  const names = new Set<string>();
  const collect = (pattern: AnyNode | null | undefined): void => {
    if (!pattern) return;
    switch (pattern.type) {
      case "Identifier":
        names.add(pattern.name);
        return;
      case "ObjectPattern":
        for (const p of pattern.properties) collect(p.type === "RestElement" ? p.argument : p.value);
        return;
      case "ArrayPattern":
        for (const e of pattern.elements) collect(e);
        return;
      case "RestElement":
        collect(pattern.argument);
        return;
      case "AssignmentPattern":
        collect(pattern.left);
        return;
    }
  };
  fullAncestor(program, (node) => {
    switch (node.type) {
      case "VariableDeclarator":
        collect(node.id);
        return;
      case "FunctionDeclaration":
      case "FunctionExpression":
      case "ArrowFunctionExpression":
        if ("id" in node && node.id) collect(node.id);
        for (const p of node.params) collect(p);
        return;
      case "ClassDeclaration":
      case "ClassExpression":
        if (node.id) collect(node.id);
        return;
      case "CatchClause":
        collect(node.param);
        return;
    }
  });
  return names;
}
