import { z } from "zod";
import { describe, EMBEDDING_ID, HIDDEN_INFO, IMAGE_URL, KNOWN, NAME_RULE } from "./describe.ts";

const LevelRange = describe(
  z.object({
    min: describe(z.number(), "The lowest level, an integer of 1 or more."),
    max: describe(z.number(), "The highest level, an integer not below `min`."),
  }),
  "The level range of NPCs the AI invents here; authored NPCs keep their own `level`. A location's range overrides its region's. Not used by Taleforge's engine. Optional.",
);

export const Realm = describe(
  z.object({
    name: describe(z.string(), `The realm's name. ${NAME_RULE}`),
    basicInfo: describe(
      z.string(),
      "What the realm is (a world, a country, a plane): a few sentences for the narrator.",
    ),
    embeddingId: describe(z.string().optional(), EMBEDDING_ID),
    known: describe(z.boolean().optional(), KNOWN(true)),
  }),
  "A realm: the top-level container of regions (a world, a country, a plane). Regions name it in their `realm`, and `taleforge map` draws one realm's map. Most worlds have one realm.",
);
export type Realm = z.infer<typeof Realm>;

/** docs/format.md, regions. */
export const Region = describe(
  z.object({
    name: describe(z.string(), `The region's name. ${NAME_RULE}`),
    basicInfo: describe(
      z.string(),
      "Terrain, climate, landmarks and inhabitants, and at most one sentence of politics: what the narrator knows of the region. At most 4000 characters (limit/region-info).",
    ),
    x: describe(
      z.number(),
      "The region's column on its realm's grid: an integer; +x is east. One unit is one region (`locationSettings.regionSize` map units). Regions of a realm must touch by edges (region/ rules).",
    ),
    y: describe(z.number(), "The region's row on its realm's grid: an integer; +y is north."),
    realm: describe(
      z.string().optional(),
      "The key of the realm the region belongs to. Without it the region is valid but is on no realm map, and travel to it does not depend on a known realm.",
    ),
    factions: describe(
      z.array(z.string()).optional(),
      "Keys of the factions present in the whole region. Optional.",
    ),
    hiddenInfo: describe(
      z.string().optional(),
      `${HIDDEN_INFO} Regions make no use of it: leave it out. At most 4000 characters.`,
    ),
    embeddingId: describe(z.string().optional(), EMBEDDING_ID),
    known: describe(z.boolean().optional(), KNOWN(true)),
    npcLevelRange: LevelRange.optional(),
    imageUrl: describe(z.string().optional(), IMAGE_URL),
  }),
  "A region: one cell of its realm's grid, holding locations. Regions usually hold 3 to 8 locations.",
);
export type Region = z.infer<typeof Region>;

export const Area = describe(
  z.object({
    description: describe(z.string(), "What the area looks like: the narrator's description of it."),
    paths: describe(
      z.array(z.string()),
      "Keys of the areas of the same location reachable from here in one move. Paths are one-way: list the way back in the other area.",
    ),
  }),
  "An area: one spot inside a location (a room, a yard, a clearing). The party is always in one area.",
);
export type Area = z.infer<typeof Area>;

export const Location = describe(
  z.object({
    name: describe(z.string(), `The location's name, the one players travel to. ${NAME_RULE}`),
    basicInfo: describe(z.string(), "What the location is, for the narrator: a few sentences."),
    x: describe(
      z.number(),
      "East-west offset from its region's centre, in map units: from -regionSize/2 to +regionSize/2 (-50 to 50 with the usual regionSize 100).",
    ),
    y: describe(
      z.number(),
      "North-south offset from its region's centre, in map units, like `x`; +y is north.",
    ),
    radius: describe(
      z.number(),
      "The location's size on the map, in map units (typically `locationSettings.simpleRadius` or `complexRadius`).",
    ),
    region: describe(z.string(), "The key of the region the location is in."),
    complexityType: describe(
      z.enum(["simple", "complex", "wilderness"]),
      "How much the location holds: `simple` (a building, a clearing), `complex` (a town, a castle: many areas) or `wilderness` (open country).",
    ),
    detailType: describe(
      z.enum(["basic", "detailed"]),
      "`detailed` when the author wrote its areas and contents; `basic` when the AI may fill in details.",
    ),
    areas: describe(
      z.record(z.string(), Area).optional(),
      "The location's areas, by name. The party arrives in the first one. Optional, but a location without areas has nowhere for the party or NPCs to stand.",
    ),
    factions: describe(z.array(z.string()).optional(), "Keys of the factions present here. Optional."),
    visualTags: describe(
      z.array(z.string()).optional(),
      "Short tags for image generation (`misty`, `stone`). Not used by Taleforge. Optional.",
    ),
    hiddenInfo: describe(z.string().optional(), HIDDEN_INFO),
    embeddingId: describe(z.string().optional(), EMBEDDING_ID),
    known: describe(z.boolean().optional(), KNOWN(true)),
    npcLevelRange: LevelRange.optional(),
    imageUrl: describe(z.string().optional(), IMAGE_URL),
  }),
  "A location: a place inside a region that the party can travel to, made of areas.",
);
export type Location = z.infer<typeof Location>;

export const Faction = describe(
  z.object({
    name: describe(z.string(), `The faction's name. ${NAME_RULE}`),
    basicInfo: describe(z.string(), "Who they are and what they want, for the narrator."),
    factionType: describe(
      z.enum(["minor", "major"]),
      "`major` for a power that shapes the world, `minor` for a local group.",
    ),
    hiddenInfo: describe(z.string().optional(), HIDDEN_INFO),
    embeddingId: describe(z.string().optional(), EMBEDDING_ID),
    known: describe(z.boolean().optional(), KNOWN(true)),
  }),
  "A faction: a group that regions, locations and NPCs can belong to.",
);
export type Faction = z.infer<typeof Faction>;
