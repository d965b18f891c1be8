import { readdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { Document } from "yaml";
import type { World } from "../../world/schema/index.ts";
import type { LabelledCase } from "../playtest/cases.ts";
import { readPlaytest } from "../playtest/load.ts";
import { conditionName, type JudgedCondition, judgedConditions } from "./conditions.ts";

/** A labelled case with where it came from, for the report. */
export interface SourcedCase extends LabelledCase {
  source: string;
}

/** How much of the story so far a case from a play-test keeps (the judge's prompt keeps less). */
const STORY_CHARS = 4_000;

/**
 * The starter set (`eval --init`): for each AI-judged condition, a case that
 * should pass (the condition's own words, as a story or an action) and two
 * that should not (an unrelated turn, and the thing only talked about). The
 * author corrects them into real paraphrases: a starter set measures little
 * until then.
 */
export function starterCases(world: World): SourcedCase[] {
  const out: SourcedCase[] = [];
  for (const c of judgedConditions(world)) {
    const said = sentence(c.query);
    const base = { trigger: c.trigger, condition: c.index, source: "starter" };
    if (c.type === "story") {
      out.push({ ...base, story: said, expect: true, note: "the condition, told as it happens" });
      out.push({
        ...base,
        story: "The party waits. Nothing of note happens; the day goes by.",
        expect: false,
        note: "an unrelated turn",
      });
      out.push({
        ...base,
        story: `Someone wonders aloud whether it will ever come to pass: "${stripEnd(said)}?" Nobody answers, and nothing is done.`,
        expect: false,
        note: "only talked about, not done",
      });
    } else {
      out.push({
        ...base,
        action: asAction(said),
        expect: true,
        note: "the condition, as the player's action",
      });
      out.push({ ...base, action: "I look around.", expect: false, note: "an unrelated action" });
      out.push({
        ...base,
        action: `I ask whether anyone has seen this: ${stripEnd(said)}.`,
        expect: false,
        note: "only asked about, not done",
      });
    }
  }
  return out;
}

/** The starter set as a cases file, for the author to correct (`eval --init`). */
export function starterFile(world: World, worldRef: string): string {
  const doc = new Document({
    world: worldRef,
    cases: starterCases(world).map(({ source: _source, ...c }) => c),
  });
  doc.commentBefore = [
    " Labelled cases for `taleforge eval` (docs/eval.md), written by `eval --init`.",
    " For each AI-judged condition: a story so far (story conditions) or an action (action conditions),",
    " and whether the condition should pass. These are starters: rewrite them into the paraphrases",
    " players really write, add the near misses you fear, and correct any label you disagree with.",
  ].join("\n");
  return doc.toString({ lineWidth: 100 });
}

/**
 * Cases from play-tests of this world: each `judge:` pin with the step's
 * pinned `story` (and the stories pinned before it) or its action is a
 * labelled case, the pin its label. A pin decides all the AI-judged
 * conditions of its trigger, so `false` labels a condition only when it is
 * the trigger's one AI-judged condition.
 */
export async function casesFromPlaytests(
  world: World,
  worldPath: string,
  files: readonly string[],
  show: (path: string) => string,
): Promise<SourcedCase[]> {
  const byTrigger = new Map<string, JudgedCondition[]>();
  for (const c of judgedConditions(world)) byTrigger.set(c.trigger, [...(byTrigger.get(c.trigger) ?? []), c]);
  const out: SourcedCase[] = [];
  for (const file of files) {
    const loaded = await readPlaytest(file, show(file));
    if (!loaded.spec || loaded.problems.length > 0) continue;
    if (resolve(dirname(file), loaded.spec.world) !== resolve(worldPath)) continue;
    for (const test of loaded.tests) {
      let story = "";
      test.steps.forEach((step, i) => {
        if (step.story !== undefined) story = `${story}\n\n${step.story}`.slice(-STORY_CHARS).trim();
        const action = step.act ?? step.acts?.[0]?.act;
        for (const [trigger, verdict] of Object.entries(step.judge ?? {})) {
          const conditions = byTrigger.get(trigger) ?? [];
          if (!verdict && conditions.length !== 1) continue;
          for (const c of conditions) {
            const where = `${show(file)} › ${test.name} step ${i + 1}`;
            if (c.type === "story" && step.story !== undefined)
              out.push({ trigger, condition: c.index, story, expect: verdict, source: where });
            else if (c.type === "action" && action !== undefined)
              out.push({ trigger, condition: c.index, action, expect: verdict, source: where });
          }
        }
      });
    }
  }
  return out;
}

/** Play-tests beside the world and under `tests/` beside it (not deeper than a few folders). */
export async function playtestsNear(worldPath: string): Promise<string[]> {
  const folder = dirname(worldPath);
  const out: string[] = [];
  const walk = async (dir: string, depth: number) => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const path = join(dir, entry.name);
      if (entry.isFile() && /\.test\.(ya?ml|json)$/i.test(entry.name)) out.push(path);
      else if (entry.isDirectory() && depth < 3 && (depth > 0 || entry.name === "tests"))
        await walk(path, depth + 1);
    }
  };
  await walk(folder, 0);
  return out;
}

/** "Does the player ring the fog bell?" as the player would write it: "I ring the fog bell." */
function asAction(text: string): string {
  const found =
    /^(?:does|did|will|do)\s+(?:the|a|any|one)?\s*(?:player|players|party|hero|character)s?\s+(.+?)[?.!]*$/i.exec(
      text.trim(),
    );
  return found ? `I ${found[1]}.` : text;
}

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

function stripEnd(text: string): string {
  return text.replace(/[.!?]+$/, "");
}

export { conditionName };
