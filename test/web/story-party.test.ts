import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { readWalkthrough } from "../helpers/walkthrough.ts";
import { Client, closeSandbox, dropStore, type Running, WORLD_TEXT } from "../server/harness.ts";
import { gameSteps, launchChromium, seriousViolations } from "./browser.ts";
import { screenshotDir, startWebServer, WEB_OPERATOR } from "./server.ts";

/**
 * Issue 33's "done when", in Chromium: a party of three (three browser contexts) plays ten turns of
 * the harbour's walkthrough, retries the tenth by a vote (the asker and one more of three say yes),
 * rewinds to turn 4 from the timeline, plays a different fifth turn, and reads in the host tools
 * what the world differs in between the two branches. Every page follows by the game's events.
 */
const WAIT = 60_000;
const shots = screenshotDir();
const walkthrough = readWalkthrough();

async function noSeriousViolations(page: Page, where: string) {
  const found = await seriousViolations(page);
  assert.deepEqual(
    found.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => `${n.target.join(" ")} ${n.summary ?? ""}`).join(", ")}`,
    ),
    [],
    `axe-core on ${where}`,
  );
}

/** Presses Compare in a branch's row of the page's list, and reads the diff's lines. */
async function comparedLines(page: Page, row: number): Promise<string[]> {
  await page
    .getByRole("list", { name: "Branches" })
    .locator(":scope > li")
    .nth(row)
    .getByRole("button", { name: "Compare" })
    .click();
  const diff = page.locator(".diff");
  await diff.waitFor({ timeout: WAIT });
  return diff.locator("li").allInnerTexts();
}

/** The old branch's place against the new one's: the party went back to the Gutted Eel instead of on to the lamp room. */
const BACK_AT_THE_EEL = /^The party is at .*The Gutted Eel.* instead of .*Old Lighthouse › Stairwell\.$/;

const turnStep = (page: Page, tick: number) => page.locator(`.story .step.turn[data-tick="${tick}"]`);

/** Acts in the page's action box once it is open, and waits for the box to empty (the action is in). */
async function act(page: Page, text: string) {
  await page.waitForFunction(
    () => {
      const box = document.querySelector('input[name="action"]') as HTMLInputElement | null;
      return box !== null && !box.disabled;
    },
    undefined,
    { timeout: WAIT },
  );
  const box = page.locator('input[name="action"]');
  await box.fill(text);
  await box.press("Enter");
  await page.waitForFunction(
    () => (document.querySelector('input[name="action"]') as HTMLInputElement | null)?.value === "",
    undefined,
    { timeout: WAIT },
  );
}

describe("browser: a party of three retries by vote, rewinds and compares branches", {
  timeout: 300_000,
}, () => {
  let running: Running;
  let chromium: { browser: Browser; close(): Promise<void> };
  const contexts: BrowserContext[] = [];
  let host: Page;
  let ada: Page;
  let bo: Page;
  let pages: Page[] = [];
  let gameId = "";
  let hostToken = "";
  const step = gameSteps();
  const asHost = () => new Client(running.url, hostToken);

  before(async () => {
    [running, chromium] = await Promise.all([startWebServer(), launchChromium()]);
    for (const width of [1280, 1024, 800]) {
      const context = await chromium.browser.newContext({ viewport: { width, height: 900 } });
      contexts.push(context);
    }
    [host, ada, bo] = (await Promise.all(contexts.map((c) => c.newPage()))) as [Page, Page, Page];
    pages = [host, ada, bo];
  });
  after(async () => {
    await chromium?.close();
    if (running) {
      await running.close();
      await dropStore(running.where);
    }
    await closeSandbox();
  });

  /** Seats a browser context in the game (as the Start and Join pages do, in localStorage). */
  async function seat(page: Page, seatOf: Record<string, string>) {
    await page.goto(running.url);
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key!, value!),
      [`taleforge:seat:${gameId}`, JSON.stringify({ game: gameId, name: "Harbour party", ...seatOf })],
    );
    await page.goto(`${running.url}/#/game/${gameId}`);
  }

  step("three players play ten turns; the timeline lists them on every page", async () => {
    const operator = new Client(running.url, WEB_OPERATOR);
    const hash = (await operator.call("POST", "/worlds", WORLD_TEXT)).json.hash as string;
    const anyone = new Client(running.url);
    const created = (
      await anyone.post("/games", { world: hash, storyStart: walkthrough.storyStart, seed: 7 })
    ).json;
    gameId = created.id;
    hostToken = created.hostToken;
    const tokens: Record<string, string> = {};
    for (const [name, character] of [
      ["Isobel Carrow", { premade: "Isobel Carrow" }],
      ["Ada Quill", { name: "Ada Quill" }],
      ["Bo Tarr", { name: "Bo Tarr" }],
    ] as const) {
      const joined = (await anyone.post("/games/join", { invite: created.invite, character })).json;
      assert.ok(joined.token, JSON.stringify(joined));
      tokens[name] = joined.token;
    }
    await seat(host, { hostToken, playerToken: tokens["Isobel Carrow"]!, invite: created.invite });
    await seat(ada, { playerToken: tokens["Ada Quill"]! });
    await seat(bo, { playerToken: tokens["Bo Tarr"]! });
    await host.getByRole("button", { name: "Start the game" }).click();
    for (const page of pages) await page.locator(".story .step.opening").waitFor({ timeout: WAIT });
    for (let tick = 1; tick <= 10; tick++) {
      await Promise.all([
        act(host, walkthrough.steps[tick - 1]!.command),
        act(ada, "follow Isobel"),
        act(bo, "keep watch behind the party"),
      ]);
      for (const page of pages) await turnStep(page, tick).waitFor({ timeout: WAIT });
    }
    for (const page of pages) {
      const rows = page.getByRole("list", { name: "Turns of this branch" }).locator(":scope > li");
      assert.equal(await rows.count(), 11, "the opening and ten turns");
    }
    // The game's default rules: retry, undo and rewind by a vote of the party, alter by the host.
    await ada.getByRole("region", { name: "Story controls for turn 10" }).waitFor({ timeout: WAIT });
    assert.equal(await ada.getByRole("button", { name: "Ask the party to retry" }).count(), 1);
    assert.equal(await ada.getByRole("button", { name: /Alter/ }).count(), 0, "alter is the host's");
    assert.equal(await ada.getByRole("button", { name: "Ask the party to rewind here" }).count(), 10);
  });

  step("Ada asks the party to retry turn 10: the vote is a banner on every page", async () => {
    const before = await turnStep(host, 10).getAttribute("data-seq");
    await ada.getByRole("button", { name: "Ask the party to retry" }).click();
    for (const page of pages)
      await page.getByRole("region", { name: "Party vote" }).waitFor({ timeout: WAIT });
    const banner = host.getByRole("region", { name: "Party vote" });
    assert.match(await banner.innerText(), /Ada Quill asks the party to tell turn 10 again/);
    assert.match(await banner.innerText(), /1 yes, 0 no: it needs 2 yes of 3 players\./);
    assert.match(await banner.innerText(), /\d+ seconds left\./);
    await ada.getByText("You voted yes.").waitFor({ timeout: WAIT });
    await ada.getByText("You asked the party to retry turn 10").waitFor({ timeout: WAIT });
    // One vote at a time: what would open another waits.
    assert.equal(await host.getByRole("button", { name: "Ask the party to undo" }).isDisabled(), true);
    assert.equal(await ada.getByRole("button", { name: "Yes", exact: true }).count(), 0);
    await host.getByRole("button", { name: "Yes", exact: true }).waitFor({ timeout: WAIT });
    await noSeriousViolations(bo, "a player's page with the vote's banner");
    await bo.screenshot({ path: join(shots, "vote-800.png") });
    assert.equal(
      await turnStep(host, 10).getAttribute("data-seq"),
      before,
      "nothing happens before the vote",
    );

    await bo.getByRole("button", { name: "Yes", exact: true }).click();
    for (const page of pages) {
      await page
        .locator(`.story .step.turn[data-tick="10"]:not([data-seq="${before}"])`)
        .waitFor({ timeout: WAIT });
      await page.getByText("The party agreed: the turn is told again.").waitFor({ timeout: WAIT });
      assert.equal(await page.getByRole("region", { name: "Party vote" }).count(), 0, "the banner is gone");
      assert.equal(await turnStep(page, 10).count(), 1, "one turn 10 is shown");
    }
    assert.equal(await ada.getByText("You asked the party to retry turn 10").count(), 0, "the ask is over");
  });

  step("the host leaves rewinds to the host; rewinds to turn 4 from the timeline", async () => {
    await host.getByRole("button", { name: "Host tools" }).click();
    await host.getByText("Who may use the story controls").click();
    await host.getByLabel("Rewind to an earlier turn").selectOption("host");
    await host.getByRole("button", { name: "Save the rules" }).click();
    await host.getByText("Saved: every player's page follows the new rules.").waitFor({ timeout: WAIT });
    // The players' pages follow: no rewind for them any more.
    for (const page of [ada, bo])
      await page.waitForFunction(
        () => ![...document.querySelectorAll("button")].some((b) => /rewind here/i.test(b.textContent ?? "")),
        undefined,
        { timeout: WAIT },
      );
    await host
      .getByRole("button", { name: "Close" })
      .click()
      .catch(() => {});
    const row = host
      .getByRole("list", { name: "Turns of this branch" })
      .locator(':scope > li[data-tick="4"]');
    await row.getByRole("button", { name: "Rewind here" }).click();
    for (const page of pages)
      await page.waitForFunction(
        () => document.querySelectorAll('.story .step.turn[data-tick="5"]').length === 0,
        undefined,
        { timeout: WAIT },
      );
    await host.getByText("Rewound to turn 4").waitFor({ timeout: WAIT });
    for (const page of pages) {
      await turnStep(page, 4).waitFor({ timeout: WAIT });
      const rows = page.getByRole("list", { name: "Turns of this branch" }).locator(":scope > li");
      assert.equal(await rows.count(), 5, "the opening and four turns");
    }
  });

  step("a different fifth turn; the host compares the two branches", async () => {
    await Promise.all([
      act(host, "travel to the Gutted Eel"),
      act(ada, "follow Isobel"),
      act(bo, "keep watch behind the party"),
    ]);
    for (const page of pages) await turnStep(page, 5).waitFor({ timeout: WAIT });

    const listed = (await asHost().get(`/games/${gameId}/history/branches`)).json as {
      head: number;
      branches: { tip: number; title: string; turns: number; current: boolean }[];
    };
    const old = listed.branches.find((b) => !b.current && b.turns === 10);
    assert.ok(old, `the ten-turn branch is listed: ${JSON.stringify(listed.branches)}`);
    await host.getByRole("button", { name: "Host tools" }).click();
    await host.getByText("Branches", { exact: true }).click();
    await host.waitForFunction(
      (n) => document.querySelectorAll(".branch-list > li").length === n,
      listed.branches.length,
      { timeout: WAIT },
    );
    // The tenth turn's two draws share their title, turns and split from this branch (turn 4): the
    // list tells them apart by where they part, turn 10, and the retry's draw.
    const draws = listed.branches.filter((b) => !b.current && b.turns === 10);
    assert.equal(draws.length, 2, JSON.stringify(listed.branches));
    const rows = host.getByRole("list", { name: "Branches" }).locator(":scope > li");
    const said = await Promise.all(
      draws.map((b) => rows.nth(listed.branches.indexOf(b)).locator(".muted.small").first().innerText()),
    );
    assert.notEqual(said[0], said[1], "the two draws read differently");
    for (const line of said) assert.match(line, /its own from turn 5 · parts at turn 10\b/);
    assert.match(said.join("\n"), /parts at turn 10, draw 2: told “|parts at turn 10: draw 2/);
    const lines = await comparedLines(host, listed.branches.indexOf(old));
    const diff = host.locator(".diff");
    // The party went back to the Gutted Eel instead of on to the lamp room, the logbook and Slade.
    assert.ok(
      lines.some((l) => BACK_AT_THE_EEL.test(l)),
      lines.join("\n"),
    );
    assert.ok(
      lines.some((l) => /^Trigger confront_slade: not fired instead of fired on turn 8\.$/.test(l)),
      lines.join("\n"),
    );
    assert.ok(
      lines.includes("Quest The Keeper's Debt, objective confront_slade: hidden instead of completed."),
    );
    assert.ok(await diff.getByRole("heading", { name: "Place and party" }).count());
    await noSeriousViolations(host, "the host tools with the diff of two branches");
    await diff.scrollIntoViewIfNeeded();
    await host.screenshot({ path: join(shots, "branches-1280.png") });
  });

  step(
    "a player reads the branches and compares them: what the party sees, no buttons the rules keep",
    async () => {
      await bo.getByText("Branches", { exact: true }).click();
      const list = bo.getByRole("list", { name: "Branches" });
      await list.waitFor({ timeout: WAIT });
      const listed = (await asHost().get(`/games/${gameId}/history/branches`)).json as {
        branches: { tip: number; turns: number; current: boolean }[];
      };
      await bo.waitForFunction(
        (n) => document.querySelectorAll(".branch-list > li").length === n,
        listed.branches.length,
        { timeout: WAIT },
      );
      // Branches and rewinds are the host's in this game: Bo compares, and asks nothing.
      const panel = bo.locator(".party-branches");
      for (const name of ["Switch", "Rename", "Delete", "Rewind"])
        assert.equal(await panel.getByRole("button", { name, exact: true }).count(), 0, `no ${name} for Bo`);
      assert.equal(await panel.getByRole("button", { name: /^Ask the party/ }).count(), 0);
      assert.equal(await panel.getByRole("button", { name: "Compare" }).count(), listed.branches.length - 1);
      const old = listed.branches.find((b) => !b.current && b.turns === 10)!;
      const lines = await comparedLines(bo, listed.branches.indexOf(old));
      const diff = bo.locator(".diff");
      assert.ok(
        lines.some((l) => BACK_AT_THE_EEL.test(l)),
        lines.join("\n"),
      );
      assert.ok(
        lines.includes("Quest The Keeper's Debt, objective confront_slade: hidden instead of completed."),
        lines.join("\n"),
      );
      // The world's workings stay the host's: no trigger, flag, storage or narrative event.
      assert.ok(!lines.some((l) => /^(Trigger|Storage|Narrative event) /.test(l)), lines.join("\n"));
      for (const heading of ["Flags", "Storage", "Triggers consumed", "Narrative events"])
        assert.equal(await diff.getByRole("heading", { name: heading }).count(), 0, heading);
      await diff.getByText("are the host's to see").waitFor({ timeout: WAIT });
      await noSeriousViolations(bo, "a player's branches and comparison");
      await diff.scrollIntoViewIfNeeded();
      await bo.screenshot({ path: join(shots, "branches-player-800.png") });

      // Under a vote for branches, Bo may ask the party to switch: the vote opens on every page.
      const rules = await asHost().call("PUT", `/games/${gameId}/controls`, { branch: "vote" });
      assert.equal(rules.status, 200, rules.text);
      const ask = list
        .locator(":scope > li")
        .nth(listed.branches.indexOf(old))
        .getByRole("button", { name: "Ask the party to switch" });
      await ask.waitFor({ timeout: WAIT });
      assert.equal(await panel.getByRole("button", { name: "Switch", exact: true }).count(), 0);
      await ask.click();
      for (const page of pages)
        await page.getByRole("region", { name: "Party vote" }).waitFor({ timeout: WAIT });
      await host.getByRole("button", { name: "No", exact: true }).click();
      await ada.getByRole("button", { name: "No", exact: true }).click();
      for (const page of pages)
        await page.getByText("The party said no: nothing changes.").waitFor({ timeout: WAIT });
    },
  );
});
