import { onTurn, type Paint, painter, plural, type Style } from "../author/paint.ts";
import type {
  ConditionTrace,
  DiffEntry,
  EffectTrace,
  EventTrace,
  PhaseTrace,
  ScriptTrace,
  TriggerTrace,
  TurnResult,
} from "../engine/index.ts";
import { formatPath } from "../world/diagnostic.ts";
import { escapeControlsDeep } from "../world/terminal-text.ts";

export interface TraceFormatOptions {
  color: boolean;
  /** Every trigger with every condition, script and effect, the triggers already spent, and the state diff. Default: compact. */
  verbose?: boolean;
}

interface Ctx {
  paint: Paint;
  verbose: boolean;
}

/**
 * A turn's trace as text for people (`explain`, the play CLI's `/trace`).
 * Compact by default: per phase, one line per trigger that fired or came
 * close (every mechanical condition passed, or all but one of at least
 * three), with why; `verbose` lists every trigger with each condition's actual
 * and expected value, every script and effect, the triggers already spent,
 * and the state diff. A pure function of the result: each condition names its
 * subject and the trace lists the spent triggers itself (a result stored
 * before they did: `completeTrace`). Conditions and effects are numbered from
 * 1, as people count ("failed at condition 1" is the first); the JSON trace
 * keeps its 0-based `index`.
 */
export function formatTrace(given: TurnResult, options: TraceFormatOptions): string {
  // Script logs and errors, world names and story text are not Taleforge's: escape their control characters.
  const result = escapeControlsDeep(given);
  const ctx: Ctx = { paint: painter(options.color), verbose: options.verbose === true };
  const trace = result.trace;
  const blocks: string[] = [header(result, ctx)];
  for (const phase of trace.phases) blocks.push(phaseBlock(phase, ctx));
  if (ctx.verbose && trace.spent) {
    const spent = Object.entries(trace.spent);
    if (spent.length > 0) blocks.push(spentBlock(spent, ctx));
  }
  const after = afterTurn(result, ctx);
  if (after) blocks.push(after);
  if (ctx.verbose) blocks.push(diffBlock(result.diff, ctx));
  return `${blocks.join("\n\n")}\n`;
}

function header(result: TurnResult, { paint }: Ctx): string {
  const trace = result.trace;
  const lines = [paint("bold", result.tick === 0 ? "Opening" : `Turn ${result.tick}`)];
  const intent = trace.intent;
  if (intent.answer) {
    const target = intent.answer.target !== undefined ? ` → ${quote(intent.answer.target)}` : "";
    const source = intent.source === "pin" ? "pinned" : intent.source;
    // With several players, who led the party's intent (the others followed).
    const leader = intent.answer.leader !== undefined ? `, led by ${quote(intent.answer.leader)}` : "";
    lines.push(`  intent    ${intent.answer.intent}${target} ${paint("gray", `(${source}${leader})`)}`);
  }
  if (intent.note) lines.push(`            ${paint("gray", intent.note)}`);
  const move = trace.movement;
  if (move) {
    const to = move.to;
    lines.push(
      move.moved && to
        ? `  movement  moved to ${to.location} / ${to.area} ${paint("gray", `(${to.region}, ${to.realm})`)}`
        : `  movement  ${paint("yellow", "did not move")}: ${move.reason ?? "no reason given"}`,
    );
  }
  const calls = trace.aiCalls;
  const embed = calls.embed > 0 ? `, embed ${calls.embed}` : "";
  lines.push(
    `  AI calls  ${calls.total} ${paint("gray", `(classify ${calls.classify}, narrate ${calls.narrate}, judge ${calls.judge}${embed})`)}`,
  );
  lines.push(`  fired     ${result.fired.length > 0 ? result.fired.join(", ") : paint("gray", "nothing")}`);
  return lines.join("\n");
}

