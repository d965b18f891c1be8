import type { JsonPath } from "../../world/diagnostic.ts";
import { type Locate, type Problem, type ProblemData, type ProblemMessage, problemAt } from "./problem.ts";
import { type PlayerSetup, type PlaytestFile, STEP_KINDS, type Step } from "./schema.ts";

/**
 * The rules that tie keys together, which a schema states badly: one action
 * kind per step, pins only on a played turn, `target` only with `intent`,
 * `turns` or `tests` but not both, premade or made-up players.
 */
export function checkRules(file: PlaytestFile, locate: Locate): Problem[] {
  const problems: Problem[] = [];
  const conflict: Conflict = (path, messageId, data = {}, atKey = true) =>
    problems.push(problemAt(locate, "playtest/conflict", path, messageId, data, atKey));

  if (file.turns !== undefined && file.tests !== undefined) conflict(["tests"], "turns-and-tests");
  if (file.turns === undefined && file.tests === undefined)
    problems.push(problemAt(locate, "playtest/missing-key", [], "no-turns"));
  if (file.tests !== undefined && file.name !== undefined) conflict(["name"], "file-name");

  checkPlayers(file.players, ["players"], conflict);
  file.turns?.forEach((step, i) => {
    checkStep(step, ["turns", i], conflict);
  });
  const names = new Map<string, number>();
  file.tests?.forEach((test, t) => {
    checkPlayers(test.players, ["tests", t, "players"], conflict);
    test.turns.forEach((step, i) => {
      checkStep(step, ["tests", t, "turns", i], conflict);
    });
    if (test.name !== undefined) {
      const first = names.get(test.name);
      if (first !== undefined)
        conflict(["tests", t, "name"], "same-name", { test: t + 1, first: first + 1 }, false);
      else names.set(test.name, t);
    }
  });
  return problems;
}

type Conflict = (
  path: JsonPath,
  messageId: ProblemMessage<"playtest/conflict">,
  data?: ProblemData,
  atKey?: boolean,
) => void;

function checkPlayers(players: PlayerSetup[] | undefined, path: JsonPath, conflict: Conflict): void {
  players?.forEach((p, i) => {
    const at = [...path, i];
    if (p.premade !== undefined && p.name !== undefined) conflict([...at, "name"], "premade-and-name");
    else if (p.premade === undefined && p.name === undefined) conflict(at, "no-player-name", {}, false);
    if (p.premade !== undefined) {
      for (const key of ["traits", "attributes"] as const)
        if (p[key] !== undefined) conflict([...at, key], "premade-has", { key });
    }
  });
}

const PINS = ["intent", "target", "story", "judge", "event"] as const;

function checkStep(step: Step, path: JsonPath, conflict: Conflict): void {
  const kinds = STEP_KINDS.filter((k) => step[k] !== undefined);
  if (kinds.length > 1) conflict([...path, kinds[1]!], "two-kinds", { first: kinds[0]!, second: kinds[1]! });
  if (kinds.length === 0 && step.expect === undefined) conflict(path, "does-nothing", {}, false);
  const plays = step.act !== undefined || step.acts !== undefined;
  if (step.player !== undefined && step.act === undefined)
    conflict([...path, "player"], step.acts !== undefined ? "player-with-acts" : "player-without-act");
  if (!plays) {
    for (const pin of PINS) if (step[pin] !== undefined) conflict([...path, pin], "pin-without-act", { pin });
  } else if (step.target !== undefined && step.intent === undefined) {
    conflict([...path, "target"], "target-without-intent");
  }
  if (step.acts) {
    const seen = new Map<string, number>();
    step.acts.forEach((a, i) => {
      const first = seen.get(a.player);
      if (first !== undefined)
        conflict([...path, "acts", i, "player"], "acts-twice", { player: a.player, first }, false);
      else seen.set(a.player, i);
    });
  }
}
