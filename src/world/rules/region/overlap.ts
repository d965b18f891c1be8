import { defineRule } from "../../rule.ts";
import { cellOf, type PlacedRegion, realmGrids } from "./disconnected.ts";

export default defineRule({
  code: "region/overlap",
  severity: "error",
  description: "Two regions of the same realm sit on the same grid cell.",
  why: "Each cell of a realm map holds one region. Two regions on one cell hide each other on the map, and travel to that cell can reach only one of them.",
  messages: {
    sameCell:
      'Region "{region}" is on the same cell ({x}, {y}) of realm "{realm}" as "{other}". Give each region of a realm its own cell (move one to a free cell next to the others).',
  },
  examples: {
    bad: { regions: { Southmarsh: { x: 0, y: 0 } } },
    good: { regions: { Southmarsh: { x: 0, y: 1 } } },
  },
  check({ raw, report }) {
    for (const grid of realmGrids(raw.regions)) {
      const firstOnCell = new Map<string, PlacedRegion>();
      for (const region of grid.placed) {
        const first = firstOnCell.get(cellOf(region));
        if (!first) {
          firstOnCell.set(cellOf(region), region);
          continue;
        }
        report({
          path: ["regions", region.key],
          atKey: true,
          messageId: "sameCell",
          data: { region: region.key, x: region.x, y: region.y, realm: grid.realm, other: first.key },
          related: [{ path: ["regions", first.key], message: `"${first.key}" is already on this cell` }],
        });
      }
    }
  },
});
