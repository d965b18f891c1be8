import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { arriveAt, moveBy, wrap } from "../../src/engine/geography.ts";
import { indexWorld } from "../../src/engine/world-index.ts";
import { worldWith } from "./helpers.ts";

const grid = worldWith({
  regions: {
    East: { name: "East", basicInfo: "e", x: 1, y: 0, realm: "Vale" },
  },
});
const index = indexWorld(grid);
const at = (region: string, x: number, y: number) => ({
  realm: "Vale",
  region,
  location: "",
  area: "",
  x,
  y,
});

describe("resolutions 'Geography': moveBy wraps coordinates into the adjacent region", () => {
  test("moving +10 in x from near the east edge arrives near the west edge of the region to the east", () => {
    assert.deepEqual(moveBy(index, at("Northfield", 45, 3), 10, 0), at("East", -45, 3));
  });
  test("offsets stay in [-regionSize/2, +regionSize/2]: exactly +50 stays, past it wraps", () => {
    assert.deepEqual(moveBy(index, at("Northfield", 40, 0), 10, 0), at("Northfield", 50, 0));
    assert.deepEqual(moveBy(index, at("Northfield", 40, 0), 10.5, 0), at("East", -49.5, 0));
  });
  test("-y is south: moving down past the edge enters the region at y-1", () => {
    assert.deepEqual(moveBy(index, at("Northfield", 0, -48), 0, -5), at("Southmarsh", 0, 47));
  });
  test("a destination cell with no region is refused (undefined)", () => {
    assert.equal(moveBy(index, at("Northfield", 0, 45), 0, 10), undefined);
    assert.equal(moveBy(index, at("Nowhere", 0, 0), 1, 0), undefined);
  });
  test("the location and area are kept only while the point stays within the location's radius", () => {
    const mill = arriveAt(index, "Old Mill")!;
    assert.equal(moveBy(index, mill, 3, 0)!.location, "Old Mill");
    assert.deepEqual(moveBy(index, mill, 6, 0), { ...at("Northfield", 6, 0) });
  });
  test("wrap keeps the absolute position: cell*size + offset is invariant", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 5 }),
        fc.double({ min: -1000, max: 1000, noNaN: true }),
        (cell, offset) => {
          const [value, next] = wrap(offset, cell, 100);
          assert.ok(value >= -50 && value <= 50, `${value}`);
          assert.ok(Math.abs(next * 100 + value - (cell * 100 + offset)) < 1e-6);
        },
      ),
    );
  });
});
