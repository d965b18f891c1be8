import { existsSync, readFileSync } from "node:fs";
import type { BenchContext, BenchModule } from "./bench-module.ts";
import { type CallKind, playRecorded, RecordingServer, requestText, sharedPrefix } from "./context-game.ts";
import { generateWorld } from "./generate-world.ts";
import { median } from "./measure.ts";
import { formatTable } from "./table.ts";

/**
 * `npm run bench -- context` (issue 39): a 30-turn game per world with the
 * real OpenAI-compatible provider against a local recording server
 * (context-game.ts): the prompt size of each call kind, and the share of each
 * narration request's text equal, from its start, to the previous narration
 * request's (what a server's prefix cache can reuse), over all turns and over
 * the turns that kept the previous turn's running summary ("same summary": a
 * new summary folds the oldest turns away, so the prefix ends at it). Target:
 * a mean share of at least 70% for narration. Worlds: the example, the generated at-cap world,
 * the largest public world in ../shared/worlds when present (read in place),
 * and the example at a 128k-token window (`contextTokens`).
 */
const TURNS = 30;
const TARGET = 0.7;

const bench: BenchModule = {
  name: "context",
  title: `The model's context over ${TURNS} turns: prompt sizes per call kind, narration prefix shared with the previous request`,
  run,
};
export default bench;

const REAL = new URL(
  "../../shared/worlds/fumbleforce__hedoria-world__hedoria.merged-from-world-tabs.json",
  import.meta.url,
);

async function run(context: BenchContext): Promise<void> {
  const worlds: [string, () => unknown, number | undefined][] = [
    [
      "example",
      () => JSON.parse(readFileSync(new URL("../examples/harbor.world.json", import.meta.url), "utf8")),
      undefined,
    ],
    [
      "example, 128k window",
      () => JSON.parse(readFileSync(new URL("../examples/harbor.world.json", import.meta.url), "utf8")),
      128_000,
    ],
    ["at-cap (generated)", () => generateWorld(1), undefined],
  ];
  if (existsSync(REAL))
    worlds.push(["hedoria (690 KB, public)", () => JSON.parse(readFileSync(REAL, "utf8")), undefined]);
  else context.print("(../shared/worlds is not here: the public world is left out)");
  const rows: string[][] = [];
  const progress = context.progress("context", worlds.length);
  for (const [name, load, contextTokens] of worlds) {
    const server = await RecordingServer.start();
    try {
      await playRecorded(load(), server, { turns: TURNS, ...(contextTokens ? { contextTokens } : {}) });
    } finally {
      await server.close();
    }
    const size = (kind: CallKind) => {
      const sizes = server.calls.filter((c) => c.kind === kind).map((c) => requestText(c).length);
      return sizes.length === 0
        ? "-"
        : `${Math.round(median(sizes)).toLocaleString("en-US")} (max ${Math.max(...sizes).toLocaleString("en-US")})`;
    };
    const narration = server.calls.filter((c) => c.kind === "narration").map(requestText);
    const shares = narration.slice(1).map((t, i) => sharedPrefix(narration[i]!, t) / t.length);
    const mean = average(shares);
    const min = Math.min(...shares);
    // A turn after a new running summary starts its history anew: the prefix ends at the summary.
    const summaries = narration.map(summaryOf);
    const between = average(shares.filter((_, i) => summaries[i + 1] === summaries[i]));
    rows.push([
      name,
      size("opening"),
      size("narration"),
      size("intent"),
      size("judge"),
      size("summary"),
      `${Math.round(mean * 100)}% (min ${Math.round(min * 100)}%)`,
      `${Math.round(between * 100)}%`,
      mean >= TARGET ? "met" : "NOT met",
    ]);
    progress.tick();
  }
  progress.stop();
  context.print(
    formatTable(
      [
        "world",
        "opening chars",
        "narration chars",
        "intent chars",
        "judge chars",
        "summary chars",
        "narration prefix shared",
        "same summary",
        `target ${TARGET * 100}%`,
      ],
      rows,
    ),
  );
}

function average(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

/** The running summary a narration request carries ("" before the first). */
function summaryOf(text: string): string {
  const at = text.indexOf("## Story so far (summary)\n");
  if (at < 0) return "";
  const end = text.indexOf("\n\n", at);
  return text.slice(at, end < 0 ? undefined : end);
}
