import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { ROOT } from "../cli/helpers.ts";
import { readWalkthrough } from "../helpers/walkthrough.ts";
import { Client, eventually, STORE_NAME, suiteServer, WORLD_TEXT } from "./harness.ts";

/** What the browser app needs of the API beyond the curl routes: the bundled world, the map, notes, storage. */
describe(`server: the routes the browser app uses (${STORE_NAME})`, () => {
  let anyone: Client;
  let hash: string;
  const running = suiteServer();
  before(async () => {
    anyone = new Client(running.url);
  });

  it("lists the example world on a fresh server, stored like an upload of the same bytes", async () => {
    const listed = await anyone.get("/worlds");
    assert.equal(listed.status, 200, listed.text);
    const bundled = listed.json.worlds.filter((w: { bundled: boolean }) => w.bundled);
    assert.equal(bundled.length, 1, listed.text);
    hash = bundled[0].hash;
    assert.equal(bundled[0].name, "harbor");
    const upload = await anyone.call("POST", "/worlds?name=mine", WORLD_TEXT);
    assert.equal(upload.status, 200, "the same bytes are already stored");
    assert.equal(upload.json.hash, hash);
    assert.equal(upload.json.created, false);
    const summary = await anyone.get(`/worlds/${hash}`);
    assert.deepEqual(summary.json.attributes.names, JSON.parse(WORLD_TEXT).attributeSettings.attributeNames);
    assert.equal(
      summary.json.attributes.points,
      JSON.parse(WORLD_TEXT).attributeSettings.startingAttributePoints,
    );
  });

  it("gives a world's starts and premades, and what an invite opens, as the creation and join pages read them", async () => {
    const world = JSON.parse(WORLD_TEXT);
    const starts = await anyone.get(`/worlds/${hash}/starts`);
    assert.equal(starts.status, 200, starts.text);
    assert.deepEqual(
      starts.json.storyStarts.map((s: { name: string }) => s.name),
      Object.values(world.storyStarts).map((s) => (s as { name: string }).name),
    );
    const premades = await anyone.get(`/worlds/${hash}/premades`);
    assert.equal(premades.status, 200, premades.text);
    assert.deepEqual(
      premades.json.premadeCharacters.map((p: { name: string }) => p.name),
      world.premadeCharacters.map((p: { name: string }) => p.name),
    );
    const created = (await anyone.post("/games", { world: hash, seed: 3 })).json;
    const first = world.premadeCharacters[0].name;
    const joined = await anyone.post("/games/join", {
      invite: created.invite,
      character: { premade: first },
    });
    assert.equal(joined.status, 201, joined.text);
    const invite = await anyone.get(`/invites/${created.invite.toLowerCase()}`);
    assert.equal(invite.status, 200, invite.text);
    assert.equal(invite.json.game, created.id);
    assert.equal(invite.json.world, hash);
    assert.equal(invite.json.status, "lobby");
    assert.deepEqual(invite.json.players, [first]);
    assert.equal(invite.json.claimable, null, "nothing to claim before the game starts");
    const unknown = await anyone.get("/invites/NOSUCHCODE");
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(unknown.json.error.code, "game/invite-unknown");
  });

  it("refuses a broken world with the report `taleforge check --format json` prints", async () => {
    const broken = WORLD_TEXT.replace('"configVersion"', '"configVersionTypo"');
    const upload = await anyone.call("POST", "/worlds?name=broken.world.json", broken);
    assert.equal(upload.status, 422, upload.text);
    assert.equal(upload.json.error.code, "world/invalid");
    const report = upload.json.error.details.report;
    assert.ok(report.errorCount > 0);
    const dir = mkdtempSync(join(tmpdir(), "taleforge-check-"));
    try {
      const file = join(dir, "broken.world.json");
      writeFileSync(file, broken);
      const cli = spawnSync(
        process.execPath,
        ["--import", "tsx", "src/cli/bin.ts", "check", file, "--format", "json"],
        { cwd: ROOT, encoding: "utf8" },
      );
      // The same report but for the file's name: the CLI names the path it was given.
      assert.deepEqual({ ...JSON.parse(cli.stdout), file: report.file }, report, cli.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("draws the party's map, notes narrative events, and shows storage to the host only", {
    timeout: 120_000,
  }, async () => {
    const walkthrough = readWalkthrough();
    const created = await anyone.post("/games", { world: hash, storyStart: walkthrough.storyStart, seed: 3 });
    assert.equal(created.status, 201, created.text);
    const { id, hostToken, invite } = created.json;
    const host = new Client(running.url, hostToken);
    const joined = await anyone.post("/games/join", { invite, character: walkthrough.player });
    const player = new Client(running.url, joined.json.token);
    assert.equal((await player.get(`/games/${id}/map.svg`)).json.error.code, "game/state");
    assert.equal((await host.post(`/games/${id}/start`)).status, 200);

    const game = await player.get(`/games/${id}`);
    const me = game.json.state.party[0];
    assert.ok(Object.keys(me.skills).length > 0, "the party panel shows skills");

    const first = await player.get(`/games/${id}/map.svg`);
    assert.equal(first.status, 200);
    assert.match(first.headers.get("content-type") ?? "", /image\/svg\+xml/);
    assert.match(
      first.text,
      new RegExp(`class="party" data-region="[^"]*" data-location="${game.json.state.position.location}"`),
    );

    // Play the walkthrough to the storm: the narrative event starts; the map moves with the party.
    const storm = walkthrough.steps.findIndex((s) => s.fired.includes("storm_rises"));
    assert.ok(storm > 0);
    for (const [i, step] of walkthrough.steps.slice(0, storm + 1).entries()) {
      const sent = await player.post(`/games/${id}/actions`, { text: step.command, idempotencyKey: `k${i}` });
      assert.equal(sent.status, 202, sent.text);
      await eventually(
        () => player.get(`/games/${id}`),
        (g) => g.json.tick === i + 1,
      );
      const offered =
        (await player.get(`/games/${id}/transcript`)).json.transcript.at(-1).result.prompts ?? [];
      for (const prompt of offered as { quest: string }[])
        await player.post(`/games/${id}/quests/${encodeURIComponent(prompt.quest)}/accept`);
    }
    const now = await player.get(`/games/${id}`);
    const moved = await player.get(`/games/${id}/map.svg`);
    assert.match(moved.text, new RegExp(`data-location="${now.json.state.position.location}"`));
    assert.notEqual(now.json.state.position.location, game.json.state.position.location);

    const notes = await player.get(`/games/${id}/narrative-events`);
    assert.equal(notes.status, 200, notes.text);
    assert.ok(
      notes.json.notes.some(
        (n: { status: string; tick: number }) => n.status === "active" && n.tick === storm + 1,
      ),
      notes.text,
    );

    const refused = await player.get(`/games/${id}/storage`);
    assert.equal(refused.status, 403);
    assert.equal(refused.json.error.code, "auth/host-only");
    const storage = await host.get(`/games/${id}/storage`);
    assert.equal(storage.status, 200, storage.text);
    assert.equal(storage.json.storage.lighthouse_visits, 2);
    assert.ok("consumed" in storage.json && "events" in storage.json);
  });

  it("documents the new routes in /openapi.json", async () => {
    const doc = (await anyone.get("/openapi.json")).json;
    assert.equal(doc.paths["/games/{id}/storage"].get["x-access"], "host");
    assert.equal(doc.paths["/games/{id}/map.svg"].get["x-access"], "member");
    assert.ok(doc.paths["/games/{id}/narrative-events"].get.responses["200"]);
    assert.ok(doc.paths["/worlds"].get.responses["200"].content["application/json"].schema.properties.worlds);
  });
});