function phaseBlock(phase: PhaseTrace, ctx: Ctx): string {
  const { paint } = ctx;
  const fired = phase.triggers.filter((t) => t.fired).length;
  const lines = [
    `${paint("bold", `${capitalise(phase.phase)} phase`)}: ${plural(phase.triggers.length, "trigger")} considered, ${fired === 0 ? "none" : fired} fired`,
  ];
  const judge = judgeLine(phase, ctx);
  if (judge) lines.push(judge);
  const shown = ctx.verbose ? phase.triggers : phase.triggers.filter((t) => t.fired || cameClose(t));
  for (const trigger of shown) lines.push(...triggerLines(trigger, ctx));
  const hidden = phase.triggers.length - shown.length;
  if (hidden > 0)
    lines.push(
      paint(
        "gray",
        `  … ${plural(hidden, "other trigger")} did not fire (verbose lists them with every condition)`,
      ),
    );
  for (const ex of phase.excluded)
    lines.push(
      `  ${paint("gray", "-")} ${ex.trigger}  ${paint("gray", `not tried: it moves a quest on that the party has not accepted (${ex.reason})`)}`,
    );
  if (phase.scripts.budgetExhausted)
    lines.push(`  ${paint("red", "scripts")}: the phase's script budget ran out; later scripts did not run`);
  if (phase.storageRejected)
    lines.push(
      `  ${paint("red", "storage")}: a script stored a BigInt or circular value; every storage write of the phase was rejected`,
    );
  const edits = phase.edits;
  if (edits.status === "kept")
    lines.push(
      `  trigger-map edits ${paint("green", "kept")}: ${edits.changed.join(", ")} (live from the next turn)`,
    );
  else if (edits.status === "discarded")
    lines.push(
      `  trigger-map edits ${paint("red", "discarded")}: ${edits.changed.join(", ")}: ${edits.problems.join("; ")}`,
    );
  return lines.join("\n");
}

function judgeLine(phase: PhaseTrace, { paint }: Ctx): string | null {
  const j = phase.judge;
  if (j.candidates.length === 0) return null;
  const parts = [`${plural(j.candidates.length, "candidate")}`];
  if (j.pinned.length > 0) parts.push(`pinned: ${j.pinned.join(", ")}`);
  if (j.sent.length > 0) parts.push(`sent: ${j.sent.join(", ")}`);
  if (j.left.length > 0) parts.push(`left out (not among the top N): ${j.left.join(", ")}`);
  parts.push(`${j.ranking} ranking`);
  parts.push(j.called ? "judge called" : "judge not called");
  return `  ${paint("cyan", "AI judge")}: ${parts.join("; ")}`;
}

/** Not fired, but close enough that an author wonders why: all mechanical conditions passed, or all but one of at least three. */
function cameClose(t: TriggerTrace): boolean {
  if (t.mechanicalPassed || t.suppressed) return true;
  const mechanical = t.conditions.filter((c) => !c.judged);
  const failed = mechanical.filter((c) => c.passed !== true).length;
  return failed === 1 && mechanical.length - failed >= 2;
}

function triggerLines(t: TriggerTrace, ctx: Ctx): string[] {
  const { paint } = ctx;
  const mark = t.fired ? paint("green", "✔") : cameClose(t) ? paint("yellow", "·") : paint("gray", "✗");
  const lines = [`  ${mark} ${paint("bold", t.trigger)}  ${t.fired ? firedSummary(t, ctx) : whyNot(t, ctx)}`];
  if (!ctx.verbose) {
    // Compact: still say what went wrong with a fired trigger's effects.
    for (const e of t.effects) if (e.status === "dropped") lines.push(`      ${effectLine(e, ctx)}`);
    return lines;
  }
  for (const c of t.conditions) lines.push(`      ${conditionLine(c, ctx)}`);
  if (t.script) lines.push(`      ${scriptLine(t.script, ctx)}`);
  for (const e of t.effects) lines.push(`      ${effectLine(e, ctx)}`);
  return lines;
}

function firedSummary(t: TriggerTrace, ctx: Ctx): string {
  const parts = [ctx.paint("green", "fired")];
  const judged = t.conditions.filter((c) => c.judged);
  if (judged.length > 0)
    parts.push(judged.some((c) => c.pinned) ? "AI verdict pinned: passed" : "AI verdict: passed");
  if (t.script && !ctx.verbose) parts.push(scriptSummary(t.script));
  parts.push(effectSummary(t.effects));
  if (t.targets.length > 0) parts.push(`targets: ${t.targets.join(", ")}`);
  if (t.consumed) parts.push("consumed");
  return parts.join("; ");
}

