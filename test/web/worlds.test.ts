import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { Client, closeSandbox, dropStore, type Running, WORLD_TEXT } from "../server/harness.ts";
import { launchChromium, seriousViolations } from "./browser.ts";
import { startWebServer, WEB_OPERATOR } from "./server.ts";

/** Uploading worlds in the browser: a world with errors lists them; world text with markup shows as text. */
const WAIT = 60_000;

async function upload(page: Page, name: string, text: string) {
  await page.getByLabel("Or upload a world file (.json)").setInputFiles({
    name,
    mimeType: "application/json",
    buffer: Buffer.from(text, "utf8"),
  });
}

describe("browser: uploaded worlds in Chromium", { timeout: 150_000 }, () => {
  let running: Running;
  let chromium: { browser: Browser; close(): Promise<void> };
  before(async () => {
    [running, chromium] = await Promise.all([startWebServer(), launchChromium()]);
  });
  after(async () => {
    await chromium?.close();
    if (running) {
      await running.close();
      await dropStore(running.where);
    }
    await closeSandbox();
  });

  it("fails, never skips, without Chromium, and says how to install it", async () => {
    await assert.rejects(launchChromium("/nonexistent/chromium"), /apt-get install -y chromium/);
  });

  it("has an accessibility check that finds what it looks for", async () => {
    // The check every page passes would catch a real problem: unlabelled input and low contrast.
    const page = await chromium.browser.newPage();
    await page.setContent(
      '<html lang="en"><title>t</title><main><p style="color:#999;background:#aaa">faint</p><input></main></html>',
    );
    const ids = (await seriousViolations(page)).map((v) => v.id).sort();
    assert.deepEqual(ids, ["color-contrast", "label"]);
    await page.close();
  });

  it("lists an uploaded world's errors with line, column, code and message, as `check` reports them", async () => {
    // A wrong type on a known line, and a JSON syntax error: the loader reports both kinds with positions.
    const wrongType = WORLD_TEXT.replace('"startingAttributeValue": 8', '"startingAttributeValue": "eight"');
    assert.notEqual(wrongType, WORLD_TEXT);
    const syntax = WORLD_TEXT.replace('"configVersion"', '"configVersion" "oops",');
    const page = await chromium.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(running.url);
    for (const [name, text] of [
      ["typo.world.json", wrongType],
      ["syntax.world.json", syntax],
    ] as const) {
      const expected = await new Client(running.url, WEB_OPERATOR).call("POST", `/worlds?name=${name}`, text);
      assert.equal(expected.status, 422, expected.text);
      const report = expected.json.error.details.report as {
        diagnostics: { line: number; column: number; code: string; message: string; severity: string }[];
      };
      assert.ok(report.diagnostics.length > 0);
      await upload(page, name, text);
      const list = page.getByRole("region", { name: "This world has errors and was not uploaded" });
      await list.waitFor({ timeout: WAIT });
      await list.getByText(`in ${name}`).waitFor({ timeout: WAIT });
      const items = await list.locator("li").allInnerTexts();
      assert.equal(items.length, report.diagnostics.length);
      for (const [i, d] of report.diagnostics.entries()) {
        assert.ok(items[i]!.includes(`line ${d.line}, column ${d.column}`), `${items[i]} has its position`);
        assert.ok(items[i]!.includes(d.code), `${items[i]} has ${d.code}`);
        assert.ok(items[i]!.includes(d.message.slice(0, 40)), `${items[i]} has its message`);
      }
      assert.equal(await page.getByRole("radio", { name: new RegExp(name.replace(".", "\\.")) }).count(), 0);
    }
    const violations = await seriousViolations(page);
    assert.deepEqual(
      violations.map((v) => v.id),
      [],
      "axe-core on the start page with errors",
    );
    await page.close();
  });

  it("shows world text and narration that contain markup literally, never as HTML", async () => {
    const world = JSON.parse(WORLD_TEXT);
    const start = world.storyStarts["Dawn at the Docks"];
    start.storyStart = `<script>alert(1)</script> <b>Bold claim</b> ${start.storyStart}`;
    start.description = `<img src=x onerror=alert(2)> ${start.description}`;
    world.premadeCharacters[0].description = `<b>Bold</b> <i>hand</i> ${world.premadeCharacters[0].description}`;
    // A script that logs markup and then fails on its third line, on the trigger of the first turn.
    world.triggers.keeper_rumour.script =
      'log("rumour <b>heard</b>");\nconst n = 1;\nif (n === 1) throw new Error("the rumour broke");';
    const page = await chromium.browser.newPage({ viewport: { width: 390, height: 844 } });
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(running.url);
    await upload(page, "markup.world.json", JSON.stringify(world, null, 2));
    const uploaded = page.getByRole("radio", { name: /markup\.world\.json/ });
    await uploaded.waitFor({ timeout: WAIT });
    assert.equal(await uploaded.isChecked(), true, "the uploaded world is chosen");
    await page.getByText("<img src=x onerror=alert(2)>", { exact: false }).waitFor({ timeout: WAIT });
    await page.getByText("<b>Bold</b> <i>hand</i>", { exact: false }).waitFor({ timeout: WAIT });
    await page.getByRole("button", { name: "Create the game" }).click();
    await page.getByRole("button", { name: "Start the game" }).click();
    const opening = page.locator(".story .step.opening .narration");
    await opening.waitFor({ timeout: WAIT });
    assert.ok((await opening.innerText()).includes("<script>alert(1)</script> <b>Bold claim</b>"));
    assert.equal(await page.locator("main script, main b, main i, main img[src='x']").count(), 0);
    assert.deepEqual(dialogs, []);
    assert.equal(
      await page.evaluate(() => document.querySelectorAll("script").length),
      1,
      "only the app's script",
    );
    await page.close();
  });
});
