import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { checkPatch, testRule } from "../../../../test/helpers/world.ts";
import rule, { connectedGroups, type PlacedRegion } from "./disconnected.ts";

/** A region record patch; `realm: null` leaves the field out. */
const region = (name: string, x: number, y: number, realm: string | null = "Vale") => ({
  [name]: { name, basicInfo: "Hills.", x, y, ...(realm === null ? {} : { realm }) },
});

/** A block of width x height regions of Vale just north of Northfield (0,0), joined to it at (0,1). */
function block(width: number, height: number) {
  const regions: Record<string, unknown> = {};
  for (let x = 0; x < width; x++)
    for (let y = 1; y <= height; y++) Object.assign(regions, region(`R${x}_${y}`, x, y));
  return regions;
}

testRule(rule, {
  valid: [
    {},
    { name: "a chain by edges", patch: { regions: { ...region("Crag", 1, -1), ...region("Tor", 2, -1) } } },
    {
      name: "regions on no realm map (omitted or empty realm) are in no grid",
      patch: { regions: { ...region("Crag", 9, 9, ""), ...region("Tor", -9, 4, null) } },
    },
    {
      name: "a lone region is the whole grid of its realm",
      patch: {
        realms: { Peaks: { name: "Peaks", basicInfo: "High." } },
        regions: region("Crag", 1, 1, "Peaks"),
      },
    },
    {
      name: "a region sharing a cell joins that cell's neighbours",
      patch: { regions: { ...region("Crag", 0, -1), ...region("Tor", 1, -1) } },
    },
    {
      name: "not judged while a region of the realm has no whole-number cell",
      patch: { regions: { ...region("Crag", 5, 5), ...region("Tor", 0.5, 0) } },
    },
    { name: "hundreds of regions in one block", patch: { regions: block(20, 25) } },
  ],
  invalid: [
    {
      name: "diagonal only",
      patch: { regions: { Southmarsh: { x: 1, y: -1 } } },
      errors: [
        {
          path: ["regions", "Southmarsh"],
          messageId: "isolated",
          data: { region: "Southmarsh", x: 1, y: -1, realm: "Vale", anchor: "Northfield" },
        },
      ],
    },
    {
      name: "diagonals in every direction do not connect",
      patch: {
        regions: {
          Southmarsh: { x: 1, y: 1 },
          ...region("Crag", -1, 1),
          ...region("Tor", 1, -1),
          ...region("Fell", -1, -1),
        },
      },
      errors: [
        { path: ["regions", "Southmarsh"], messageId: "isolated" },
        { path: ["regions", "Crag"], messageId: "isolated" },
        { path: ["regions", "Tor"], messageId: "isolated" },
        { path: ["regions", "Fell"], messageId: "isolated" },
      ],
    },
    {
      name: "the larger group wins even when it comes later in the file",
      patch: { regions: { Southmarsh: { x: 5, y: 5 }, ...region("Crag", 6, 5), ...region("Tor", 7, 5) } },
      errors: [
        {
          path: ["regions", "Northfield"],
          messageId: "isolated",
          data: { region: "Northfield", x: 0, y: 0, realm: "Vale", anchor: "Southmarsh" },
        },
      ],
    },
    {
      name: "with a tie, the group of the first region wins; each cut-off region is named",
      patch: { regions: { Southmarsh: { x: 3, y: 0 }, ...region("Crag", 3, 1), ...region("Tor", 0, 1) } },
      errors: [
        { path: ["regions", "Southmarsh"], messageId: "isolated" },
        { path: ["regions", "Crag"], messageId: "isolated" },
      ],
    },
    {
      name: "a realm that is not defined still has one grid",
      patch: { regions: { ...region("Crag", 0, 0, "Peaks"), ...region("Tor", 0, 2, "Peaks") } },
      errors: [
        {
          path: ["regions", "Tor"],
          messageId: "isolated",
          data: { region: "Tor", x: 0, y: 2, realm: "Peaks", anchor: "Crag" },
        },
      ],
    },
    {
      name: "one region cut off from hundreds",
      patch: { regions: { ...block(20, 25), ...region("Far", 40, 40) } },
      errors: [{ path: ["regions", "Far"], messageId: "isolated" }],
    },
  ],
});

