import { TRAILER_MARKER } from "../trailer.ts";
import { TEXT_CAPS } from "./budgets.ts";
import type { ChatMessage } from "./types.ts";

/**
 * The pieces every prompt is made of, and the one place where prompts are
 * trimmed to their budget.
 *
 * A prompt is a list of messages; a message is a list of blocks; a block is
 * an optional "## Heading" line and a list of items (lines of a list, entries
 * of a story). Each block says how it may be trimmed:
 *  - `fixed`: engine text (rules, the JSON answer format, the trailer
 *    instructions) and headings. Never trimmed.
 *  - `protected`: what the turn is about (actions, instructions, the event,
 *    the questions). Only trimmed when everything trimmable is gone, and then
 *    the longest items are cut first (a hostile field, not the normal ones).
 *  - a number: trimmed in that order, lowest first, each block losing items
 *    from its `from` side (`start`: oldest first, `end`: least relevant
 *    first). The last item to go is cut instead when enough of it fits.
 */

export type Trim = "fixed" | "protected" | number;

export interface Block {
  heading: string | null;
  items: string[];
  /** How items are joined: "\n" for lists, "\n\n" for prose. */
  join: string;
  trim: Trim;
  from: "start" | "end";
  /** A line added when items were left out, e.g. "(3 older entries left out)". */
  omitted?: (count: number) => string;
  /**
   * An earlier, gentler step: at this rank every item is cut to a common
   * length (keeping its start), never below `floor`, before any is dropped at
   * `trim`. For entries that should all stay in some form (story to summarise).
   */
  even?: { rank: number; floor: number };
  /**
   * A guaranteed share (issue 39, the context plan): the block is first trimmed only down to
   * this many characters, and below it only after the protected items were cut.
   */
  floor?: number;
}

export interface MessagePlan {
  role: ChatMessage["role"];
  blocks: Block[];
}

const ELLIPSIS = "…";
/** A cut item keeps at least this many characters; below that it is dropped whole. */
const MIN_PARTIAL = 120;
/** Protected items are cut down to this floor before any is dropped. */
const PROTECTED_FLOOR = 160;

// ---------------------------------------------------------------------------
// Text that comes from the world or the players
// ---------------------------------------------------------------------------

/**
 * Makes outside text safe to embed: it cannot contain the trailer marker (a
 * world author's or player's text must not be able to fake or provoke a
 * trailer), code fences (the answer formats are shown bare; a fence invites
 * the model to fence its answer) or control characters; line endings are
 * normalised. Lone surrogates are replaced so the JSON sent to a server is
 * valid UTF-8.
 */
