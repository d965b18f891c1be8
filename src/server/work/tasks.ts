import { createHash } from "node:crypto";
import { buildRealmMap, chooseRealm, type MapOptions } from "../../author/map/model.ts";
import { realmMapSvg } from "../../author/map/svg.ts";
import { type CheckReport, checkReport } from "../../host/check-report.ts";
import { checkForServe } from "../../world/repair.ts";
import type { World } from "../../world/schema/index.ts";
import { type ImportedSave, type Refusal, Refused, readImport } from "./import.ts";

/** A world's id: the sha256 of its text (content-addressed: the same bytes are one world). */
export function worldHashOf(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * The work a client's request may cause that takes more than a slice of the event loop: checking an
 * uploaded world, drawing a map, reading an imported save. Run in the work pool's threads (pool.ts); plain data in and out.
 */
export type Task =
  | {
      kind: "check";
      text: string;
      name: string;
      /** Refuse any error, repairs too (the upload's `strict`). */
      strict?: boolean;
    }
  | {
      kind: "map";
      world: World;
      realm: string | undefined;
      /** A game's map: the places it knows and where its party stands (a save's `known` and `position`). */
      options?: MapOptions;
    }
  | {
      kind: "import";
      /** The stored world the save is played on: its hash (the thread keeps a few read), text and name. */
      world: { hash: string; text: string; name: string };
      save: string;
    };

export type TaskResult =
  | { kind: "checked"; hash: string; world: World; report: CheckReport }
  | { kind: "invalid"; count: number; report: CheckReport }
  | { kind: "map"; svg: string }
  | { kind: "no-realm"; realms: string[] }
  | ImportedSave
  /** The request is refused: the arguments of the ApiError to answer with. */
  | { kind: "refused"; args: Refusal };

export function runTask(task: Task): TaskResult {
  try {
    return runOne(task);
  } catch (error) {
    if (error instanceof Refused) return { kind: "refused", args: error.args };
    throw error;
  }
}

function runOne(task: Task): TaskResult {
  if (task.kind === "import") return readImport(task.world, task.save);
  if (task.kind === "check") {
    // Accepted as `play` accepts a real world: repaired, or with the errors the platform plays (issue 35).
    const result = checkForServe(task.text, task.name, undefined, { strict: task.strict === true });
    const report = checkReport({ ...result, file: task.name });
    if (result.world === undefined)
      return { kind: "invalid", count: result.errorCount, report: boundedReport(report) };
    // The hash of an 8 MiB upload is some 30 ms of CPU: here too, not on the event loop.
    return { kind: "checked", hash: worldHashOf(task.text), world: result.world, report };
  }
  const choice = chooseRealm(task.world, task.realm);
  if (!choice.ok) return { kind: "no-realm", realms: Object.keys(task.world.realms) };
  return { kind: "map", svg: realmMapSvg(buildRealmMap(task.world, choice.realm, task.options ?? {})) };
}

/**
 * The most diagnostics a refused upload's report lists (errors first; `errorCount` and `warningCount`
 * stay the totals). A world with thousands of errors made a report of megabytes, copied from the
 * work thread and written out on the event loop for every refused upload; `taleforge check` lists them all.
 */
export const REFUSAL_DIAGNOSTICS = 200;

function boundedReport(report: CheckReport): CheckReport {
  if (report.diagnostics.length <= REFUSAL_DIAGNOSTICS) return report;
  const errors = report.diagnostics.filter((d) => d.severity === "error");
  const others = report.diagnostics.filter((d) => d.severity !== "error");
  return { ...report, diagnostics: [...errors, ...others].slice(0, REFUSAL_DIAGNOSTICS) };
}
