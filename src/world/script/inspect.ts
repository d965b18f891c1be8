import { type AnyNode, type Options, Parser, type Program } from "acorn";
import { fullAncestor } from "acorn-walk";
import type { JsonPath } from "../diagnostic.ts";
import { type Position, positionAt, type SourceFile, spanAt } from "../source.ts";
import { type Aliases, collectAliases } from "./aliases.ts";
import { climbMembers, literalString, memberKey, positionOf, propertyKey } from "./ast.ts";
import { type ScriptEffects, ScriptEffectsCollector } from "./effects.ts";
import { AbsentGlobalsCollector } from "./globals.ts";
import type { ScriptPosition } from "./position.ts";

/**
 * Trigger scripts (spec 4): the one parser of the `script` field, shared by
 * the validator and the sandbox so that an author sees the same line and
 * column at publish time as in the run-time log, plus a static analysis of
 * what a script can do that other checks need to know.
 */

export type { ScriptPosition } from "./position.ts";

export interface ScriptError extends ScriptPosition {
  /** acorn's message without its "(line:column)" suffix, or the top-level return advice. */
  message: string;
  kind: "syntax" | "top-level-return";
}

export type ParsedScript = { ok: true; program: Program } | { ok: false; error: ScriptError };

export const TOP_LEVEL_RETURN_MESSAGE =
  "scripts are statements, not a function body: remove the top-level return (use `skip = true` or an if/else)";

/** Scripts run as classic scripts (not modules, not function bodies), with today's syntax. */
const OPTIONS: Options = {
  ecmaVersion: "latest",
  sourceType: "script",
  allowReturnOutsideFunction: false,
  locations: true,
};

const RETURN_OUTSIDE_FUNCTION = "'return' outside of function";

/**
 * Parses a trigger script into a fresh program the caller owns. Never throws:
 * any failure (including acorn's own stack-overflow guard on absurd nesting)
 * comes back as `{ ok: false }` with a position.
 */
export function parseScript(source: string): ParsedScript {
  try {
    return { ok: true, program: Parser.parse(source, OPTIONS) };
  } catch (error) {
    const problem = scriptError(error);
    if (problem.message === RETURN_OUTSIDE_FUNCTION && isTopLevelReturn(source, problem.offset)) {
      return {
        ok: false,
        error: { ...problem, kind: "top-level-return", message: TOP_LEVEL_RETURN_MESSAGE },
      };
    }
    return { ok: false, error: problem };
  }
}

/**
 * acorn gives the same message for a top-level return and for one in a class
 * static block; only the first gets the advice. Allowing top-level returns
 * moves the first error past it, but not past the second.
 */
function isTopLevelReturn(source: string, offset: number): boolean {
  try {
    Parser.parse(source, { ...OPTIONS, allowReturnOutsideFunction: true, locations: false });
    return true;
  } catch (error) {
    return (error as { pos?: unknown }).pos !== offset;
  }
}

function scriptError(error: unknown): ScriptError {
  const { pos, loc, message } = (error ?? {}) as { pos?: unknown; loc?: unknown; message?: unknown };
  const text = typeof message === "string" ? message.replace(/ \(\d+:\d+\)$/, "") : String(error);
  // acorn always sets pos and loc; anything else thrown (a bug) is placed at the start.
  const offset = typeof pos === "number" ? pos : 0;
  const at = isLoc(loc) ? { line: loc.line, column: loc.column + 1 } : { line: 1, column: 1 };
  return { kind: "syntax", message: text, ...at, offset };
}

function isLoc(value: unknown): value is { line: number; column: number } {
  const { line, column } = (value ?? {}) as { line?: unknown; column?: unknown };
  return typeof line === "number" && typeof column === "number";
}

/**
 * What a script can do, as far as reading its text tells. Only literal names
 * are seen: a quest key or storage key built at run time (`"Lost " + name`,
 * `storage[key]`) is not found, and `storage.dynamic` says when keys may be
 * missing from the lists.
 */
