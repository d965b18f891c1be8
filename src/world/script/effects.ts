import type { AnyNode } from "acorn";
import { climbMembers, literalNumber, literalString, memberKey, positionOf, propertyKey } from "./ast.ts";
import type { ScriptPosition } from "./position.ts";

/**
 * What a trigger script can make happen through its `effects` and `triggers`
 * globals (spec 4), as far as reading it tells, for analyses that must never
 * claim something cannot happen when a script could do it (taleforge lint).
 *
 * Effects are followed only when they are written as object literals and put
 * straight into `effects` (`effects.push({...})`, `effects = [{...}]`,
 * `effects[i] = {...}`, `effects.splice(i, n, {...})`) or into the `effects`
 * of a trigger the script adds with an object literal (`triggers.x = {...}`).
 * Anything else that could add or change an effect or a trigger (an effect
 * held in a variable, `effects[0].value = …`, `triggers.x.conditions = []`, a
 * local variable named `effects`, `globalThis`, `this`, `eval`, `with`) makes
 * the script opaque: it may then do anything. Removing effects or triggers
 * (`effects.length = 0`, `effects.pop()`, `delete triggers.x`) and reading
 * them in a test (`if (triggers.x)`) are followed.
 */

/** A JSON value written literally in a script. */
export type LiteralValue = string | number | boolean | null | LiteralValue[];

export interface ScriptEffect {
  /** The effect's `type`, always a literal. */
  type: string;
  /** Fields whose values are literals. */
  fields: Record<string, LiteralValue>;
  /** Fields whose values are computed at run time (any value may come out). */
  computed: string[];
  at: ScriptPosition;
}

export interface ScriptEffects {
  /** Effect object literals the script can apply (its own, and those of the triggers it adds), in source order. */
  literals: ScriptEffect[];
  /**
   * Where the script first does something with effects or triggers that
   * reading cannot follow (so it may apply any effect, add any trigger, or
   * read and write any storage key); null when everything is followed.
   */
  opaque: ScriptPosition | null;
  /** Storage keys read through `check({type: "read-…", key: "…"})` and the literal conditions of added triggers. */
  checkReads: string[];
  /** Some `check()` call (or added condition) reads a storage key that is not a literal, or `check` is used as a value. */
  checkReadsDynamic: boolean;
}

const ESCAPES = new Set(["globalThis", "self", "window", "global", "eval", "Function", "Reflect"]);
/** Array methods of `effects` that only remove or reorder effects (their results may be used freely). */
const REMOVERS = new Set(["pop", "shift", "reverse"]);
/** Calls whose arguments are only printed. */
const LOGGERS = new Set(["log"]);

export class ScriptEffectsCollector {
  private readonly literals: ScriptEffect[] = [];
  private opaque: ScriptPosition | null = null;
  private readonly checkReads = new Set<string>();
  private checkReadsDynamic = false;

  /** Called for every node of the walk (acorn-walk's fullAncestor). */
  visit(node: AnyNode, ancestors: AnyNode[], type: string): void {
    // Once opaque, the script may do anything: nothing more needs noting.
    if (this.opaque) return;
    if (node.type === "ThisExpression" || node.type === "WithStatement") {
      this.giveUp(node);
      return;
    }
    if (node.type === "CallExpression") {
      this.checkCall(node);
      return;
    }
    if (node.type !== "Identifier") return;
    if (type === "VariablePattern") {
      if (node.name === "effects") this.effectsPattern(node, ancestors);
      else if (node.name === "triggers" || node.name === "check" || ESCAPES.has(node.name)) this.giveUp(node);
      return;
    }
    if (ESCAPES.has(node.name)) this.giveUp(node);
    else if (node.name === "effects") this.effectsUse(node, ancestors);
    else if (node.name === "triggers") this.triggersUse(node, ancestors);
    else if (node.name === "check") {
      const parent = ancestors[ancestors.length - 2];
      if (!(parent?.type === "CallExpression" && parent.callee === node)) this.checkReadsDynamic = true;
    }
  }

  result(): ScriptEffects {
    return {
      literals: this.literals,
      opaque: this.opaque,
      checkReads: [...this.checkReads],
      checkReadsDynamic: this.checkReadsDynamic || this.opaque !== null,
    };
  }

  private giveUp(node: AnyNode): void {
    this.opaque ??= positionOf(node);
  }

