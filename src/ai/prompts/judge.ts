import type { JudgeRequest } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { PROMPT_BUDGETS, TEXT_CAPS } from "./budgets.ts";
import {
  actionLine,
  type Block,
  block,
  bullets,
  cutStart,
  fit,
  fixed,
  inline,
  neutral,
  rankIn,
} from "./sections.ts";
import type { ChatMessage } from "./types.ts";

/**
 * The AI judge's prompt: the AI-judged conditions (`story`, `action`) of the
 * candidate triggers of a phase, as numbered questions answered in one call
 * (JudgeAnswerSchema, by 1-based question number). The judge answers from
 * the text alone: a trigger must not fire on a guess.
 */

export const JUDGE_SYSTEM = [
  "You judge conditions in a turn-based text role-playing game. For each numbered question, decide whether " +
    "it is true, strictly from the text given:",
  "- a [story] question is judged against the story text only;",
  "- an [action] question is judged against the players' actions only: what the players wrote they do this " +
    "turn, whether or not it succeeds.",
  'A question about "the player" holds when any of the players satisfies it.',
  "Answer true only when the text clearly supports it. When the text does not say, answer false. Do not guess, " +
    "do not fill gaps from general knowledge, and do not anticipate what may happen next.",
  'For each question, list under "players" the players (names from the Players list) the text supports: for ' +
    "an [action] question, the players whose own action satisfies it; for a [story] question, the players the " +
    "story shows satisfying it, or every player when it is about the scene or the whole party. When the answer " +
    "is false, list none.",
  "",
  "## Answer",
  "Answer with one JSON object and nothing else, with one verdict for every question, numbered as in the list:",
  '{"verdicts": [{"question": 1, "passed": true, "players": ["<player name>"]}, {"question": 2, "passed": false, "players": []}]}',
].join("\n");

/**
 * Trim order when over budget: only the story text (its start first). The
 * questions, actions and players are protected: a question left out gets no
 * verdict, and a condition without a verdict fails (engine evaluate.ts). The
 * story text and the actions are sent only when a question of that kind
 * needs them.
 */
export const JUDGE_TRIM_ORDER = ["story text"] as const;

const rank = rankIn(JUDGE_TRIM_ORDER);

export function judgePrompt(_world: World, request: JudgeRequest): ChatMessage[] {
  const kinds = new Set(request.questions.map((q) => q.kind));
  const questions = request.questions.map(
    (q, i) =>
      `${i + 1}. [${q.kind === "action" ? "action" : "story"}] ${inline(String(q.query), TEXT_CAPS.query)}`,
  );
  const user: Block[] = [
    block("## Questions", questions, "protected", { omitted: (n) => `(${n} more questions left out)` }),
  ];
  if (kinds.has("story")) {
    const story = neutral(request.storyText).trim();
    user.push(
      block(
        "## Story text",
        [story === "" ? "(no story yet)" : cutStart(story, PROMPT_BUDGETS.judge)],
        rank("story text"),
        {
          from: "start",
        },
      ),
    );
  }
  if (kinds.has("action")) {
    const actions = request.actions.map((a) => actionLine(a.player, a.text));
    user.push(
      block("## Actions", actions.length > 0 ? bullets(actions) : ["(no actions)"], "protected", {
        omitted: (n) => `(${n} more actions left out)`,
      }),
    );
  }
  user.push(block("## Players", bullets(request.players.map((p) => inline(p, TEXT_CAPS.name))), "protected"));
  return fit(
    [
      { role: "system", blocks: [fixed(null, JUDGE_SYSTEM)] },
      { role: "user", blocks: user },
    ],
    PROMPT_BUDGETS.judge,
  );
}