export interface ScriptAnalysis {
  /**
   * Quest keys of object literals `{type: "quest-init", operator: "set", value: "<literal>"}`
   * anywhere in the script (pushed to `effects`, or written into a trigger of `triggers`).
   * An operator that is not a literal counts: it may be "set" at run time.
   */
  questInits: { quest: string; at: ScriptPosition }[];
  /** The same objects with the operator missing or a literal other than "set": the engine drops them as malformed. */
  malformedQuestInits: { quest: string; at: ScriptPosition }[];
  storage: {
    /** Keys read (`storage.x`, `storage["x"]`, `"x" in storage`, and compound updates), first-use order. */
    reads: string[];
    /** Keys written, updated, deleted or mutated in place (`storage.x.push(…)`, `storage.x.y = …`). */
    writes: string[];
    /** `storage = …`, `storage++`, or a destructuring assignment to `storage`. */
    reassigned: boolean;
    /**
     * The key lists may be incomplete: a computed key that is not a literal,
     * `storage` used as a value (`Object.keys(storage)`, `const s = storage`),
     * or a local variable or parameter named `storage`.
     */
    dynamic: boolean;
    /** Why the lists may be incomplete, when `dynamic`: "computed keys", "storage used as a value", "a local named storage". */
    dynamicWhy?: string[];
  };
  /** `check({… operator: "regex" …})` calls, which return undefined (spec 4). */
  regexChecks: { conditionType: string | null; at: ScriptPosition }[];
  /**
   * A top-level `skip = true` statement (not inside an if, loop, function,
   * try, switch, or `&&`/`?:` expression) that no later assignment can undo:
   * the script always skips. Null otherwise.
   */
  unconditionalSkip: ScriptPosition | null;
  /** The effects the script can apply and the triggers it can add, or where it stops being followable (effects.ts). */
  effects: ScriptEffects;
  /** The first use of each global the sandbox does not have, in source order (globals.ts). */
  absentGlobals: { name: string; at: ScriptPosition }[];
}

export type InspectedScript = { ok: true; analysis: ScriptAnalysis } | { ok: false; error: ScriptError };

// Several rules look at each script of a world, and a world is often checked
// again after an edit. Only the small results are kept, never the syntax
// trees: a world at the trigger limits holds megabytes of script text, and
// keeping its trees would cost hundreds of megabytes.
const CACHE_LIMIT = 1000;
const inspected = new Map<string, InspectedScript>();

/** Parses and analyses a script's text; the result is memoised by the text and shared, so do not mutate it. */
export function inspectScript(source: string): InspectedScript {
  const hit = inspected.get(source);
  if (hit) return hit;
  const parsed = parseScript(source);
  const result: InspectedScript = parsed.ok ? { ok: true, analysis: analyseScript(parsed.program) } : parsed;
  if (inspected.size >= CACHE_LIMIT) inspected.delete(inspected.keys().next().value as string);
  inspected.set(source, result);
  return result;
}

// Array methods that change the array they are called on.
const MUTATORS = new Set([
  "push",
  "pop",
  "shift",
  "unshift",
  "splice",
  "sort",
  "reverse",
  "fill",
  "copyWithin",
]);

