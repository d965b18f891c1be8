import assert from "node:assert/strict";
import { test } from "node:test";
import { applyEffects, EFFECT_CAP } from "../../../src/engine/effects/apply.ts";
import { isKnown } from "../../../src/engine/known.ts";
import { effectBench } from "../helpers.ts";

const far = {
  realms: { Far: { name: "Far", basicInfo: "Beyond.", known: false } },
  regions: { Isle: { name: "Isle", basicInfo: "Rock.", x: 4, y: 4, realm: "Far", known: false } },
  locations: {
    Tower: {
      name: "Tower",
      basicInfo: "Tall.",
      x: 12,
      y: -7,
      radius: 3,
      region: "Isle",
      complexityType: "simple",
      detailType: "basic",
      known: false,
      areas: {
        Stair: { description: "Steps.", paths: ["Top"] },
        Top: { description: "Wind.", paths: ["Stair"] },
      },
    },
  },
};

test("party-location cascades: location, region, realm, coordinates and the first area", async () => {
  const { ctx, apply } = await effectBench(far);
  const trace = apply({ type: "party-location", operator: "set", value: "Tower" });
  assert.equal(trace.status, "applied");
  assert.deepEqual(ctx.state.position, {
    realm: "Far",
    region: "Isle",
    location: "Tower",
    area: "Stair",
    x: 12,
    y: -7,
  });
});

test("arriving by party-location marks the location, its region and realm known", async () => {
  const { ctx, apply } = await effectBench(far);
  assert.equal(isKnown(ctx.state, ctx.index, "Far"), false);
  apply({ type: "party-location", operator: "set", value: "Tower" });
  for (const name of ["Far", "Isle", "Tower"]) assert.equal(isKnown(ctx.state, ctx.index, name), true, name);
});

test("a later party-* effect of the same trigger overrides what the cascade set", async () => {
  const { ctx } = await effectBench(far);
  applyEffects(
    [
      { type: "party-location", operator: "set", value: "Tower" },
      { type: "party-area", operator: "set", value: "Top" },
      { type: "party-region", operator: "set", value: "Northfield" },
      { type: "party-realm", operator: "set", value: "Vale" },
    ],
    "typed",
    ctx,
    EFFECT_CAP,
  );
  assert.deepEqual(ctx.state.position, {
    realm: "Vale",
    region: "Northfield",
    location: "Tower",
    area: "Top",
    x: 12,
    y: -7,
  });
});

test("party-region, party-realm and party-area set only their own field", async () => {
  const { ctx, apply } = await effectBench(far);
  const before = { ...ctx.state.position };
  apply({ type: "party-region", operator: "set", value: "Southmarsh" });
  assert.deepEqual(ctx.state.position, { ...before, region: "Southmarsh" });
  apply({ type: "party-realm", operator: "set", value: "Far" });
  assert.deepEqual(ctx.state.position, { ...before, region: "Southmarsh", realm: "Far" });
  apply({ type: "party-area", operator: "set", value: "Loft" });
  assert.equal(ctx.state.position.area, "Loft");
});

test("unknown destinations change nothing and say why", async () => {
  const { ctx, apply } = await effectBench(far);
  const before = JSON.stringify(ctx.state.position);
  assert.match(
    apply({ type: "party-location", operator: "set", value: "tower" }).note!,
    /no location "tower"/,
  );
  assert.match(apply({ type: "party-region", operator: "set", value: "Nowhere" }).note!, /no region/);
  assert.match(apply({ type: "party-realm", operator: "set", value: "Nowhere" }).note!, /no realm/);
  assert.match(apply({ type: "party-area", operator: "set", value: "Porch" }).note!, /has no area "Porch"/);
  assert.equal(JSON.stringify(ctx.state.position), before);
});

test("a location without areas leaves the area empty", async () => {
  const { ctx, apply } = await effectBench({ locations: { "Fen Hut": { areas: undefined } } });
  apply({ type: "party-location", operator: "set", value: "Fen Hut" });
  assert.equal(ctx.state.position.area, "");
  assert.equal(ctx.state.position.region, "Southmarsh");
});
