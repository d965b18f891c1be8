import type { Random } from "./random.ts";

/**
 * Word pools for generated prose. Realistic length and variety matter for the
 * benchmark (string checks, regexes and JSON size all scale with text), the
 * meaning does not. Written for this project; no text from real worlds.
 */

const TERRAIN = [
  "rolling downs cut by chalk streams",
  "salt flats that flood every spring",
  "pine forest thick with resin and moss",
  "terraced vineyards on south-facing slopes",
  "a basalt plateau split by deep ravines",
  "reed marsh threaded with plank walkways",
  "birch woods over old burial mounds",
  "grazing meadows fenced with dry stone",
  "sand dunes held by marram grass",
  "a wide river plain of orchards and mills",
];
const CLIMATE = [
  "Summers are short and bright, winters long and wet.",
  "Fog rolls in from the coast most mornings and burns off by noon.",
  "Storms come suddenly from the west and leave as quickly.",
  "The air is dry, the nights are cold and the stars are sharp.",
  "Rain falls gently but often, and the soil stays dark and rich.",
];
const LANDMARK = [
  "a ruined watchtower whose stair still climbs to nothing",
  "a standing stone carved with weather-worn spirals",
  "an abandoned quarry now filled with green water",
  "a toll bridge kept by the same family for nine generations",
  "a hill fort whose earth banks still shape the skyline",
  "a shrine of white pebbles tended by passing travellers",
  "a copper mine sealed after a collapse long ago",
  "a lighthouse that guides barges along the estuary",
];
const PEOPLE = [
  "Shepherds and charcoal burners live in scattered steadings.",
  "Fishing families crowd the villages along the shore.",
  "Wandering tinkers trade news for a meal and a bed.",
  "Monks keep bees and copy ledgers for the market towns.",
  "Miners and their families fill the valley settlements.",
  "Horse breeders guard their herds and their bloodlines jealously.",
];
const POLITICS = [
  "The local council answers, reluctantly, to the crown's reeve.",
  "Two merchant houses quarrel over the river tolls.",
  "An elected warden keeps a fragile peace between the villages.",
];
const DETAIL = [
  "Travellers are advised to carry water and to keep to the marked tracks.",
  "Old songs claim the land remembers every promise made on it.",
  "Markets are held on the first day of each month in the largest village.",
  "Wolves are rare but the elders still light fires along the fold walls at night.",
  "Herbalists prize the blue-flowered weed that grows only along the ditches here.",
  "The roads are poor after rain and carts often wait days for firm ground.",
  "Children learn to swim before they learn to read, and most never learn to read.",
  "Every household keeps a lantern lit in the window on the longest night.",
];

/** Region prose of about `length` characters: terrain, climate, landmarks, people, one political sentence. */
export function regionText(random: Random, length: number): string {
  const parts = [
    `A land of ${random.pick(TERRAIN)}.`,
    random.pick(CLIMATE),
    `Its best-known sight is ${random.pick(LANDMARK)}.`,
    random.pick(PEOPLE),
    random.pick(POLITICS),
  ];
  let text = parts.join(" ");
  while (text.length < length) text += ` ${random.pick(DETAIL)}`;
  return text.slice(0, length).trimEnd();
}

const NPC_ROLES = [
  "a ferryman",
  "a retired soldier",
  "a herbalist",
  "a cartographer",
  "a smuggler",
  "an innkeeper",
  "a priestess of the harvest",
  "a blacksmith",
  "a travelling scholar",
  "a goat herder",
];
const NPC_TRAITS = [
  "who speaks softly and remembers every debt",
  "with a habit of humming while working",
  "who distrusts anyone carrying a sword",
  "who collects old coins and older stories",
  "with a limp from a fall years ago",
  "who laughs too loudly at their own jokes",
];

/** A short NPC description that names no place (an NPC's text may name only its own area). */
export function npcText(random: Random): string {
  return `${capitalise(random.pick(NPC_ROLES))} ${random.pick(NPC_TRAITS)}. ${random.pick(DETAIL)}`;
}

export function placeText(random: Random): string {
  return `${capitalise(random.pick(LANDMARK))}. ${random.pick(PEOPLE)} ${random.pick(DETAIL)}`;
}

export function sentence(random: Random): string {
  return random.pick(DETAIL);
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