/** Analyses a parsed script in one walk over its tree. */
export function analyseScript(program: Program): ScriptAnalysis {
  const questInits: ScriptAnalysis["questInits"] = [];
  const malformedQuestInits: ScriptAnalysis["malformedQuestInits"] = [];
  const regexChecks: ScriptAnalysis["regexChecks"] = [];
  const reads = new Set<string>();
  const writes = new Set<string>();
  let reassigned = false;
  let dynamic = false;
  // Assignments to `skip` other than `skip = true`: start offset, and whether a function could run them later.
  const skipUndos: { start: number; deferred: boolean }[] = [];
  const effects = new ScriptEffectsCollector();
  const globals = new AbsentGlobalsCollector();
  // Names that stand for storage or one of its keys (aliases.ts): reads and writes through them count.
  const aliases = collectAliases(program);
  for (const key of aliases.destructuredReads) reads.add(key);
  const why = new Set<string>();
  if (aliases.dynamic) {
    dynamic = true;
    why.add("computed keys");
  }

  // One walk for all of it: effects and absent globals are collected by visitors of the same walk.
  fullAncestor(program, (node, _state, ancestors, type) => {
    effects.visit(node, ancestors, type);
    globals.visit(node, ancestors, type);
    if (type === "VariablePattern" && node.type === "Identifier") {
      if (node.name === "storage") {
        if (isAssignmentTarget(ancestors)) reassigned = true;
        else {
          dynamic = true;
          why.add("a local named storage");
        }
      } else if (node.name === "skip" && isAssignmentTarget(ancestors)) {
        const parent = ancestors[ancestors.length - 2];
        const setsTrue =
          parent?.type === "AssignmentExpression" && parent.operator === "=" && isLiteral(parent.right, true);
        if (!setsTrue) skipUndos.push({ start: node.start, deferred: insideFunction(ancestors) });
      }
      return;
    }
    switch (node.type) {
      case "Identifier": {
        const alias = node.name === "storage" ? undefined : aliases.names.get(node.name);
        if (node.name === "storage" || alias?.key === null) {
          if (makesRootAlias(ancestors, aliases)) return;
          const use = storageUse(ancestors);
          if (use.reassigns) reassigned = true;
          if (use.dynamic) {
            dynamic = true;
            why.add(computedKey(ancestors) ? "computed keys" : "storage used as a value");
          }
          if (use.read !== undefined) reads.add(use.read);
          if (use.write !== undefined) writes.add(use.write);
        } else if (alias?.key) {
          reads.add(alias.key);
          if (writesThrough(ancestors, aliases)) writes.add(alias.key);
        } else if (node.name === "skip") {
          const parent = ancestors[ancestors.length - 2];
          if (parent?.type === "UpdateExpression")
            skipUndos.push({ start: node.start, deferred: insideFunction(ancestors) });
        }
        return;
      }
      case "ObjectExpression": {
        if (literalString(propertyOf(node, "type")) !== "quest-init") return;
        const quest = literalString(propertyOf(node, "value"));
        if (quest === undefined) return;
        const operator = propertyOf(node, "operator");
        const dropped =
          operator === undefined || (isLiteralNode(operator) && literalString(operator) !== "set");
        (dropped ? malformedQuestInits : questInits).push({ quest, at: positionOf(node) });
        return;
      }
      case "CallExpression": {
        if (node.callee.type !== "Identifier" || node.callee.name !== "check") return;
        const argument = node.arguments[0];
        if (argument?.type !== "ObjectExpression") return;
        if (literalString(propertyOf(argument, "operator")) !== "regex") return;
        regexChecks.push({
          conditionType: literalString(propertyOf(argument, "type")) ?? null,
          at: positionOf(node),
        });
        return;
      }
    }
  });

  const skipStatement = lastTopLevelSkip(program.body);
  const unconditionalSkip =
    skipStatement && !skipUndos.some((u) => u.deferred || u.start > skipStatement.start)
      ? positionOf(skipStatement)
      : null;

  return {
    questInits,
    malformedQuestInits,
    storage: {
      reads: [...reads],
      writes: [...writes],
      reassigned,
      dynamic,
      ...(dynamic ? { dynamicWhy: [...why] } : {}),
    },
    regexChecks,
    unconditionalSkip,
    effects: effects.result(),
    absentGlobals: globals.result(),
  };
}

/** `storage[key]` or `key in storage` with a key known only at run time. */
function computedKey(ancestors: AnyNode[]): boolean {
  const id = ancestors[ancestors.length - 1]!;
  const parent = ancestors[ancestors.length - 2];
  if (parent?.type === "MemberExpression" && parent.object === id) return parent.computed;
  return parent?.type === "BinaryExpression" && parent.operator === "in" && parent.right === id;
}