/** Why a considered trigger did not fire, in the order the engine decides. */
function whyNot(t: TriggerTrace, ctx: Ctx): string {
  const { paint } = ctx;
  if (t.suppressed)
    return paint("yellow", "suppressed: every condition passed but no player satisfies it (scope: player)");
  if (!t.mechanicalPassed) {
    const failed = t.conditions.filter((c) => !c.judged && c.passed !== true);
    const first = failed[0];
    if (!first) return paint("red", "a mechanical condition failed");
    const more = failed.length > 1 ? paint("gray", ` (+${failed.length - 1} more failed)`) : "";
    // Verbose lists every condition below; compact names the first failure on the line.
    const detail = ctx.verbose ? "" : `: ${describeCondition(first)}`;
    return `${paint("red", `failed at condition ${first.index + 1}`)}${detail}${more}`;
  }
  if (t.script?.setSkip) return paint("yellow", "script set skip (the trigger stays armed)");
  if (t.candidate) {
    const pinned = t.conditions.some((c) => c.judged && c.pinned);
    switch (t.verdict) {
      case "failed":
        return paint("yellow", pinned ? "AI verdict pinned: failed" : "AI verdict: failed");
      case "no verdict":
        return paint("yellow", "AI gave no verdict (counts as failed)");
      case "not among the top N":
        return paint(
          "yellow",
          `not among the top N AI candidates (rank ${t.rank ?? "?"}), not sent to the judge`,
        );
      default:
        return paint("yellow", `AI verdict: ${t.verdict ?? "none"}`);
    }
  }
  if (t.script && t.script.status !== "ran") return paint("red", scriptSummary(t.script));
  return paint("yellow", "not fired");
}

function conditionLine(c: ConditionTrace, { paint }: Ctx): string {
  const mark =
    c.passed === true ? paint("green", "✔") : c.passed === false ? paint("red", "✗") : paint("gray", "?");
  let detail: string;
  if (c.judged) {
    const verdict =
      c.passed === null
        ? "not decided (not sent to the judge)"
        : `${c.pinned ? "pinned" : "AI verdict"}: ${c.passed ? "yes" : "no"}`;
    const players = c.players && c.players.length > 0 ? `; credited: ${c.players.join(", ")}` : "";
    detail = `${c.type} ${quote(String(c.expected))}: ${verdict}${players}`;
  } else {
    detail = describeCondition(c);
    if (c.type === "action-text" && c.players) detail += `; players: ${c.players.join(", ") || "none"}`;
  }
  const error = c.error !== undefined ? paint("red", ` (${c.error})`) : "";
  return `${mark} [${c.index + 1}] ${detail}${error}`;
}

/** `read-boolean met_mara equals true, actual false`. */
function describeCondition(c: ConditionTrace): string {
  const operator = c.operator !== undefined ? ` ${c.operator}` : "";
  const about = c.subject !== undefined ? ` ${subjectText(c.subject)}` : "";
  return `${c.type}${about}${operator} ${value(c.expected)}, actual ${value(c.actual)}`;
}

/** A subject as written when it is a plain name, else quoted (`met_mara`, `"the old key"`). */
function subjectText(subject: string): string {
  return /^[\w-]+$/.test(subject) ? subject : JSON.stringify(subject);
}

function scriptSummary(s: ScriptTrace): string {
  const time = s.elapsedMs !== undefined ? ` in ${formatMs(s.elapsedMs)}` : "";
  switch (s.status) {
    case "ran":
      return `script ran${time}${s.setSkip ? " and set skip" : ""}${s.editedTriggers ? ", edited the trigger map" : ""}${s.storageRejected ? ", storage rejected" : ""}`;
    case "skipped":
      return `script skipped: ${s.reason ?? "not run"}`;
    default: {
      const at = s.line != null ? ` at line ${s.line}${s.column != null ? `:${s.column}` : ""}` : "";
      return `script ${s.status}${at}${time}: ${s.reason ?? "failed"} (typed effects applied instead)`;
    }
  }
}

function scriptLine(s: ScriptTrace, { paint }: Ctx): string {
  const ok = s.status === "ran";
  return `${ok ? paint("green", "script") : paint("red", "script")} ${scriptSummary(s).replace(/^script /, "")}`;
}

