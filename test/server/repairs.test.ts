import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { describe, it } from "node:test";
import { sharedWorldFiles, sharedWorldsAbsent } from "../helpers/author.ts";
import { Client, dropStore, STORE_NAME, startServer, suiteServer } from "./harness.ts";

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
  const running = suiteServer();

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

  it("a world with a quest no trigger starts is played as `play` plays it, the error reported; strict refuses it", async () => {
    const flawed = JSON.parse(REPAIRABLE);
    // As Hedoria's four quests: nothing fires its quest-init, so it stays hidden; the rest plays.
    flawed.quests["Stray Goat"] = { ...flawed.quests["Lost Sheep"], name: "Stray Goat" };
    const text = JSON.stringify(flawed);
    const client = new Client(running.url);
    const upload = await client.call("POST", "/worlds?name=flawed", text);
    assert.equal(upload.status, 201, upload.text);
    assert.deepEqual(
      upload.json.report.diagnostics
        .filter((d: { severity: string }) => d.severity === "error")
        .map((d: { code: string }) => d.code),
      ["quest/no-init-trigger"],
    );
    assert.ok(
      upload.json.report.diagnostics.some((d: { code: string }) => d.code === "compat/repaired"),
      "the repairs too",
    );
    const created = await client.post("/games", { world: upload.json.hash, storyStart: "Morning", seed: 1 });
    assert.equal(created.status, 201, created.text);
    const strict = await client.call("POST", "/worlds?name=flawed&strict=true", `${text}\n`);
    assert.equal(strict.status, 422, strict.text);
    assert.equal(strict.json.error.code, "world/invalid");
  });

  it("`serve --strict` (the upload policy's strict) refuses every upload with an error", async () => {
    const strict = await startServer({ uploads: { open: true, perUploader: 100, strict: true } });
    try {
      const upload = await new Client(strict.url).call("POST", "/worlds?name=repairable", REPAIRABLE);
      assert.equal(upload.status, 422, upload.text);
      assert.equal(upload.json.error.code, "world/invalid");
    } finally {
      await strict.close();
      await dropStore(strict.where);
    }
  });

  it("a world with a rule's error the platform refuses too is refused", async () => {
    const flawed = JSON.parse(REPAIRABLE);
    const first = Object.values(flawed.triggers as Record<string, { effects: unknown[] }>)[0]!;
    first.effects.push({ type: "quest-init", operator: "set", value: "No Such Quest" });
    const upload = await new Client(running.url).call("POST", "/worlds?name=unknown", JSON.stringify(flawed));
    assert.equal(upload.status, 422, upload.text);
  });

  it("a world with an error that has no obvious reading is still refused", async () => {
    const broken = JSON.parse(REPAIRABLE);
    broken.locations["Old Mill"].x = "far";
    const upload = await new Client(running.url).call("POST", "/worlds?name=broken", JSON.stringify(broken));
    assert.equal(upload.status, 422, upload.text);
  });
});

describe(`server: every world of shared/worlds is accepted as \`play\` accepts it (${STORE_NAME})`, {
  skip: sharedWorldsAbsent(),
}, () => {
  const running = suiteServer();

  for (const file of sharedWorldFiles().filter((f) => !f.includes("/mods/")))
    it(`${basename(file)}: stored, its repairs and errors reported, a game created`, async () => {
      const client = new Client(running.url);
      const upload = await client.call("POST", "/worlds?name=shared", readFileSync(file, "utf8"));
      assert.equal(upload.status, 201, upload.text.slice(0, 2000));
      assert.ok(Array.isArray(upload.json.report.diagnostics));
      const created = await client.post("/games", { world: upload.json.hash, seed: 1 });
      assert.equal(created.status, 201, created.text);
    });

  it("a mod fragment is still refused", async () => {
    const mod = sharedWorldFiles().find((f) => f.includes("/mods/"));
    assert.ok(mod, "shared/worlds/mods holds no mod");
    const upload = await new Client(running.url).call("POST", "/worlds?name=mod", readFileSync(mod, "utf8"));
    assert.equal(upload.status, 422, upload.text);
  });
});
