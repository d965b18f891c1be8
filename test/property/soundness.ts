import assert from "node:assert/strict";
import { findNodeAtLocation, type Node, parseTree } from "jsonc-parser";
import type { Diagnostic, JsonPath } from "../../src/world/diagnostic.ts";
import { parseWorld } from "../../src/world/load.ts";
import { type ValidationResult, validateWorld } from "../../src/world/validate.ts";

/**
 * What must hold for every checked text, whatever it contains: the contract
 * between the checker and everything that prints or acts on its output.
 *
 * Paths. A path is an array of strings and non-negative integers. Walk it
 * through the value parsed from the text, where a number steps into an array
 * (in range) and a string steps into an object (own key). The walk must reach
 * either the end of the path (the node exists) or stop one segment short at an
 * object, the last segment being a string: a field that is missing from an
 * object that exists. So a path never runs through a node that is not there,
 * never indexes an object with a number or an array with a string, and never
 * names an array element that does not exist.
 *
 * Positions. line and column are both null or both positive integers, with the
 * line within the text and the column at most one past the end of that line.
 * When the text is valid JSON every diagnostic has a position, and it lies
 * within the source span of the deepest existing node of its path (the
 * property, key included, when that node is an object member), so "key here"
 * and "value here" both count.
 */

export const INTERNAL_RULE_FAILURE = "internal/rule-failed";

/** Runs the real loader and validator on a text, as `taleforge check` does. */
export function checkText(text: string, file = "property.world.json"): ValidationResult {
  return validateWorld(parseWorld(text, file));
}

export interface SoundnessOptions {
  /** Check positions against a syntax tree of the text (off for texts too deep to parse recursively). */
  spans?: boolean;
}

export function assertSound(text: string, result: ValidationResult, options: SoundnessOptions = {}): void {
  // parseWorld drops one leading byte-order mark; positions count from after it.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split(/\r\n|\r|\n/);
  const parsed = parseJson(body);
  const tree = parsed.ok && options.spans !== false ? parseTree(body) : undefined;

  assert.ok(Array.isArray(result.diagnostics), "diagnostics must be an array");
  for (const diagnostic of result.diagnostics) {
    const where = `${JSON.stringify(diagnostic).slice(0, 400)}`;
    assert.notEqual(diagnostic.code, INTERNAL_RULE_FAILURE, `a rule crashed: ${diagnostic.message}`);
    assert.ok(typeof diagnostic.code === "string" && diagnostic.code.length > 0, `no code: ${where}`);
    assert.ok(diagnostic.severity === "error" || diagnostic.severity === "warning", `severity: ${where}`);
    assert.ok(
      typeof diagnostic.message === "string" && diagnostic.message.trim() !== "",
      `message: ${where}`,
    );
    const places = [diagnostic, ...(diagnostic.related ?? [])];
    for (const place of places) {
      assertPathShape(place.path, where);
      assertPosition(place.line, place.column, lines, where);
      if (!parsed.ok) continue;
      assertPathAnchored(parsed.value, place.path, where);
      if (place === diagnostic)
        assert.notEqual(place.line, null, `a valid JSON text gives positions: ${where}`);
      if (tree && place.line !== null && place.column !== null)
        assertInSpan(tree, parsed.value, place.path, offsetOf(body, lines, place.line, place.column), where);
    }
  }
  assertCounts(result);
}

function parseJson(body: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false };
  }
}

function assertPathShape(path: JsonPath, where: string): void {
  assert.ok(Array.isArray(path), `path must be an array: ${where}`);
  for (const segment of path) {
    const ok = typeof segment === "string" || (Number.isInteger(segment) && (segment as number) >= 0);
    assert.ok(ok, `path segment ${String(segment)} is neither a string nor an index: ${where}`);
  }
}

function assertPosition(line: number | null, column: number | null, lines: string[], where: string): void {
  assert.equal(line === null, column === null, `line and column must be null together: ${where}`);
  if (line === null || column === null) return;
  assert.ok(
    Number.isInteger(line) && line >= 1 && line <= lines.length,
    `line ${line} of ${lines.length}: ${where}`,
  );
  const length = lines[line - 1]!.length;
  assert.ok(
    Number.isInteger(column) && column >= 1 && column <= length + 1,
    `column ${column} on a line of ${length} characters: ${where}`,
  );
}

/** How many leading segments of the path exist in the value, and the node they reach. */
export function walk(value: unknown, path: JsonPath): { depth: number; node: unknown } {
  let node = value;
  for (let depth = 0; depth < path.length; depth++) {
    const segment = path[depth]!;
    if (Array.isArray(node) && typeof segment === "number" && segment < node.length) node = node[segment];
    else if (isObject(node) && typeof segment === "string" && Object.hasOwn(node, segment))
      node = node[segment];
    else return { depth, node };
  }
  return { depth: path.length, node };
}

function assertPathAnchored(value: unknown, path: JsonPath, where: string): void {
  const { depth, node } = walk(value, path);
  if (depth === path.length) return;
  const missingField = depth === path.length - 1 && isObject(node) && typeof path[depth] === "string";
  assert.ok(
    missingField,
    `path stops existing at segment ${depth} (${JSON.stringify(path[depth])}) of ${path.length}: ${where}`,
  );
}

function assertInSpan(tree: Node, value: unknown, path: JsonPath, offset: number, where: string): void {
  const { depth } = walk(value, path);
  const node = findNodeAtLocation(tree, path.slice(0, depth));
  assert.ok(node, `no syntax node for an existing path: ${where}`);
  const span = node.parent?.type === "property" ? node.parent : node;
  assert.ok(
    offset >= span.offset && offset <= span.offset + span.length,
    `position (offset ${offset}) outside the node of its path (${span.offset}..${span.offset + span.length}): ${where}`,
  );
}

function offsetOf(body: string, lines: string[], line: number, column: number): number {
  let offset = 0;
  for (let i = 0; i < line - 1; i++) {
    offset += lines[i]!.length;
    offset += body.startsWith("\r\n", offset) ? 2 : 1;
  }
  return offset + column - 1;
}

function assertCounts(result: ValidationResult): void {
  const errors = result.diagnostics.filter((d: Diagnostic) => d.severity === "error").length;
  const warnings = result.diagnostics.filter((d: Diagnostic) => d.severity === "warning").length;
  assert.equal(result.errorCount, errors, "errorCount must count the error diagnostics");
  assert.equal(result.warningCount, warnings, "warningCount must count the warning diagnostics");
  assert.equal(
    result.world !== undefined,
    errors === 0,
    "a world is returned exactly when there is no error",
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