/**
 * `storage` (or a name for it) that only makes another name for storage:
 * `const s = storage`, `const s = storage || {}`, `const { a } = storage`.
 * It is followed through that name, so it is no use of storage as a value.
 */
function makesRootAlias(ancestors: AnyNode[], aliases: Aliases): boolean {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const node = ancestors[i]!;
    if (aliases.sources.has(node)) return true;
    const up = ancestors[i - 1];
    if (up?.type !== "LogicalExpression" && up?.type !== "ChainExpression") return false;
  }
  return false;
}

/**
 * Whether a name that stands inside a storage key changes it: `guild.rank =
 * 'silver'`, `guild.members.push(x)`, `delete guild.old`; or hands it on
 * (`promote(guild)`), which may change it. Reading `guild.rank`, testing
 * `guild`, or making another name from it does not.
 */
function writesThrough(ancestors: AnyNode[], aliases: Aliases): boolean {
  const id = ancestors[ancestors.length - 1]!;
  const parent = ancestors[ancestors.length - 2];
  if (aliases.sources.has(id) || (parent && aliases.sources.has(parent))) return false;
  if (parent?.type === "MemberExpression" && parent.object === id) {
    const { top, depth, context } = climbMembers(ancestors);
    if (isWriteTarget(context, top)) return true;
    const method = top.type === "MemberExpression" ? memberKey(top) : undefined;
    if (context?.type === "CallExpression" && context.callee === top && MUTATORS.has(method ?? ""))
      return true;
    if (depth >= 1 && context && aliases.sources.has(context)) return false;
    return false;
  }
  switch (parent?.type) {
    case "IfStatement":
    case "UnaryExpression":
    case "BinaryExpression":
    case "LogicalExpression":
    case "ConditionalExpression":
    case "TemplateLiteral":
    case "ExpressionStatement":
    case "VariableDeclarator":
      return false;
    case "CallExpression":
      return parent.callee !== id && !(parent.callee.type === "Identifier" && parent.callee.name === "log");
    default:
      return true;
  }
}

interface StorageUse {
  read?: string;
  write?: string;
  reassigns?: boolean;
  dynamic?: boolean;
}

/** What one reference to the `storage` identifier does, from the nodes around it. */
function storageUse(ancestors: AnyNode[]): StorageUse {
  const id = ancestors[ancestors.length - 1]!;
  const parent = ancestors[ancestors.length - 2];
  if (parent?.type === "UnaryExpression" && parent.operator === "typeof") return {};
  if (parent?.type === "UpdateExpression") return { reassigns: true };
  if (parent?.type === "BinaryExpression" && parent.operator === "in" && parent.right === id) {
    const key = literalString(parent.left);
    return key === undefined ? { dynamic: true } : { read: key };
  }
  if (parent?.type !== "MemberExpression" || parent.object !== id) return { dynamic: true };
  const key = memberKey(parent);
  if (key === undefined) return { dynamic: true };

  const { top, depth, context } = climbMembers(ancestors);
  const nested = depth > 1;
  if (isWriteTarget(context, top)) {
    // `storage.x = v`, `delete storage.x` and destructuring only write; updates and nested writes read first.
    const readsFirst =
      nested ||
      context?.type === "UpdateExpression" ||
      (context?.type === "AssignmentExpression" && context.operator !== "=");
    return readsFirst ? { read: key, write: key } : { write: key };
  }
  if (
    nested &&
    context?.type === "CallExpression" &&
    context.callee === top &&
    top.type === "MemberExpression" &&
    MUTATORS.has(memberKey(top) ?? "")
  ) {
    return { read: key, write: key };
  }
  return { read: key };
}

