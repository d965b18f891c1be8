import type { JsonPath } from "../../world/diagnostic.ts";
import { type Locate, type Problem, problemAt } from "./problem.ts";
import { type PlayerSetup, type PlaytestFile, STEP_KINDS, type Step } from "./schema.ts";

/**
 * The rules that tie keys together, which a schema states badly: one action
 * kind per step, pins only on a played turn, `target` only with `intent`,
 * `turns` or `tests` but not both, premade or made-up players.
 */
export function checkRules(file: PlaytestFile, locate: Locate): Problem[] {
  const problems: Problem[] = [];
  const conflict = (path: JsonPath, message: string, atKey = true) =>
    problems.push(problemAt(locate, "playtest/conflict", path, message, atKey));

  if (file.turns !== undefined && file.tests !== undefined)
    conflict(["tests"], "Use `turns:` (one play-test) or `tests:` (several), not both.");
  if (file.turns === undefined && file.tests === undefined)
    problems.push(
      problemAt(
        locate,
        "playtest/missing-key",
        [],
        "The file has neither `turns:` (one play-test) nor `tests:` (several). Add the steps to play.",
      ),
    );
  if (file.tests !== undefined && file.name !== undefined)
    conflict(["name"], "With `tests:`, name each test (`tests[N].name`) instead of the file.");

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
        conflict(
          ["tests", t, "name"],
          `Test ${t + 1} has the same name as test ${first + 1}; give each test its own name.`,
          false,
        );
      else names.set(test.name, t);
    }
  });
  return problems;
}

type Conflict = (path: JsonPath, message: string, atKey?: boolean) => void;

function checkPlayers(players: PlayerSetup[] | undefined, path: JsonPath, conflict: Conflict): void {
  players?.forEach((p, i) => {
    const at = [...path, i];
    if (p.premade !== undefined && p.name !== undefined)
      conflict([...at, "name"], "A player is `premade: <name>` or a made-up `name:`, not both.");
    else if (p.premade === undefined && p.name === undefined)
      conflict(
        at,
        "A player needs `name:` (made up) or `premade:` (a premade character of the world).",
        false,
      );
    if (p.premade !== undefined) {
      for (const key of ["traits", "attributes"] as const)
        if (p[key] !== undefined)
          conflict([...at, key], `A premade character has its own ${key}; remove \`${key}\`.`);
    }
  });
}

const PINS = ["intent", "target", "story", "judge"] as const;

function checkStep(step: Step, path: JsonPath, conflict: Conflict): void {
  const kinds = STEP_KINDS.filter((k) => step[k] !== undefined);
  if (kinds.length > 1)
    conflict(
      [...path, kinds[1]!],
      `A step does one thing: \`${kinds[0]}\` and \`${kinds[1]}\` cannot be in the same step. Split it into two steps.`,
    );
  if (kinds.length === 0 && step.expect === undefined)
    conflict(
      path,
      "This step does nothing: give it `act:`, `acts:`, `accept:`, `reject:`, `abandon:` or `expect:`.",
      false,
    );
  const plays = step.act !== undefined || step.acts !== undefined;
  if (step.player !== undefined && step.act === undefined)
    conflict(
      [...path, "player"],
      step.acts !== undefined
        ? "With `acts:`, each entry names its player; remove `player:`."
        : "`player:` names who acts; it goes with `act:`.",
    );
  if (!plays) {
    for (const pin of PINS)
      if (step[pin] !== undefined)
        conflict(
          [...path, pin],
          `\`${pin}:\` pins an answer of a played turn; it goes with \`act:\` or \`acts:\`.`,
        );
  } else if (step.target !== undefined && step.intent === undefined) {
    conflict(
      [...path, "target"],
      "`target:` pins the target of a pinned intent: add `intent:` (travel, move, fastTravel or teleport), or remove `target:` to let the classifier answer both.",
    );
  }
  if (step.acts) {
    const seen = new Map<string, number>();
    step.acts.forEach((a, i) => {
      const first = seen.get(a.player);
      if (first !== undefined)
        conflict(
          [...path, "acts", i, "player"],
          `"${a.player}" already acts in this turn (acts[${first}]); one action per player.`,
          false,
        );
      else seen.set(a.player, i);
    });
  }
}