export function neutral(text: string): string {
  let out = text
    .replace(/\r\n?/g, "\n")
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
    .replace(/`{3,}/g, "'''");
  // Replacing can join text into a new marker ("<<<<<STATE>>>>>" holds one inside another): repeat until none.
  while (out.includes(TRAILER_MARKER)) out = out.split(TRAILER_MARKER).join("[STATE]");
  return out;
}

/** Outside text on one line (names, titles, list entries): newlines cannot start a fake heading. */
export function inline(text: string, cap: number): string {
  return cutEnd(
    neutral(text)
      .replace(/\s*\n\s*/g, " ")
      .trim(),
    cap,
  );
}

/** Outside prose: neutralised, trimmed, at most `cap` characters (the end cut off). */
export function prose(text: string, cap: number): string {
  return cutEnd(neutral(text).trim(), cap);
}

/** Keeps the first `max` characters (ellipsis included), never splitting a surrogate pair. */
export function cutEnd(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= ELLIPSIS.length) return ELLIPSIS.slice(0, Math.max(0, max));
  let end = max - ELLIPSIS.length;
  if (isHigh(text.charCodeAt(end - 1))) end--;
  return text.slice(0, end).trimEnd() + ELLIPSIS;
}

/** Keeps the last `max` characters (ellipsis included), never splitting a surrogate pair. */
export function cutStart(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= ELLIPSIS.length) return ELLIPSIS.slice(0, Math.max(0, max));
  let start = text.length - (max - ELLIPSIS.length);
  if (isLow(text.charCodeAt(start))) start++;
  return ELLIPSIS + text.slice(start).trimStart();
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Lines of bullet items; empty values dropped. */
export function bullets(values: readonly string[]): string[] {
  return values.filter((v) => v !== "").map((v) => `- ${v}`);
}

/** A player's action on one line: "<player>: <text>", both made safe and capped. */
export function actionLine(player: string, text: string): string {
  return `${inline(player, TEXT_CAPS.name)}: ${inline(text, TEXT_CAPS.action)}`;
}

/** The trim rank of each part of a `*_TRIM_ORDER` list: the first part goes first (rank 1). */
export function rankIn<T extends string>(order: readonly T[]): (part: T) => number {
  return (part) => order.indexOf(part) + 1;
}

// ---------------------------------------------------------------------------
// Blocks
// ---------------------------------------------------------------------------

export function block(
  heading: string | null,
  items: readonly string[],
  trim: Trim,
  options: {
    join?: string;
    from?: "start" | "end";
    omitted?: (count: number) => string;
    even?: { rank: number; floor: number };
    floor?: number;
  } = {},
): Block {
  const out: Block = {
    heading,
    items: items.filter((i) => i !== ""),
    join: options.join ?? "\n",
    trim,
    from: options.from ?? "end",
  };
  if (options.omitted) out.omitted = options.omitted;
  if (options.even) out.even = options.even;
  if (options.floor !== undefined && options.floor > 0) out.floor = options.floor;
  return out;
}

/** A block of engine text: never trimmed. */
export function fixed(heading: string | null, text: string): Block {
  return block(heading, [text], "fixed");
}

// ---------------------------------------------------------------------------
// Rendering and fitting
// ---------------------------------------------------------------------------

/** Working copy of a block while fitting: items kept and how many were left out. */
interface Fitting {
  block: Block;
  items: string[];
  left: number;
}

function renderBlock(f: Fitting): string {
  if (f.items.length === 0) return "";
  const body = f.items.join(f.block.join);
  const note = f.left > 0 && f.block.omitted ? f.block.join + f.block.omitted(f.left) : "";
  return (f.block.heading === null ? "" : `${f.block.heading}\n`) + body + note;
}

function renderMessage(blocks: readonly Fitting[]): string {
  return blocks
    .map(renderBlock)
    .filter((text) => text !== "")
    .join("\n\n");
}

function totalLength(plans: readonly Fitting[][], roles: readonly ChatMessage["role"][]): number {
  let total = 0;
  let last: ChatMessage["role"] | null = null;
  plans.forEach((blocks, i) => {
    const length = renderMessage(blocks).length;
    const role = roles[i]!;
    if (length === 0 && role !== "system") return;
    // joinRoles puts "\n\n" between neighbours of one role.
    if (last === role && role !== "system") total += 2;
    total += length;
    last = role;
  });
  return total;
}

/**
 * Renders the messages within `budget` characters (all contents together), in
 * four stages (the context plan, docs/prompts.md):
 *  1. trimmable blocks in rank order, each down to its floor (its guaranteed share);
 *  2. protected items cut, longest first, down to PROTECTED_FLOOR;
 *  3. trimmable blocks below their floors, in rank order;
 *  4. protected items dropped from the last block backwards.
 * Then every trimmed block, the last to go first, gets back what fits again
 * (a later stage may have freed more than the earlier one took). Fixed
 * blocks always stay: builders keep them well under every budget (a test
 * checks it). Messages left empty are dropped and neighbours of the same role
 * joined, so user and assistant turns still alternate.
 */
export function fit(plans: readonly MessagePlan[], budget: number): ChatMessage[] {
  const work: Fitting[][] = plans.map((p) =>
    p.blocks.map((b) => ({ block: b, items: [...b.items], left: 0 })),
  );
  const all = work.flat();
  const roles = plans.map((p) => p.role);
  const over = () => totalLength(work, roles) - budget;

  // Steps in rank order, ties in block order: "even" cuts a block's items to a common length, the rank drops items.
  const steps: { f: Fitting; rank: number; order: number; even: boolean }[] = [];
  all.forEach((f, order) => {
    if (f.block.even) steps.push({ f, rank: f.block.even.rank, order, even: true });
    if (typeof f.block.trim === "number") steps.push({ f, rank: f.block.trim, order, even: false });
  });
  steps.sort((a, b) => a.rank - b.rank || a.order - b.order);
  for (const step of steps) {
    if (over() <= 0) break;
    if (step.even) cutLongest([step.f], over, step.f.block.even!.floor);
    else shrinkAbove(step.f, over, step.f.block.floor ?? 0);
  }
  const protectedBlocks = all.filter((f) => f.block.trim === "protected");
  if (over() > 0) cutLongest(protectedBlocks, over, PROTECTED_FLOOR);
  for (const step of steps) {
    if (over() <= 0) break;
    if (!step.even && step.f.block.floor !== undefined) shrink(step.f, over);
  }
  for (const f of [...protectedBlocks].reverse()) {
    if (over() <= 0) break;
    shrink(f, over, false);
  }
  readmit(steps, over);
  return joinRoles(plans.map((p, i) => ({ role: p.role, content: renderMessage(work[i]!) })));
}

/** Trims `f` only as far as its floor: its rendered length stays at `floor` or more. */
function shrinkAbove(f: Fitting, over: () => number, floor: number): void {
  if (floor <= 0) {
    shrink(f, over);
    return;
  }
  const room = renderBlock(f).length - floor;
  if (room <= 0) return;
  const need = Math.min(over(), room);
  const start = totalLength0(f);
  shrink(f, () => need - (start - totalLength0(f)));
}

const totalLength0 = (f: Fitting) => renderBlock(f).length;

/**
 * Re-admission: blocks trimmed early may fit again once later stages freed
 * room. The most important (last-ranked) block first takes back the fewest
 * drops that fit, with its boundary item cut to the room left.
 */
function readmit(steps: { f: Fitting; even: boolean }[], over: () => number): void {
  if (over() > 0) return;
  for (const step of [...steps].reverse()) {
    const f = step.f;
    if (step.even || f.block.even) continue;
    const original = f.block.items;
    if (f.left === 0 && f.items.every((item, i) => item === original[i])) continue;
    if (over() >= -MIN_PARTIAL) return;
    const kept = { items: f.items, left: f.left };
    f.items = [...original];
    f.left = 0;
    shrink(f, over);
    if (over() > 0) {
      f.items = kept.items;
      f.left = kept.left;
    }
  }
}

/** Drops empty messages and joins neighbours of one role (user and assistant turns must alternate). */
function joinRoles(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.content === "" && m.role !== "system") continue;
    const last = out.at(-1);
    if (last && last.role === m.role && m.role !== "system") last.content = `${last.content}\n\n${m.content}`;
    else out.push({ role: m.role, content: m.content });
  }
  return out;
}

/**
 * Drops the fewest items (from the block's side) that bring the prompt within
 * budget, or all of them; then, if keeping one more item cut short would also
 * fit, keeps it cut (oldest entries lose their start, others their end).
 */
function shrink(f: Fitting, over: () => number, partial = true): void {
  const original = f.items;
  const leftBefore = f.left;
  const apply = (dropped: number) => {
    f.items =
      f.block.from === "start" ? original.slice(dropped) : original.slice(0, original.length - dropped);
    f.left = leftBefore + dropped;
  };
  // Binary search: the smallest number of dropped items that fits (dropping more never costs more).
  let low = 0;
  let high = original.length;
  apply(high);
  if (over() > 0) return; // even dropping everything is not enough: leave it all dropped
  while (low < high) {
    const mid = (low + high) >> 1;
    apply(mid);
    if (over() <= 0) high = mid;
    else low = mid + 1;
  }
  apply(low);
  if (!partial || low === 0) return;
  // Keep the boundary item, cut to what is left of the budget.
  apply(low - 1);
  const index = f.block.from === "start" ? 0 : f.items.length - 1;
  const item = f.items[index]!;
  let room = item.length - over();
  while (room >= MIN_PARTIAL) {
    f.items[index] = f.block.from === "start" ? cutStart(item, room) : cutEnd(item, room);
    const excess = over();
    if (excess <= 0) return;
    room -= excess;
  }
  apply(low);
}

/**
 * Cuts the longest items to a common length (water-filling), keeping their
 * start, never below `floor`: one huge field gives way before any normal one.
 */
function cutLongest(blocks: Fitting[], over: () => number, floor: number): void {
  const lengths = blocks.flatMap((f) => f.items.map((i) => i.length));
  let level = lengths.reduce((a, b) => Math.max(a, b), 0);
  while (over() > 0 && level > floor) {
    const excess = over();
    // Lower the level by enough to save `excess` over the items above it (at least one character).
    const above = lengths.filter((l) => l > level - 1).length || 1;
    level = Math.max(floor, level - Math.max(1, Math.ceil(excess / above)));
    for (const f of blocks) f.items = f.items.map((i) => (i.length > level ? cutEnd(i, level) : i));
    for (let k = 0; k < lengths.length; k++) lengths[k] = Math.min(lengths[k]!, level);
  }
}