  /** `effects` as a pattern: `effects = [...]` is followed; a local `effects` shadows the global. */
  private effectsPattern(node: AnyNode, ancestors: AnyNode[]): void {
    const parent = ancestors[ancestors.length - 2];
    if (parent?.type === "AssignmentExpression" && parent.operator === "=" && parent.left === node) {
      if (!this.effectList(parent.right)) this.giveUp(node);
      return;
    }
    this.giveUp(node);
  }

  private effectsUse(node: AnyNode, ancestors: AnyNode[]): void {
    const parent = ancestors[ancestors.length - 2];
    const grand = ancestors[ancestors.length - 3];
    if (parent?.type === "UnaryExpression" && parent.operator === "typeof") return;
    if (parent?.type !== "MemberExpression" || parent.object !== node) {
      this.giveUp(node);
      return;
    }
    const key = memberKey(parent);
    if (!parent.computed && key === "length") return;
    const called = grand?.type === "CallExpression" && grand.callee === parent;
    if (called && !parent.computed) {
      if (key === "push" || key === "unshift") {
        if (!grand.arguments.every((argument) => this.effectLiteral(argument))) this.giveUp(node);
        return;
      }
      if (key === "splice") {
        if (!grand.arguments.slice(2).every((argument) => this.effectLiteral(argument))) this.giveUp(node);
        return;
      }
      if (key !== undefined && REMOVERS.has(key) && (key !== "reverse" || grand.arguments.length === 0))
        return;
      this.giveUp(node);
      return;
    }
    if (parent.computed) {
      // effects[i]: replaced by a literal, deleted, or only tested.
      if (grand?.type === "AssignmentExpression" && grand.operator === "=" && grand.left === parent) {
        if (!this.effectLiteral(grand.right)) this.giveUp(node);
        return;
      }
      if (grand?.type === "UnaryExpression" && grand.operator === "delete") return;
      if (onlyTested(parent, ancestors.slice(0, -2))) return;
    }
    this.giveUp(node);
  }

  private triggersUse(node: AnyNode, ancestors: AnyNode[]): void {
    const parent = ancestors[ancestors.length - 2];
    if (parent?.type === "UnaryExpression" && parent.operator === "typeof") return;
    if (parent?.type === "ForInStatement" && parent.right === node) return;
    if (parent?.type === "BinaryExpression" && parent.operator === "in" && parent.right === node) return;
    if (parent?.type !== "MemberExpression" || parent.object !== node) {
      this.giveUp(node);
      return;
    }
    const { top, depth, context, at } = climbMembers(ancestors);
    if (depth === 1 && context?.type === "UnaryExpression" && context.operator === "delete") return;
    if (
      depth === 1 &&
      context?.type === "AssignmentExpression" &&
      context.operator === "=" &&
      context.left === top &&
      top.type === "MemberExpression"
    ) {
      if (!this.addedTrigger(context.right)) this.giveUp(node);
      return;
    }
    if (onlyTested(top, ancestors.slice(0, at + 1))) return;
    this.giveUp(node);
  }

  /** `check({type: "read-…", key: "…"})`: a storage read. */
  private checkCall(node: AnyNode & { type: "CallExpression" }): void {
    if (node.callee.type !== "Identifier" || node.callee.name !== "check") return;
    const argument = node.arguments[0];
    if (argument?.type !== "ObjectExpression") {
      this.checkReadsDynamic = true;
      return;
    }
    const object = readObject(argument);
    if (!object || !("type" in object.fields)) {
      // A type computed at run time (or hidden in a spread) may be a read-* one.
      if (!object || object.computed.includes("type")) this.checkReadsDynamic = true;
      return;
    }
    this.noteRead(object);
  }

  private noteRead(object: { fields: Record<string, LiteralValue>; computed: string[] }): void {
    const type = object.fields.type;
    if (typeof type !== "string" || !type.startsWith("read-")) return;
    const key = object.fields.key;
    if (typeof key === "string") this.checkReads.add(key);
    else if (object.computed.includes("key")) this.checkReadsDynamic = true;
  }

  /** An array literal of effect literals (holes allowed). */
  private effectList(node: AnyNode): boolean {
    if (node.type !== "ArrayExpression") return false;
    return node.elements.every((element) => element === null || this.effectLiteral(element));
  }

  /** An effect object literal; false when it cannot be followed. An object without `type` is dropped by the engine. */
  private effectLiteral(node: AnyNode): boolean {
    if (node.type !== "ObjectExpression") return false;
    const object = readObject(node);
    if (!object) return false;
    if (object.computed.includes("type")) return false;
    const type = object.fields.type;
    if (type === undefined) return true;
    if (typeof type !== "string") return true;
    this.literals.push({ type, fields: object.fields, computed: object.computed, at: positionOf(node) });
    return true;
  }

