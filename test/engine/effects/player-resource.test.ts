import assert from "node:assert/strict";
import { test } from "node:test";
import { effectBench } from "../helpers.ts";

const duo = { players: [{ name: "Ann" }, { name: "Bo" }] };
const health = (ctx: Awaited<ReturnType<typeof effectBench>>["ctx"], name: string) =>
  ctx.state.party.find((c) => c.name === name)!.resources.health!.current;

const ops: [string, number, number][] = [
  ["add", 5, 15],
  ["subtract", 4, 6],
  ["multiply", 1.5, 15],
  ["divide", 4, 2.5],
  ["set", 7, 7],
];
for (const [operator, value, expected] of ops) {
  test(`player-resource ${operator} ${value} on 10 gives ${expected} for the whole party`, async () => {
    const { ctx, apply } = await effectBench({}, duo);
    for (const c of ctx.state.party) c.resources.health!.current = 10;
    assert.equal(apply({ type: "player-resource", resource: "health", operator, value }).status, "applied");
    assert.equal(health(ctx, "Ann"), expected);
    assert.equal(health(ctx, "Bo"), expected);
  });
}

test("player-resource clamps the current value to [0, max]", async () => {
  const { ctx, apply } = await effectBench();
  apply({ type: "player-resource", resource: "health", operator: "add", value: 1000 });
  assert.equal(health(ctx, "Player"), 20);
  apply({ type: "player-resource", resource: "health", operator: "subtract", value: 1000 });
  assert.equal(health(ctx, "Player"), 0);
  apply({ type: "player-resource", resource: "health", operator: "set", value: -5 });
  assert.equal(health(ctx, "Player"), 0);
});

test("player-resource divide by zero leaves the value unchanged", async () => {
  const { ctx, apply } = await effectBench();
  const trace = apply({ type: "player-resource", resource: "health", operator: "divide", value: 0 });
  assert.equal(trace.status, "unchanged");
  assert.equal(health(ctx, "Player"), 20);
});

test("player-resource keys match case-insensitively; an unknown resource changes nothing", async () => {
  const { ctx, apply } = await effectBench();
  apply({ type: "player-resource", resource: " Health ", operator: "subtract", value: 3 });
  assert.equal(health(ctx, "Player"), 17);
  assert.match(
    apply({ type: "player-resource", resource: "mana", operator: "add", value: 1 }).note!,
    /no resource/,
  );
});

test("target satisfyingPlayers hits only the players who satisfied the trigger", async () => {
  const { ctx, apply } = await effectBench({}, duo);
  apply(
    {
      type: "player-resource",
      resource: "health",
      target: "satisfyingPlayers",
      operator: "subtract",
      value: 5,
    },
    { targets: ["Bo"] },
  );
  assert.equal(health(ctx, "Ann"), 20);
  assert.equal(health(ctx, "Bo"), 15);
});

test("resolutions scope player: effects without target hit only the targets; target allPlayers hits everyone", async () => {
  const { ctx, apply } = await effectBench({}, duo);
  apply(
    { type: "player-resource", resource: "health", operator: "subtract", value: 5 },
    { scope: "player", targets: ["Ann"] },
  );
  assert.equal(health(ctx, "Ann"), 15);
  assert.equal(health(ctx, "Bo"), 20);
  apply(
    { type: "player-resource", resource: "health", target: "allPlayers", operator: "subtract", value: 1 },
    { scope: "player", targets: ["Ann"] },
  );
  assert.equal(health(ctx, "Ann"), 14);
  assert.equal(health(ctx, "Bo"), 19);
});

test("party NPCs are part of the whole party", async () => {
  const { ctx, apply } = await effectBench({ storyStarts: { Morning: { startingPartyNPCs: ["Ada Reed"] } } });
  apply({ type: "player-resource", resource: "health", operator: "subtract", value: 2 });
  assert.equal(health(ctx, "Ada Reed"), 18);
});
