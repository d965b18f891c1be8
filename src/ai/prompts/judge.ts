import type { JudgeRequest } from "../../engine/ports.ts";
import type { World } from "../../world/schema/index.ts";
import { PROMPT_BUDGETS, TEXT_CAPS } from "./budgets.ts";
import { placeLines } from "./scene.ts";
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
  prose,
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
  "- a [story] question is judged against the story of the whole game so far: the summary and the story " +
    "entries. Earlier events count: what happened in an earlier entry still holds unless a later one undoes it.",
  "- a [story since turn N] question (a rule that recurs) is judged only against the story entries after turn " +
    "N: what happened up to turn N was already counted, and only something that happened again after it counts.",
  "- an [action] question is judged against the players' actions: what the players wrote they do this " +
    'turn, whether or not it succeeds. The newest story entry only says what the actions refer to ("read it", ' +
    '"take the offer"); it never satisfies an [action] question by itself.',
  "- an [event] question asks about the newest story entry only: whether this turn's story reached or " +
    "abandoned a narrative event.",
  'A question about "the player" holds when any of the players satisfies it. The scene says where the party ' +
    "is and who is present.",
  "Answer true only when the text clearly supports it. When the text does not say, answer false. Do not guess, " +
    "do not fill gaps from general knowledge, and do not anticipate what may happen next.",
  'For each question, first write under "evidence" the few words of the text that decide it (at most one ' +
    'sentence; "none" when nothing does), then the verdict under "passed".',
  'List under "players" the players (names from the Players list) the text supports: for an [action] ' +
    "question, the players whose own action satisfies it; for a [story] question, the players the story " +
    "shows satisfying it, or every player when it is about the scene or the whole party. When the answer is " +
    "false, list none.",
  "",
  "## A worked example",
  "Story entries: [turn 4] A ship breaks on the Teeth; by dawn the wreckers have dragged its cargo up the " +
    'shingle. [turn 6] Mara hands Isobel the keeper\'s logbook. "Read it before the tide turns," she says.',
  "Players: Isobel, Tom. Actions this turn: Isobel: I open it and read. Tom: I keep watch at the door.",
  "Questions: 1. [action] Does the player read the keeper's logbook? 2. [story] Has a ship been wrecked? " +
    "3. [story since turn 5] Has a ship been wrecked? 4. [story] Has the party made peace with the wreckers? " +
    "5. [action] Does the player attack someone?",
  'Answer: {"verdicts": [{"question": 1, "evidence": "I open it and read (it: the logbook Mara handed over)", ' +
    '"passed": true, "players": ["Isobel"]}, {"question": 2, "evidence": "A ship breaks on the Teeth", ' +
    '"passed": true, "players": ["Isobel", "Tom"]}, {"question": 3, "evidence": "none", "passed": false, ' +
    '"players": []}, {"question": 4, "evidence": "none", "passed": false, "players": []}, {"question": 5, ' +
    '"evidence": "none", "passed": false, "players": []}]}',
  'Why: Isobel\'s own action reads the logbook; "it" is resolved by the newest entry, which alone would not ' +
    "count. The wreck happened, so question 2 holds for the whole party, but it happened at turn 4, not after " +
    "turn 5, so question 3 does not. Nothing says the party made peace or that anyone attacks: false, not a guess.",
  "",
  "## A second example",
  "NEWEST story entry: [turn 9] The gale drops at last. Tom slips on the wet stair and turns his ankle while " +
    "Isobel trims the wick and lights the lamp.",
  "Players: Isobel, Tom. Actions this turn: Isobel: I light the lamp. Tom: (passed).",
  "Questions: 1. [event] Did this turn's story end the storm? 2. [story] Is a player hurt? 3. [action] Does " +
    "the player light the lamp?",
  'Answer: {"verdicts": [{"question": 1, "evidence": "The gale drops at last", "passed": true, "players": ' +
    '["Isobel", "Tom"]}, {"question": 2, "evidence": "Tom slips on the wet stair and turns his ankle", ' +
    '"passed": true, "players": ["Tom"]}, {"question": 3, "evidence": "I light the lamp", "passed": true, ' +
    '"players": ["Isobel"]}]}',
  "Why: the event is about the scene, so every player is listed; only Tom is hurt; only Isobel's action lights " +
    "the lamp (the story telling it does not make it Tom's).",
  "",
  "## Answer",
  "Answer with one JSON object and nothing else, with one verdict for every question, numbered as in the list:",
  '{"verdicts": [{"question": 1, "evidence": "<the words that decide it>", "passed": true, "players": ["<player name>"]}, ' +
    '{"question": 2, "evidence": "none", "passed": false, "players": []}]}',
].join("\n");