/** Whether `node` is assigned, updated or deleted by `context`, its parent in the walk. */
function isWriteTarget(context: AnyNode | undefined, node: AnyNode): boolean {
  switch (context?.type) {
    case "AssignmentExpression":
    case "AssignmentPattern":
    case "ForInStatement":
    case "ForOfStatement":
      return context.left === node;
    case "UpdateExpression":
    case "ArrayPattern":
    case "ObjectPattern":
    case "RestElement":
      return true;
    case "UnaryExpression":
      return context.operator === "delete";
    default:
      return false;
  }
}

/** Whether the identifier at the end of `ancestors`, met in a pattern, is assigned rather than declared. */
function isAssignmentTarget(ancestors: AnyNode[]): boolean {
  for (let i = ancestors.length - 2; i >= 0; i--) {
    const node = ancestors[i]!;
    switch (node.type) {
      case "AssignmentExpression":
        return true;
      case "ForInStatement":
      case "ForOfStatement":
        return node.left.type !== "VariableDeclaration";
      case "ArrayPattern":
      case "ObjectPattern":
      case "RestElement":
      case "AssignmentPattern":
        continue;
      default:
        return false;
    }
  }
  return false;
}

function insideFunction(ancestors: AnyNode[]): boolean {
  return ancestors.some(
    (n) =>
      n.type === "FunctionDeclaration" ||
      n.type === "FunctionExpression" ||
      n.type === "ArrowFunctionExpression" ||
      n.type === "StaticBlock",
  );
}

/** The last `skip = true;` reached on every run: top level, or inside plain blocks only. */
function lastTopLevelSkip(body: readonly AnyNode[]): AnyNode | undefined {
  let found: AnyNode | undefined;
  for (const statement of body) {
    if (statement.type === "BlockStatement") found = lastTopLevelSkip(statement.body) ?? found;
    else if (
      statement.type === "ExpressionStatement" &&
      statement.expression.type === "AssignmentExpression" &&
      statement.expression.operator === "=" &&
      statement.expression.left.type === "Identifier" &&
      statement.expression.left.name === "skip" &&
      isLiteral(statement.expression.right, true)
    ) {
      found = statement;
    }
  }
  return found;
}

/** The value of a property of an object literal, found by a static key; the last one wins, as in JS. */
function propertyOf(node: AnyNode & { type: "ObjectExpression" }, name: string): AnyNode | undefined {
  let value: AnyNode | undefined;
  for (const property of node.properties) {
    if (property.type !== "Property" || property.kind !== "init") continue;
    if (propertyKey(property) === name) value = property.value;
  }
  return value;
}

function isLiteral(node: AnyNode, value: unknown): boolean {
  return node.type === "Literal" && node.value === value;
}

/** A literal whose value is known without running the script. */
function isLiteralNode(node: AnyNode): boolean {
  return node.type === "Literal" || (node.type === "TemplateLiteral" && node.expressions.length === 0);
}

/**
 * Where the character at `index` of a decoded JSON string sits in the
 * literal as written (opening quote included): escapes such as `\n` and
 * `\u00e9` are longer in the file than in the string.
 */
export function offsetInJsonLiteral(literal: string, index: number): number {
  let raw = literal.startsWith('"') ? 1 : 0;
  for (let decoded = 0; decoded < index && raw < literal.length; decoded++) {
    if (literal[raw] === "\\") raw += literal[raw + 1] === "u" ? 6 : 2;
    else raw += 1;
  }
  return Math.min(raw, literal.length);
}

/**
 * The file position of a script offset, for a script stored at `path` of a
 * JSON file: lets a caller point at the exact character, where a diagnostic
 * path can only point at the start of the `script` string.
 */
export function scriptPositionInFile(
  source: SourceFile,
  path: JsonPath,
  scriptOffset: number,
): Position | null {
  const span = spanAt(source, path);
  if (!span || source.text.charCodeAt(span.offset) !== 34) return null;
  const literal = source.text.slice(span.offset, span.end);
  return positionAt(source, span.offset + offsetInJsonLiteral(literal, scriptOffset));
}
