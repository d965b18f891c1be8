import { buildRealmMap, chooseRealm, type MapOptions, type RealmMap } from "../author/map/model.ts";
import { realmMapSvg } from "../author/map/svg.ts";
import { readSave } from "../engine/index.ts";
import type { World } from "../world/schema/index.ts";
import { didYouMean } from "../world/suggest.ts";
import { extensionOf, readWorldToDraw, writeDrawing } from "./drawing.ts";
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, fail, reasonOf } from "./exit.ts";
import type { CliIo } from "./io.ts";
import { MAX_PNG_SIDE } from "./png.ts";
import { readSaveText } from "./save-file.ts";

export interface MapCommandOptions {
  /** The realm to draw; the world's first realm by default. */
  realm?: string;
  /** A saved game whose known flags and party position the map shows. */
  save?: string;
  /** `.svg` or `.png`; SVG on stdout when absent. */
  output?: string;
}

/** How many names a note lists before "and N more". */
const LISTED = 5;
/**
 * The fewest pixels a region cell may get in a PNG. A realm thousands of
 * regions long fitted into MAX_PNG_SIDE gave a 4096 × 2 px strip nobody can
 * read; such a realm is refused as PNG (its SVG scales to any size).
 */
export const MIN_REGION_PIXELS = 8;

/**
 * `taleforge map <world>`: one realm's map (src/author/map). Exit 0 when
 * drawn, 1 when the world has errors (what is valid is still drawn) or is not
 * a world, 2 when it could not run: a bad option, an unknown realm, a world
 * with no realm, an unreadable save or one of another world.
 */
export async function map(
  file: string,
  options: MapCommandOptions | Readonly<Record<string, unknown>>,
  io: CliIo,
): Promise<number> {
  const { realm: wanted, save, output } = options as MapCommandOptions;
  for (const [name, value] of [
    ["--realm", wanted],
    ["--save", save],
    ["--output", output],
  ] as const) {
    if (value !== undefined && typeof value !== "string") return fail(io, `${name} takes one value.`);
  }
  const ext = output === undefined ? ".svg" : extensionOf(output);
  if (ext !== ".svg" && ext !== ".png")
    return fail(
      io,
      `--output ${output} must end in .svg or .png (a map is drawn as SVG, or rendered to PNG).`,
    );

  const input = await readWorldToDraw(file, "the map", io);
  if (!input.ok) return input.code;
  const { world } = input;

  const choice = chooseRealm(world, wanted);
  if (!choice.ok) {
    if (choice.problem === "no-realms")
      return fail(
        io,
        `${input.loaded.file} has no realm, so there is no realm map to draw (regions are drawn on their realm's map: docs/format.md, regions). Add a realm to "realms" and name it in each region's "realm".`,
      );
    return fail(
      io,
      `there is no realm ${JSON.stringify(wanted)} in ${input.loaded.file}.${didYouMean(wanted ?? "", choice.realms)} Realms: ${listed(choice.realms)}.`,
    );
  }

  const mapOptions: MapOptions = {};
  if (save !== undefined) {
    const state = await readSavedState(save, input.loaded.value as World, io);
    if (!state) return EXIT_USAGE;
    mapOptions.known = state.known;
    mapOptions.party = state.position;
    if (state.position.realm !== choice.realm && state.position.realm !== "")
      io.stderr(
        `taleforge: the party is in realm "${state.position.realm}", not on this map. Pass --realm "${state.position.realm}" to see it.\n`,
      );
  }
  const realmMap = buildRealmMap(world, choice.realm, mapOptions);
  const b = realmMap.bounds;
  const cells = b ? Math.max(b.maxX - b.minX + 1, b.maxY - b.minY + 1) : 1;
  if (ext === ".png" && cells * MIN_REGION_PIXELS > MAX_PNG_SIDE)
    return fail(
      io,
      `realm "${choice.realm}" is ${b!.maxX - b!.minX + 1} × ${b!.maxY - b!.minY + 1} region cells: a PNG of at most ${MAX_PNG_SIDE} px a side would give each region under ${MIN_REGION_PIXELS} px. Write an SVG instead (--output map.svg), which scales to any size.`,
    );
  const svg = realmMapSvg(realmMap);

  if (output === undefined) io.stdout(svg);
  else {
    const written = await writeDrawing(io, output, svg, ext === ".png");
    if (!written.ok) return EXIT_USAGE;
    const size = written.png ? ` (${written.png.width} × ${written.png.height} px)` : "";
    io.stdout(`Wrote the map of realm "${choice.realm}" (${describe(realmMap)}) to ${output}${size}.\n`);
  }
  for (const note of notes(realmMap)) io.stderr(`taleforge: ${note}\n`);
  io.stderr(input.errorSummary);
  return input.errorCount > 0 ? EXIT_PROBLEMS : EXIT_OK;
}

async function readSavedState(path: string, world: World, io: CliIo) {
  let text: string;
  try {
    text = await readSaveText(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : reasonOf(error);
    fail(io, `cannot read the save ${path}: ${reason}. Pass the file that "taleforge play --save" wrote.`);
    return undefined;
  }
  try {
    return readSave(world, text).state;
  } catch (error) {
    fail(io, `cannot use the save ${path}: ${reasonOf(error).replace(/\s*\n\s*/g, " ")}`);
    return undefined;
  }
}

function describe(map: RealmMap): string {
  const regions = `${map.regions.length} region${map.regions.length === 1 ? "" : "s"}`;
  const locations = `${map.locations.length} location${map.locations.length === 1 ? "" : "s"}`;
  return `${regions}, ${locations}`;
}

/** What the picture cannot say by itself: what was left out, and why. */
function notes(map: RealmMap): string[] {
  const out: string[] = [];
  if (map.regions.length === 0) out.push(`realm "${map.realm}" has no region: the map is empty.`);
  const without = map.regionsWithoutRealm;
  if (without.length > 0)
    out.push(
      `${without.length} region${without.length === 1 ? " has" : "s have"} no realm and ${without.length === 1 ? "is" : "are"} on no realm map (docs/format.md, regions): ${listed(without)}.`,
    );
  const outside = map.locationsOutsideCell;
  if (outside.length > 0)
    out.push(
      `${outside.length} location${outside.length === 1 ? " lies" : "s lie"} outside ${outside.length === 1 ? "its" : "their"} region's cell (offsets beyond ±${map.regionSize / 2}): ${listed(outside)}.`,
    );
  return out;
}

function listed(names: readonly string[]): string {
  const shown = names.slice(0, LISTED).map((n) => JSON.stringify(n));
  return names.length > LISTED ? `${shown.join(", ")} and ${names.length - LISTED} more` : shown.join(", ");
}
