import assert from "node:assert/strict";
import { test } from "node:test";
import { isKnown } from "../../../src/engine/known.ts";
import { effectBench } from "../helpers.ts";

test("known-entity set marks an entity known or unknown", async () => {
  const { ctx, apply } = await effectBench();
  assert.equal(isKnown(ctx.state, ctx.index, "Ada Reed"), false, "NPCs default to unknown");
  assert.equal(
    apply({ type: "known-entity", entity: "Ada Reed", operator: "set", value: true }).status,
    "applied",
  );
  assert.equal(isKnown(ctx.state, ctx.index, "Ada Reed"), true);
  assert.equal(
    apply({ type: "known-entity", entity: "Millers", operator: "set", value: false }).status,
    "applied",
  );
  assert.equal(isKnown(ctx.state, ctx.index, "Millers"), false);
  assert.equal(
    apply({ type: "known-entity", entity: "Millers", operator: "set", value: false }).status,
    "unchanged",
  );
});

test("known-entity toggle flips the current state and ignores its value", async () => {
  const { ctx, apply } = await effectBench();
  apply({ type: "known-entity", entity: "Millers", operator: "toggle", value: true });
  assert.equal(isKnown(ctx.state, ctx.index, "Millers"), false, "factions default to known; toggled off");
  apply({ type: "known-entity", entity: "Millers", operator: "toggle" });
  assert.equal(isKnown(ctx.state, ctx.index, "Millers"), true);
  assert.deepEqual(ctx.state.known, {}, "only differences from the defaults are stored");
});

test("known-entity set needs a boolean value", async () => {
  const { apply } = await effectBench();
  assert.equal(apply({ type: "known-entity", entity: "Millers", operator: "set" }).reason, "malformed");
});

test("resolutions defaults: realms, regions, locations, factions known unless known:false; NPCs unknown unless known:true", async () => {
  const { ctx } = await effectBench({
    realms: { Vale: { known: false } },
    regions: { Southmarsh: { known: false } },
    npcs: { "Ada Reed": { known: true } },
  });
  assert.equal(
    isKnown(ctx.state, ctx.index, "Vale"),
    true,
    "the party starts in Vale: arriving makes it known",
  );
  assert.equal(isKnown(ctx.state, ctx.index, "Southmarsh"), false);
  assert.equal(isKnown(ctx.state, ctx.index, "Fen Hut"), true);
  assert.equal(isKnown(ctx.state, ctx.index, "Millers"), true);
  assert.equal(isKnown(ctx.state, ctx.index, "Ada Reed"), true);
});