function effectSummary(effects: readonly EffectTrace[]): string {
  if (effects.length === 0) return "no effects";
  const count = (status: EffectTrace["status"]) => effects.filter((e) => e.status === status).length;
  const parts = [`${plural(count("applied"), "effect")} applied`];
  if (count("unchanged") > 0) parts.push(`${count("unchanged")} unchanged`);
  if (count("dropped") > 0) parts.push(`${count("dropped")} dropped`);
  return parts.join(", ");
}

function effectLine(e: EffectTrace, { paint }: Ctx): string {
  const status =
    e.status === "applied"
      ? paint("green", "applied")
      : e.status === "unchanged"
        ? paint("yellow", "unchanged")
        : paint("red", `dropped (${e.reason ?? "not applied"})`);
  const source = e.source === "typed" ? "" : paint("gray", ` [${e.source}]`);
  const note = e.note !== undefined ? paint("gray", ` — ${e.note}`) : "";
  return `effect [${e.index + 1}] ${e.type}${source} ${status}${note}`;
}

function spentBlock(spent: [string, number][], { paint }: Ctx): string {
  const lines = [paint("bold", "Not evaluated (consumed: non-recurring triggers that already fired)")];
  for (const [key, tick] of spent)
    lines.push(`  ${paint("gray", "-")} ${key}  ${paint("gray", `fired ${onTurn(tick)}`)}`);
  return lines.join("\n");
}

function afterTurn(result: TurnResult, ctx: Ctx): string | null {
  const { paint } = ctx;
  const trace = result.trace;
  const lines: string[] = [];
  if (trace.event) lines.push(...eventLines(trace.event, ctx));
  for (const q of trace.quests)
    lines.push(
      `  quest     ${quote(q.quest)}: ${q.from} → ${paint("bold", q.to)} ${paint("gray", `(${q.reason})`)}`,
    );
  for (const p of result.prompts)
    lines.push(
      `  prompt    accept ${quote(p.quest)}? ${paint("gray", `(${p.reason === "new" ? "newly available" : "asked"})`)}`,
    );
  for (const r of trace.recharge)
    lines.push(`  recharge  ${r.character} ${r.resource} ${r.before} → ${r.after}`);
  for (const log of result.logs) {
    const style: Style = log.type === "trigger-script-error" ? "red" : "gray";
    lines.push(`  log       ${paint(style, log.type)} ${log.message}`);
  }
  if (lines.length === 0) return null;
  return [paint("bold", "After the turn"), ...lines].join("\n");
}

function eventLines(e: EventTrace, ctx: Ctx): string[] {
  const { paint } = ctx;
  const result =
    e.result === "active"
      ? "still active"
      : e.result === "forced"
        ? paint("bold", "completed (forced: it ran 2 × targetTurns)")
        : paint("bold", e.result);
  const lines = [
    `  event     ${quote(e.event)}: narrator said ${e.verdict}; active ${plural(e.activeTurns, "turn")}; ${result}`,
  ];
  if (e.effects.length > 0) {
    if (ctx.verbose) for (const fx of e.effects) lines.push(`      ${effectLine(fx, ctx)}`);
    else lines.push(`            ${effectSummary(e.effects)}`);
  }
  return lines;
}

function diffBlock(diff: readonly DiffEntry[], { paint }: Ctx): string {
  if (diff.length === 0) return `${paint("bold", "State diff")}: no change`;
  const lines = [`${paint("bold", "State diff")}: ${plural(diff.length, "change")}`];
  for (const d of diff) {
    const before = Object.hasOwn(d, "before") ? value(d.before) : paint("gray", "(absent)");
    const after = Object.hasOwn(d, "after") ? value(d.after) : paint("gray", "(absent)");
    lines.push(`  ${formatPath(d.path)}: ${before} → ${after}`);
  }
  return lines.join("\n");
}

const MAX_VALUE = 80;

/** A value as JSON on one line, cut to a readable length. */
function value(v: unknown): string {
  if (v === undefined) return "(none)";
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = String(v);
  }
  const chars = [...text];
  return chars.length > MAX_VALUE ? `${chars.slice(0, MAX_VALUE - 1).join("")}…` : text;
}

function quote(text: string): string {
  return value(text);
}

function formatMs(ms: number): string {
  return ms < 10 ? `${Math.round(ms * 100) / 100} ms` : `${Math.round(ms)} ms`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
