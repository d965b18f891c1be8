import type { Random } from "./random.ts";

/**
 * Unique, readable record names: a generated world has thousands of records
 * that refer to each other by name, so names must never repeat within a map.
 */
export class NameBook {
  private readonly used = new Set<string>();

  constructor(private readonly random: Random) {}

  /** A fresh name built from the pools; a counter is appended once the combinations run out. */
  make(first: readonly string[], second: readonly string[], join = " "): string {
    for (let attempt = 0; attempt < 20; attempt++) {
      const name = `${this.random.pick(first)}${join}${this.random.pick(second)}`;
      if (!this.used.has(name)) return this.claim(name);
    }
    const stem = `${this.random.pick(first)}${join}${this.random.pick(second)}`;
    let n = 2;
    while (this.used.has(`${stem} ${n}`)) n++;
    return this.claim(`${stem} ${n}`);
  }

  private claim(name: string): string {
    this.used.add(name);
    return name;
  }
}

export const PLACE_HEADS =
  "Ash Bram Cold Dun Elder Fair Glen Hollow Iron Kings Long Mire North Oak Pike Raven Salt Thorn Under Vane West Wolf Yarrow Amber Birch Cinder Dusk Fern Gull Heron Lark Moss Nettle Otter Quill Rook Sedge Tarn Willow Wren".split(
    " ",
  );
export const REGION_TAILS =
  "moor dale reach fell march wold fen combe heath vale strand downs weald holm shaw lea mere carse garth skerry".split(
    " ",
  );
export const LOCATION_TAILS =
  "Crossing Mill Abbey Hold Market Quay Barrow Lodge Spire Well Forge Hamlet Bridge Keep Landing Manor Priory Tollhouse Camp Orchard".split(
    " ",
  );
export const AREA_NAMES =
  "Gatehouse|Cellar|Courtyard|Taproom|Loading Dock|Chapel|Roof Garden|Stables|Armoury|Well House|Kitchen|Upper Gallery".split(
    "|",
  );
export const FIRST_NAMES =
  "Aldo Bryn Cora Dace Edda Finn Greta Hale Ilse Jory Kara Lorcan Mira Ned Orla Pell Quinn Rhea Soren Tova Ulla Vance Wynn Yara".split(
    " ",
  );
export const LAST_NAMES =
  "Ashdown Brackwater Coldiron Dunmore Eastbrook Fallow Greaves Holloway Ivesdale Kettle Lightfoot Marsh Nettleton Oakhart Penhallow Quarry Rushford Stroud Thatcher Underhill".split(
    " ",
  );
export const TRAIT_HEADS =
  "Keen Stout Quiet Restless Lucky Stubborn Gentle Bold Wary Patient Nimble Grim Cheerful Learned Hardy".split(
    " ",
  );
export const TRAIT_TAILS = "Eye Heart Hands Step Mind Tongue Spirit Blood Nerve Temper".split(" ");
export const THING_HEADS = "Oaken Iron Silver Bone Copper Woven Glass Leather Stone Amber".split(" ");
export const ITEM_TAILS = "Staff Dagger Lantern Cloak Ring Flask Shield Compass Rope Charm".split(" ");
export const ABILITY_TAILS = "Strike Ward Focus Stride Shout Mend Feint Vigil".split(" ");
export const FACTION_TAILS = "Guild Company Circle Watch League Brotherhood Court".split(" ");
