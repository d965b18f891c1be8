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
  const collector = new AbsentGlobalsCollector();
  fullAncestor(program, (node, _state, ancestors, type) => collector.visit(node, ancestors, type));
  return collector.result();
}

/** A use of an absent global, reported unless the script declares `unless` somewhere. */
interface AbsentUse {
  name: string;
  unless: string | undefined;
  node: AnyNode;
}

/**
 * absentGlobals as a visitor of a walk that other analyses share (inspect.ts): the
 * uses are noted in the walk's order and, since a name may be declared after its use,
 * only `result` drops those of declared names.
 */
export class AbsentGlobalsCollector {
  /** Every name the script declares anywhere (variables, functions, parameters, classes, catch bindings): never reported. */
  private readonly declared = new Set<string>();
  private readonly uses: AbsentUse[] = [];

  /** Called for every node of the walk (acorn-walk's fullAncestor). */
  visit(node: AnyNode, ancestors: AnyNode[], type: string): void {
    this.noteDeclared(node);
    if (node.type === "ImportExpression") {
      this.uses.push({ name: "import()", unless: undefined, node });
      return;
    }
    if (node.type === "MemberExpression" && node.object.type === "Identifier") {
      const key = memberKey(node);
      if (GLOBAL_OBJECTS.has(node.object.name) && key && ABSENT.has(key))
        this.uses.push({ name: `${node.object.name}.${key}`, unless: node.object.name, node });
      return;
    }
    if (node.type !== "Identifier" || type === "VariablePattern") return;
    if (!ABSENT.has(node.name)) return;
    const parent = ancestors[ancestors.length - 2];
    // `typeof require` is how a script tests for a global safely.
    if (parent?.type === "UnaryExpression" && parent.operator === "typeof") return;
    this.uses.push({ name: node.name, unless: node.name, node });
  }

  result(): { name: string; at: ScriptPosition }[] {
    const found = new Map<string, ScriptPosition>();
    for (const { name, unless, node } of this.uses) {
      if (unless !== undefined && this.declared.has(unless)) continue;
      if (!found.has(name)) found.set(name, positionOf(node));
    }
    return [...found].map(([name, at]) => ({ name, at })).sort((a, b) => a.at.offset - b.at.offset);
  }

  private noteDeclared(node: AnyNode): void {
    switch (node.type) {
      case "VariableDeclarator":
        this.collect(node.id);
        return;
      case "FunctionDeclaration":
      case "FunctionExpression":
      case "ArrowFunctionExpression":
        if ("id" in node && node.id) this.collect(node.id);
        for (const p of node.params) this.collect(p);
        return;
      case "ClassDeclaration":
      case "ClassExpression":
        if (node.id) this.collect(node.id);
        return;
      case "CatchClause":
        this.collect(node.param);
        return;
    }
  }

  private collect(pattern: AnyNode | null | undefined): void {
    if (!pattern) return;
    switch (pattern.type) {
      case "Identifier":
        this.declared.add(pattern.name);
        return;
      case "ObjectPattern":
        for (const p of pattern.properties) this.collect(p.type === "RestElement" ? p.argument : p.value);
        return;
      case "ArrayPattern":
        for (const e of pattern.elements) this.collect(e);
        return;
      case "RestElement":
        this.collect(pattern.argument);
        return;
      case "AssignmentPattern":
        this.collect(pattern.left);
        return;
    }
  }
}
