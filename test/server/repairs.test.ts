import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { Client, closeSandbox, dropStore, type Running, STORE_NAME, startServer } from "./harness.ts";

/**
 * Issue 35: `serve` plays what the platform plays. A world whose only errors
 * have one obvious reading (missing maps, a map written as an array, a trait
 * requirement without amount, a name that differs from its key) is accepted
 * repaired, each repair a `compat/repaired` warning of the report, and a game
 * runs on it.
 */

const REPAIRABLE = readFileSync(
  new URL("../fixtures/real-worlds/repairable.world.json", import.meta.url),
  "utf8",
);

describe(`server: a world with repairable errors (${STORE_NAME})`, () => {
  let running: Running;
  before(async () => {
    running = await startServer();
  });
  after(async () => {
    await running.close();
    await dropStore(running.where);
    await closeSandbox();
  });

  it("is stored, its repairs listed as warnings, and played", async () => {
    const anyone = new Client(running.url);
    const upload = await anyone.call("POST", "/worlds?name=repairable", REPAIRABLE);
    assert.equal(upload.status, 201, upload.text);
    const diagnostics = upload.json.report.diagnostics as {
      code: string;
      severity: string;
      message: string;
    }[];
    const repaired = diagnostics.filter((d) => d.code === "compat/repaired");
    assert.equal(repaired.length, 8, upload.text);
    assert.ok(repaired.every((d) => d.severity === "warning"));
    assert.ok(repaired.some((d) => /"traitCategories", written as an array/.test(d.message)));
    assert.ok(!diagnostics.some((d) => d.severity === "error"));
    const created = await anyone.post("/games", { world: upload.json.hash, storyStart: "Morning", seed: 1 });
    assert.equal(created.status, 201, created.text);
  });

  it("a world with an error that has no obvious reading is still refused", async () => {
    const broken = JSON.parse(REPAIRABLE);
    broken.locations["Old Mill"].x = "far";
    const upload = await new Client(running.url).call("POST", "/worlds?name=broken", JSON.stringify(broken));
    assert.equal(upload.status, 422, upload.text);
  });
});