  /** `triggers.x = {...}`: a trigger added (or replaced) with literal effects and conditions. */
  private addedTrigger(node: AnyNode): boolean {
    if (node.type !== "ObjectExpression") return false;
    let effects: AnyNode | undefined;
    let conditions: AnyNode | undefined;
    for (const property of node.properties) {
      if (property.type !== "Property" || property.kind !== "init") return false;
      const name = propertyKey(property);
      if (name === undefined || name === "script") return false;
      if (name === "effects") effects = property.value;
      if (name === "conditions") conditions = property.value;
    }
    if (conditions !== undefined) {
      if (conditions.type !== "ArrayExpression") this.checkReadsDynamic = true;
      else {
        for (const element of conditions.elements) {
          const object = element?.type === "ObjectExpression" ? readObject(element) : undefined;
          if (element === null) continue;
          if (!object || object.computed.includes("type")) {
            this.checkReadsDynamic = true;
            continue;
          }
          this.noteRead(object);
        }
      }
    }
    return effects === undefined || this.effectList(effects);
  }
}

/** The literal fields of an object literal; undefined when a spread or a computed key hides what it holds. */
function readObject(
  node: AnyNode & { type: "ObjectExpression" },
): { fields: Record<string, LiteralValue>; computed: string[] } | undefined {
  const fields: Record<string, LiteralValue> = {};
  const computed: string[] = [];
  for (const property of node.properties) {
    if (property.type !== "Property") return undefined;
    const name = propertyKey(property);
    if (name === undefined) return undefined;
    const value = property.kind === "init" ? literalValue(property.value) : undefined;
    const at = computed.indexOf(name);
    if (at >= 0) computed.splice(at, 1);
    delete fields[name];
    if (value === undefined) computed.push(name);
    // defineProperty, not assignment: a "__proto__" key must stay an ordinary field.
    else Object.defineProperty(fields, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return { fields, computed };
}

/** A value known without running the script: literals, `-5`, template strings without substitutions, arrays of those. */
function literalValue(node: AnyNode): LiteralValue | undefined {
  switch (node.type) {
    case "Literal":
      if ("regex" in node && node.regex) return undefined;
      if (typeof node.value === "bigint") return undefined;
      return node.value as string | number | boolean | null;
    case "TemplateLiteral":
      return literalString(node);
    case "UnaryExpression":
      return literalNumber(node);
    case "ArrayExpression": {
      const out: LiteralValue[] = [];
      for (const element of node.elements) {
        if (element === null || element.type === "SpreadElement") return undefined;
        const value = literalValue(element);
        if (value === undefined) return undefined;
        out.push(value);
      }
      return out;
    }
    default:
      return undefined;
  }
}

/**
 * Whether the value of `node` (whose ancestors, outermost first, end with its
 * parent) is only tested or turned into a primitive, never kept, passed on or
 * changed: `if (triggers.x)`, `!effects[0]`, `triggers.x === undefined`,
 * `log(triggers.x)`.
 */
function onlyTested(node: AnyNode, ancestors: AnyNode[]): boolean {
  let child = node;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const parent = ancestors[i]!;
    switch (parent.type) {
      case "ChainExpression":
      case "LogicalExpression":
        child = parent;
        continue;
      case "ConditionalExpression":
        if (parent.test === child) return true;
        child = parent;
        continue;
      case "SequenceExpression":
        if (parent.expressions[parent.expressions.length - 1] !== child) return true;
        child = parent;
        continue;
      case "UnaryExpression":
        return parent.operator !== "delete";
      case "BinaryExpression":
      case "TemplateLiteral":
      case "ExpressionStatement":
        return true;
      case "IfStatement":
      case "WhileStatement":
      case "DoWhileStatement":
      case "ForStatement":
        return parent.test === child;
      case "CallExpression":
        return parent.callee !== child && isLogger(parent.callee);
      default:
        return false;
    }
  }
  return false;
}

function isLogger(callee: AnyNode): boolean {
  if (callee.type === "Identifier") return LOGGERS.has(callee.name);
  return (
    callee.type === "MemberExpression" &&
    callee.object.type === "Identifier" &&
    callee.object.name === "console" &&
    !callee.computed
  );
}
