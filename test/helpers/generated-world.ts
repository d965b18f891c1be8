import { readFileSync } from "node:fs";

/**
 * Worlds in other vocabularies than the example world's harbour (issue 40, 7),
 * for the offline narrator's behavioural tests: a realm, two regions, three
 * locations with areas, NPCs at some of them and a story start, on the
 * skeleton of test/fixtures/base.world.json. The narrator must move, answer
 * and refuse the same way whatever the words: a test over these worlds
 * asserts behaviour (where the party is, who is named), never wording.
 */

export interface Vocabulary {
  theme: string;
  realm: string;
  regions: [name: string, info: string][];
  /** The first location is where the story starts, in its first area. */
  locations: { name: string; region: number; info: string; areas: [name: string, description: string][] }[];
  /** Each NPC stands in the first area of the location at `location` (an index of `locations`). */
  npcs: { name: string; location: number; info: string }[];
  start: string;
  /** A place this world does not have, as a player might name it. */
  nowhere: string;
}

export const DESERT_CARAVAN: Vocabulary = {
  theme: "a desert caravan",
  realm: "The Saffron Waste",
  regions: [
    ["Dune Sea", "Endless dunes under a white sun."],
    ["Salt Flats", "A cracked white plain."],
  ],
  locations: [
    {
      name: "Qasr Oasis",
      region: 0,
      info: "Palms around a deep well, where the caravans water.",
      areas: [
        ["Well Court", "A stone well under three palms; camels kneel in the shade."],
        ["Tent Row", "Striped tents of the traders."],
      ],
    },
    {
      name: "Windcut Pass",
      region: 0,
      info: "A gap in the red cliffs where the wind never stops.",
      areas: [["Cliff Mouth", "Sand streams between the cliffs."]],
    },
    {
      name: "Mirrorpan Camp",
      region: 1,
      info: "Salt cutters' huts on the flats.",
      areas: [["Cutters' Yard", "Stacked slabs of salt glitter."]],
    },
  ],
  npcs: [
    { name: "Hamid Sarraf", location: 0, info: "The caravan master, who counts every waterskin." },
    { name: "Leyla Tamr", location: 2, info: "A salt cutter with a cracked lip." },
  ],
  start: "The caravan rests at the oasis while the heat climbs.",
  nowhere: "the Glass Citadel",
};

export const SPACE_STATION: Vocabulary = {
  theme: "a space station",
  realm: "Kepler Reach",
  regions: [
    ["Ring One", "The rotating habitat ring."],
    ["Spine", "The zero-gravity core."],
  ],
  locations: [
    {
      name: "Hydroponics Bay",
      region: 0,
      info: "Racks of lettuce under violet lamps.",
      areas: [
        ["Grow Racks", "Humid rows of trays; pumps hum."],
        ["Nutrient Room", "Tanks of green fluid."],
      ],
    },
    {
      name: "Docking Ring",
      region: 1,
      info: "Airlocks where the shuttles berth.",
      areas: [["Airlock Four", "A round hatch and a warning light."]],
    },
    {
      name: "Reactor Deck",
      region: 1,
      info: "The fusion core behind lead glass.",
      areas: [["Control Gallery", "Screens of scrolling numbers."]],
    },
  ],
  npcs: [
    { name: "Captain Oduya", location: 0, info: "The station commander, tired and precise." },
    { name: "Tomas Brandt", location: 2, info: "A reactor engineer with burnt gloves." },
  ],
  start: "The station's night cycle ends with a chime.",
  nowhere: "the Obsidian Garden",
};

const SYLLABLES = "ka ro mi tel vash un dor eth ila sur bren qo zan fey lum ost ir pax".split(" ");
const NOUNS = ["Spire", "Hollow", "Market", "Crossing", "Vault", "Terrace", "Yard", "Landing"];

/** A world of invented names from a seed (another vocabulary per seed): "Vashdor Spire", "Kamiro Hollow". */
export function inventedVocabulary(seed: number): Vocabulary {
  let state = seed >>> 0 || 1;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
  const used = new Set<string>();
  const word = () => {
    for (;;) {
      const w = SYLLABLES[next() % SYLLABLES.length]! + SYLLABLES[next() % SYLLABLES.length]!;
      const name = w.charAt(0).toUpperCase() + w.slice(1);
      if (!used.has(name)) {
        used.add(name);
        return name;
      }
    }
  };
  const place = () => `${word()} ${NOUNS[next() % NOUNS.length]}`;
  const locations = [0, 1, 2].map((i) => ({
    name: place(),
    region: i === 0 ? 0 : 1,
    info: `A place of the ${word()} folk.`,
    areas: [
      [word(), "Worn stones and a low wall."],
      [word(), "A quiet corner."],
    ] as [string, string][],
  }));
  return {
    theme: `invented names (seed ${seed})`,
    realm: word(),
    regions: [
      [word(), "Hills."],
      [word(), "Plains."],
    ],
    locations,
    npcs: [
      { name: `${word()} ${word()}`, location: 0, info: "A traveller." },
      { name: `${word()} ${word()}`, location: 2, info: "A keeper of records." },
    ],
    start: "The day begins.",
    nowhere: `the ${word()} ${NOUNS[next() % NOUNS.length]}`,
  };
}

/** The world file of a vocabulary (V33, valid), as an author would write it. */
export function generatedWorld(v: Vocabulary): Record<string, unknown> {
  const base = JSON.parse(readFileSync(new URL("../fixtures/base.world.json", import.meta.url), "utf8"));
  const regions = Object.fromEntries(
    v.regions.map(([name, basicInfo], i) => [name, { name, basicInfo, x: 0, y: -i, realm: v.realm }]),
  );
  const locations = Object.fromEntries(
    v.locations.map((l, i) => [
      l.name,
      {
        name: l.name,
        basicInfo: l.info,
        x: 10 * i,
        y: 0,
        radius: 3,
        region: v.regions[l.region]![0],
        complexityType: "simple",
        detailType: "basic",
        areas: Object.fromEntries(
          l.areas.map(([name, description]) => [
            name,
            { description, paths: l.areas.map(([other]) => other).filter((o) => o !== name) },
          ]),
        ),
      },
    ]),
  );
  const npcs = Object.fromEntries(
    v.npcs.map((n) => {
      const at = v.locations[n.location]!;
      return [
        n.name,
        {
          name: n.name,
          type: "human",
          currentLocation: at.name,
          currentArea: at.areas[0]![0],
          basicInfo: n.info,
        },
      ];
    }),
  );
  const first = v.locations[0]!;
  return {
    ...base,
    realms: { [v.realm]: { name: v.realm, basicInfo: `The world of ${v.theme}.` } },
    regions,
    locations,
    npcs,
    factions: {},
    quests: {},
    triggers: {},
    storyStarts: {
      Start: {
        name: "Start",
        description: v.start,
        storyStart: v.start,
        locations: [first.name],
        locationAreas: [first.areas[0]![0]],
        startingQuests: [],
        isDefault: true,
      },
    },
  };
}
