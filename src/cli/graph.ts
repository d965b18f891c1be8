import { toDot } from "../author/graph/dot.ts";
import { toMermaid } from "../author/graph/mermaid.ts";
import { buildGraph, type WorldGraph } from "../author/graph/model.ts";
import { toSvg } from "../author/graph/svg.ts";
import { overTriggerLimits } from "../world/lint/rules/over-limit.ts";
import { MAX_MECHANICAL_TRIGGERS, MAX_SEMANTIC_TRIGGERS } from "../world/rules/limit/trigger-count.ts";
import { didYouMean } from "../world/suggest.ts";
import { extensionOf, readWorldToDraw, writeDrawing } from "./drawing.ts";
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, fail } from "./exit.ts";
import type { CliIo } from "./io.ts";

export interface GraphOptions {
  /** mermaid (default), dot or svg. */
  format?: string;
  /** Write here instead of stdout; `.png` renders the SVG to an image. */
  output?: string;
}

const FORMATS = {
  mermaid: toMermaid,
  dot: toDot,
  svg: toSvg,
} as const satisfies Record<string, (graph: WorldGraph) => string>;
type Format = keyof typeof FORMATS;

/** The format a file name asks for; --format's default (mermaid) gives way to it. */
const BY_EXTENSION: Record<string, Format | "png"> = {
  ".mmd": "mermaid",
  ".mermaid": "mermaid",
  ".dot": "dot",
  ".gv": "dot",
  ".svg": "svg",
  ".png": "png",
};

/**
 * `taleforge graph <world>`: the world's logic as a graph (src/author/graph).
 * Exit 0 when drawn, 1 when the world has errors (what is valid is still
 * drawn) or is not a world, 2 when the command could not run.
 */
export async function graph(
  file: string,
  options: GraphOptions | Readonly<Record<string, unknown>>,
  io: CliIo,
): Promise<number> {
  const { format: asked = "mermaid", output } = options as GraphOptions;
  if (typeof asked !== "string" || (output !== undefined && typeof output !== "string"))
    return fail(io, "--format and --output take one value each.");
  if (!Object.hasOwn(FORMATS, asked))
    return fail(
      io,
      `unknown format "${asked}".${didYouMean(asked, Object.keys(FORMATS))} Use --format mermaid, dot or svg.`,
    );
  let format = asked as Format;
  let png = false;
  if (output !== undefined) {
    const wanted = BY_EXTENSION[extensionOf(output)];
    if (wanted === "png") {
      if (format === "mermaid") format = "svg";
      if (format !== "svg")
        return fail(io, `--output ${output} is a PNG, drawn from the SVG: use --format svg, not ${format}.`);
      png = true;
    } else if (wanted !== undefined && wanted !== format) {
      if (format !== "mermaid")
        return fail(
          io,
          `--output ${output} looks like ${wanted} but --format is ${format}: change one of them.`,
        );
      format = wanted;
    }
  }

  const input = await readWorldToDraw(file, "the graph", io);
  if (!input.ok) return input.code;
  // A world over the trigger limits cannot run, and its graph took minutes and gigabytes (issue 15 item 13).
  if (overTriggerLimits(input.loaded.value)) {
    io.stderr(
      `taleforge graph: ${input.loaded.file} is over the trigger limits (${MAX_MECHANICAL_TRIGGERS} mechanical, ${MAX_SEMANTIC_TRIGGERS} semantic; see limit/trigger-count), so no graph is drawn. Bring it within the limits first.\n`,
    );
    return EXIT_PROBLEMS;
  }
  const model = buildGraph(input.world);
  const text = FORMATS[format](model);

  if (output === undefined) io.stdout(text);
  else {
    const written = await writeDrawing(io, output, text, png);
    if (!written.ok) return EXIT_USAGE;
    const size = written.png ? `, ${written.png.width} × ${written.png.height} px` : "";
    io.stdout(`Wrote the graph of ${describe(model)} to ${output} (${png ? "png" : format}${size}).\n`);
  }
  if (model.nodes.length === 0)
    io.stderr("taleforge: this world has no triggers, quests or narrative events: the graph is empty.\n");
  io.stderr(input.errorSummary);
  return input.errorCount > 0 ? EXIT_PROBLEMS : EXIT_OK;
}

function describe(model: WorldGraph): string {
  const count = (kind: string, word: string) => {
    const n = model.nodes.filter((node) => node.kind === kind).length;
    return `${n} ${word}${n === 1 ? "" : "s"}`;
  };
  // "97 triggers" for a world of 89 would puzzle its author: the engine's objective triggers are counted apart.
  const triggers = model.nodes.filter((node) => node.kind === "trigger");
  const made = triggers.filter((node) => node.trigger?.engineMade).length;
  const own = triggers.length - made;
  const triggerText =
    made === 0
      ? count("trigger", "trigger")
      : `${own} trigger${own === 1 ? "" : "s"} (and ${made} objective trigger${made === 1 ? "" : "s"} the engine adds)`;
  return [
    triggerText,
    count("quest", "quest"),
    count("event", "narrative event"),
    count("storage", "storage key"),
  ].join(", ");
}