/**
 * Trim order when over budget, first to go first: the oldest story entries,
 * then the summary, then the characters present. The questions, actions,
 * players and the newest story entry are protected: a question left out gets
 * no verdict, and a condition without a verdict fails (engine evaluate.ts).
 * The story and the actions are sent only when a question of that kind needs
 * them. Ordered from stable to volatile (summary, story, scene, players,
 * actions, questions) so that the planning and state calls of a turn share a
 * prefix.
 */
export const JUDGE_TRIM_ORDER = ["story entries", "summary", "characters present"] as const;

const rank = rankIn(JUDGE_TRIM_ORDER);

export function judgePrompt(
  _world: World,
  request: JudgeRequest,
  budget: number = PROMPT_BUDGETS.judge,
): ChatMessage[] {
  const kinds = new Set(request.questions.map((q) => q.kind));
  const questions = request.questions.map((q, i) => {
    const since = q.kind === "story" && Number.isInteger(q.since) ? ` since turn ${Number(q.since)}` : "";
    return `${i + 1}. [${KIND_LABEL[q.kind] ?? "story"}${since}] ${inline(String(q.query), TEXT_CAPS.query)}`;
  });
  const user: Block[] = [];
  if (kinds.has("story") || kinds.has("event")) user.push(...storyBlocks(request, budget));
  else if (kinds.has("action")) user.push(newestBlock(request));
  if (request.scene) {
    const scene = request.scene;
    user.push(block("## Scene", placeLines(scene.position), "protected"));
    user.push(
      block(
        "## Characters present",
        bullets(scene.npcsPresent.map((n) => inline(n, TEXT_CAPS.name))),
        rank("characters present"),
        { omitted: (n) => `(and ${n} more)` },
      ),
    );
  }
  user.push(block("## Players", bullets(request.players.map((p) => inline(p, TEXT_CAPS.name))), "protected"));
  if (kinds.has("action")) {
    const actions = request.actions.map((a) => actionLine(a.player, a.text));
    user.push(
      block("## Actions this turn", actions.length > 0 ? bullets(actions) : ["(no actions)"], "protected", {
        omitted: (n) => `(${n} more actions left out)`,
      }),
    );
  }
  user.push(
    block("## Questions", questions, "protected", { omitted: (n) => `(${n} more questions left out)` }),
  );
  return fit(
    [
      { role: "system", blocks: [fixed(null, JUDGE_SYSTEM)] },
      { role: "user", blocks: user },
    ],
    budget,
  );
}

const KIND_LABEL: Record<string, string> = { story: "story", action: "action", event: "event" };

/**
 * For [action] questions alone, the newest story entry (issue 39): an action
 * such as "read it" or "take the offer" is resolved against what the story
 * last put in front of the players.
 */
function newestBlock(request: JudgeRequest): Block {
  const newest = request.history?.entries
    .filter((e) => typeof e.text === "string" && e.text.trim() !== "")
    .at(-1);
  const text = newest
    ? `[turn ${Number(newest.tick)}] ${prose(newest.text, TEXT_CAPS.storyEntry)}`
    : prose(request.storyText ?? "", TEXT_CAPS.storyEntry);
  return block(
    "## NEWEST story entry (what the actions answer to)",
    [text === "" ? "(no story yet)" : text],
    rank("story entries"),
    { from: "start" },
  );
}

/**
 * The story the [story] questions are judged against (spec 2.2: the session
 * history): the running summary, then the story entries since it, oldest
 * first, the newest marked. Without `history` (in-test requests), the story
 * text alone. The newest entry is protected; older ones go first.
 */
function storyBlocks(request: JudgeRequest, budget: number): Block[] {
  const history = request.history;
  if (!history) {
    const story = neutral(request.storyText).trim();
    return [
      block(
        "## Story text",
        [story === "" ? "(no story yet)" : cutStart(story, budget)],
        rank("story entries"),
        {
          from: "start",
        },
      ),
    ];
  }
  const entries = history.entries.filter((e) => typeof e.text === "string" && e.text.trim() !== "");
  const newest = entries.at(-1);
  const older = entries.slice(0, -1);
  const blocks: Block[] = [
    block("## Story so far (summary)", [prose(history.summary, TEXT_CAPS.summary)], rank("summary"), {
      from: "start",
    }),
    block(
      "## Earlier story entries (oldest first)",
      older.map((e) => `[turn ${Number(e.tick)}] ${prose(e.text, TEXT_CAPS.storyEntry)}`),
      rank("story entries"),
      { join: "\n\n", from: "start", omitted: (n) => `(${n} older entries left out)` },
    ),
  ];
  blocks.push(
    block(
      "## NEWEST story entry",
      [
        newest
          ? `[turn ${Number(newest.tick)}] ${prose(newest.text, TEXT_CAPS.storyEntry)}`
          : "(no story yet)",
      ],
      "protected",
    ),
  );
  return blocks;
}