const STEP = fc.constantFrom([1, 0], [-1, 0], [0, 1], [0, -1]);

/** The distinct cells of a walk by edges from a start cell, in visiting order. */
function walk(start: [number, number], steps: readonly (readonly [number, number])[]): [number, number][] {
  const cells = new Map<string, [number, number]>([[`${start}`, start]]);
  let [x, y] = start;
  for (const [dx, dy] of steps) {
    x += dx;
    y += dy;
    cells.set(`${x},${y}`, [x, y]);
  }
  return [...cells.values()];
}

/** Vale holding exactly these cells, Northfield on the first one, in this order in the file. */
function valeOn(cells: [number, number][]) {
  const regions: Record<string, unknown> = { Southmarsh: undefined };
  cells.forEach(([x, y], i) => {
    Object.assign(regions, i === 0 ? { Northfield: { x, y } } : region(`W${i}`, x, y));
  });
  return { regions };
}

const isolated = (patch: Record<string, unknown>) =>
  checkPatch(patch, [rule])
    .diagnostics.filter((d) => d.code === rule.code || d.code === "internal/rule-failed")
    .map((d) => d.path[1]);

test("region/disconnected: any walk by edges is one grid", () => {
  fc.assert(
    fc.property(fc.array(STEP, { maxLength: 40 }), (steps) => {
      assert.deepEqual(isolated(valeOn(walk([0, 0], steps))), []);
    }),
    { numRuns: 40 },
  );
});

test("region/disconnected: of two far-apart walks, the smaller is reported (the first on a tie)", () => {
  fc.assert(
    fc.property(fc.array(STEP, { maxLength: 15 }), fc.array(STEP, { maxLength: 15 }), (a, b) => {
      const first = walk([0, 0], a);
      const second = walk([100, 0], b);
      const patch = valeOn([...first, ...second]);
      const names = [...first, ...second].map((_, i) => (i === 0 ? "Northfield" : `W${i}`));
      const expected =
        second.length > first.length ? names.slice(0, first.length) : names.slice(first.length);
      assert.deepEqual(isolated(patch), expected);
    }),
    { numRuns: 40 },
  );
});

// The grouping as first written, with "x,y" strings for cells: the reference of the property below.
function groupsByStrings(placed: readonly PlacedRegion[]): PlacedRegion[][] {
  const cell = (x: number, y: number) => `${x},${y}`;
  const byCell = new Map<string, PlacedRegion[]>();
  for (const region of placed) {
    const list = byCell.get(cell(region.x, region.y));
    if (list) list.push(region);
    else byCell.set(cell(region.x, region.y), [region]);
  }
  const seen = new Set<string>();
  const groups: PlacedRegion[][] = [];
  for (const start of placed) {
    if (seen.has(cell(start.x, start.y))) continue;
    seen.add(cell(start.x, start.y));
    const queue = [start];
    const group: PlacedRegion[] = [];
    for (let i = 0; i < queue.length; i++) {
      const { x, y } = queue[i]!;
      group.push(...byCell.get(cell(x, y))!);
      for (const [dx, dy] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        const next = cell(x + dx, y + dy);
        const occupants = byCell.get(next);
        if (!occupants || seen.has(next)) continue;
        seen.add(next);
        queue.push(occupants[0]!);
      }
    }
    groups.push(group);
  }
  return groups;
}

test("connectedGroups groups as the string-keyed search did, shared cells and -0 included", () => {
  const coordinate = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constant(-0));
  fc.assert(
    fc.property(fc.array(fc.tuple(coordinate, coordinate), { maxLength: 30 }), (cells) => {
      const placed = cells.map(([x, y], index) => ({ key: `r${index}`, x, y, index }));
      assert.deepEqual(connectedGroups(placed), groupsByStrings(placed));
    }),
    { numRuns: 2000 },
  );
});
