import assert from "node:assert/strict";
import { after, before, describe } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { readWalkthrough } from "../helpers/walkthrough.ts";
import { closeSandbox, dropStore, type Running } from "../server/harness.ts";
import { gameSteps, launchChromium, seriousViolations } from "./browser.ts";
import { startWebServer } from "./server.ts";

/**
 * Issue 33 in Chromium: a host and a player play three turns; the host retries the last one,
 * takes it back, alters the narration before it, rewinds to turn 1 and reads the branches and a
 * diff in the host tools. Both pages follow each control by the game's events.
 */
const WAIT = 60_000;

async function noSeriousViolations(page: Page, where: string) {
  const found = await seriousViolations(page);
  assert.deepEqual(
    found.map(
      (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    ),
    [],
    `axe-core on ${where}`,
  );
}

const turnStep = (page: Page, tick: number) => page.locator(`.story .step.turn[data-tick="${tick}"]`);

async function act(page: Page, text: string) {
  const box = page.getByLabel("What do you do?");
  await box.waitFor({ timeout: WAIT });
  await page.waitForFunction(
    () => !(document.querySelector('input[name="action"]') as HTMLInputElement | null)?.disabled,
    undefined,
    { timeout: WAIT },
  );
  await box.fill(text);
  await box.press("Enter");
  await page.waitForFunction(
    () => (document.querySelector('input[name="action"]') as HTMLInputElement | null)?.value === "",
    undefined,
    { timeout: WAIT },
  );
}

describe("browser: the host's story controls, followed by a player", { timeout: 170_000 }, () => {
  let running: Running;
  let chromium: { browser: Browser; close(): Promise<void> };
  let hostContext: BrowserContext;
  let playerContext: BrowserContext;
  let host: Page;
  let player: Page;
  let gameId = "";
  let hostToken = "";
  const step = gameSteps();
  const apiGet = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${running.url}${path}`, {
      headers: { authorization: `Bearer ${hostToken}` },
    });
    assert.equal(response.status, 200, path);
    return (await response.json()) as T;
  };

  before(async () => {
    [running, chromium] = await Promise.all([startWebServer(), launchChromium()]);
    hostContext = await chromium.browser.newContext({ viewport: { width: 1280, height: 900 } });
    playerContext = await chromium.browser.newContext({ viewport: { width: 1024, height: 800 } });
    host = await hostContext.newPage();
    player = await playerContext.newPage();
  });
  after(async () => {
    await chromium?.close();
    if (running) {
      await running.close();
      await dropStore(running.where);
    }
    await closeSandbox();
  });

  step("a host and a player play three turns; only the host sees the story controls", async () => {
    await host.goto(running.url);
    await host.getByRole("radio", { name: /Isobel Carrow/ }).waitFor({ timeout: WAIT });
    await host.getByLabel("Name of the game").fill("Controls");
    await host.getByRole("button", { name: "Create the game" }).click();
    await host.waitForURL(/#\/game\/[0-9a-f]{32}$/, { timeout: WAIT });
    gameId = /#\/game\/([0-9a-f]{32})$/.exec(host.url())![1]!;
    hostToken = await host.evaluate(
      (id) =>
        (JSON.parse(localStorage.getItem(`taleforge:seat:${id}`) ?? "{}") as { hostToken?: string })
          .hostToken ?? "",
      gameId,
    );
    assert.notEqual(hostToken, "", "the page keeps the host token");
    // The host alone decides every control here (a new game puts retry, undo and rewind to a vote:
    // test/web/story-party.test.ts plays those).
    const ruled = await fetch(`${running.url}/games/${gameId}/controls`, {
      method: "PUT",
      headers: { authorization: `Bearer ${hostToken}`, "content-type": "application/json" },
      body: JSON.stringify({ retry: "host", undo: "host", rewind: "host" }),
    });
    assert.equal(ruled.status, 200, await ruled.text());
    const link = await host.getByLabel(/Invite link/).inputValue();
    await player.goto(link);
    await player.getByRole("radio", { name: "Make your own", checked: true }).waitFor({ timeout: WAIT });
    await player.getByLabel("Name", { exact: true }).fill("Ada Quill");
    await player.getByRole("button", { name: "Join the game" }).click();
    await player.waitForURL(new RegExp(`#/game/${gameId}$`), { timeout: WAIT });
    await host.getByText("Players: Isobel Carrow, Ada Quill").waitFor({ timeout: WAIT });
    await host.getByRole("button", { name: "Start the game" }).click();
    const walkthrough = readWalkthrough();
    for (let tick = 1; tick <= 3; tick++) {
      await act(host, walkthrough.steps[tick - 1]!.command);
      await act(player, "follow Isobel");
      for (const page of [host, player]) await turnStep(page, tick).waitFor({ timeout: WAIT });
    }
    await host.getByRole("region", { name: "Story controls for turn 3" }).waitFor({ timeout: WAIT });
    assert.equal(await player.locator(".story-controls").count(), 0, "a player has no story controls");
    // The timeline: the opening and three turns on both pages, "Rewind here" on the host's only (not on
    // the last turn: play goes on from it anyway).
    for (const page of [host, player]) {
      const rows = page.getByRole("list", { name: "Turns of this branch" }).locator(":scope > li");
      assert.equal(await rows.count(), 4, "the opening and three turns");
      assert.equal(await rows.nth(0).getByRole("button").first().innerText(), "Opening");
      const told = (await turnStep(page, 2).locator(".narration").innerText()).replace(/\s+/g, " ");
      const words = await rows.nth(2).locator(".words").innerText();
      assert.ok(told.startsWith(words.replace(/…$/, "")), `turn 2's first words: ${words}`);
    }
    assert.equal(await host.getByRole("button", { name: "Rewind here" }).count(), 3);
    assert.equal(await player.getByRole("button", { name: /Rewind here/ }).count(), 0);
    // Its turn button puts the focus on that turn of the story.
    await host.getByRole("button", { name: "Turn 1", exact: true }).click();
    assert.equal(
      await host.evaluate(() => document.activeElement?.closest(".step")?.getAttribute("data-tick")),
      "1",
    );
    await noSeriousViolations(host, "the host's page with the story controls");
  });

  step("Retry: turn 3 is told again on both pages", async () => {
    const before = await turnStep(host, 3).getAttribute("data-seq");
    await host.getByRole("button", { name: "Retry", exact: true }).click();
    for (const page of [host, player])
      await page
        .locator(`.story .step.turn[data-tick="3"]:not([data-seq="${before}"])`)
        .waitFor({ timeout: WAIT });
    for (const page of [host, player])
      assert.equal(await turnStep(page, 3).count(), 1, "one turn 3 is shown");
    await host.getByText("Turn 3 was told again").waitFor({ timeout: WAIT });
  });

  step("Undo: turn 3 is gone on both pages", async () => {
    await host.getByRole("button", { name: "Undo", exact: true }).click();
    for (const page of [host, player])
      await page.waitForFunction(
        () => document.querySelectorAll('.story .step.turn[data-tick="3"]').length === 0,
        undefined,
        {
          timeout: WAIT,
        },
      );
    for (const page of [host, player]) assert.equal(await turnStep(page, 2).count(), 1);
    await host.getByRole("region", { name: "Story controls for turn 2" }).waitFor({ timeout: WAIT });
    // Each player's action of the turn taken back is in their box again.
    await host.waitForFunction(
      (text) => (document.querySelector('input[name="action"]') as HTMLInputElement | null)?.value === text,
      readWalkthrough().steps[2]!.command,
      { timeout: WAIT },
    );
    await player.waitForFunction(
      () =>
        (document.querySelector('input[name="action"]') as HTMLInputElement | null)?.value ===
        "follow Isobel",
      undefined,
      { timeout: WAIT },
    );
  });

  step("Alter: the narration of turn 2 changes on both pages", async () => {
    const told = await turnStep(host, 2).locator(".narration p").first().innerText();
    await host.getByRole("button", { name: "Alter", exact: true }).click();
    const box = host.getByLabel(/New narration of turn 2/);
    await box.waitFor({ timeout: WAIT });
    assert.ok((await box.inputValue()).includes(told.trim()), "the box holds the narration");
    await noSeriousViolations(host, "the alter form");
    await host.getByRole("button", { name: "Cancel" }).click();
    assert.equal(await host.getByLabel(/New narration of turn 2/).count(), 0, "Cancel closes the form");
    await host.getByRole("button", { name: "Alter", exact: true }).click();
    await host.getByLabel(/New narration of turn 2/).fill("The lamp gutters, and a gull laughs at the pier.");
    await host.getByRole("button", { name: "Save" }).click();
    for (const page of [host, player])
      await turnStep(page, 2)
        .locator(".narration", { hasText: "The lamp gutters, and a gull laughs at the pier." })
        .waitFor({ timeout: WAIT });
    assert.doesNotMatch(
      await turnStep(player, 2).innerText(),
      new RegExp(told.slice(0, 30).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
    );
  });

  step("Rewind to turn 1; the branches and a diff in the host tools", async () => {
    await host.getByRole("button", { name: "Host tools" }).click();
    await host.getByText("Branches", { exact: true }).click();
    await host.getByLabel("Rewind to turn").fill("1");
    await host.getByRole("button", { name: "Rewind", exact: true }).click();
    for (const page of [host, player])
      await page.waitForFunction(
        () => document.querySelectorAll('.story .step.turn[data-tick="2"]').length === 0,
        undefined,
        {
          timeout: WAIT,
        },
      );
    for (const page of [host, player]) await turnStep(page, 1).waitFor({ timeout: WAIT });
    await host.getByText("Rewound to turn 1").waitFor({ timeout: WAIT });
    await host.getByRole("region", { name: "Story controls for turn 1" }).waitFor({ timeout: WAIT });
    assert.equal(
      await host.locator(".story-controls [role=status]").innerText(),
      "",
      "what Alter did is not said under turn 1",
    );

    const listed = await apiGet<{
      head: number;
      branches: { tip: number; title: string; current: boolean }[];
    }>(`/games/${gameId}/history/branches`);
    assert.ok(listed.branches.length >= 2, "the rewind left the old branch beside the current one");
    const rows = host.getByRole("list", { name: "Branches" }).locator(":scope > li");
    await host.waitForFunction(
      (n) => document.querySelectorAll(".branch-list > li").length === n,
      listed.branches.length,
      { timeout: WAIT },
    );
    for (const [i, branch] of listed.branches.entries())
      assert.match(
        await rows.nth(i).innerText(),
        new RegExp(branch.current ? "current" : "Switch"),
        branch.title,
      );
    assert.equal(await host.locator(".branch-list > li.current").count(), 1, "one branch is current");

    const other = listed.branches.find((b) => !b.current)!;
    await rows.nth(listed.branches.indexOf(other)).getByRole("button", { name: "Compare" }).click();
    const diff = host.locator(".diff");
    await diff.waitFor({ timeout: WAIT });
    const expected = await apiGet<{ changes: unknown[] }>(
      `/games/${gameId}/history/diff?a=${other.tip}&b=${listed.head}`,
    );
    assert.equal(await diff.locator("li").count(), expected.changes.length, "every change is listed");
    assert.ok(expected.changes.length > 0, "two turns on another branch changed the world");
    await noSeriousViolations(host, "the host tools with branches and a diff");
  });

  step("Name a branch in place, then delete it after a confirmation", async () => {
    const listed = await apiGet<{ branches: { tip: number; current: boolean }[] }>(
      `/games/${gameId}/history/branches`,
    );
    // The newest other branch: the altered turn 2 (nothing replays from it, so it may go).
    const other = listed.branches.filter((b) => !b.current).at(-1)!;
    const rows = host.getByRole("list", { name: "Branches" }).locator(":scope > li");
    const row = rows.nth(listed.branches.findIndex((b) => b.tip === other.tip));
    await row.getByRole("button", { name: "Rename" }).click();
    await row.getByLabel("Name of the branch").fill("The gull\u0007 pier");
    await noSeriousViolations(host, "the branch name field");
    await row.getByRole("button", { name: "Save name" }).click();
    const named = rows.filter({ hasText: "The gull pier" });
    await named.waitFor({ timeout: WAIT });
    const after = await apiGet<{ branches: { tip: number; name: string | null }[] }>(
      `/games/${gameId}/history/branches`,
    );
    assert.equal(after.branches.find((b) => b.tip === other.tip)!.name, "The gull pier");

    // Delete asks first; "Keep it" keeps it.
    await named.getByRole("button", { name: "Delete", exact: true }).click();
    await named.getByRole("button", { name: "Keep it" }).click();
    assert.equal(await named.getByRole("button", { name: "Yes, delete it" }).count(), 0);
    await named.getByRole("button", { name: "Delete", exact: true }).click();
    await noSeriousViolations(host, "the deletion's confirmation");
    await named.getByRole("button", { name: "Yes, delete it" }).click();
    await host.getByText("Deleted “The gull pier”").waitFor({ timeout: WAIT });
    await host.waitForFunction(
      (n) => document.querySelectorAll(".branch-list > li").length === n,
      listed.branches.length - 1,
      { timeout: WAIT },
    );
    const left = await apiGet<{ branches: { tip: number }[] }>(`/games/${gameId}/history/branches`);
    assert.ok(!left.branches.some((b) => b.tip === other.tip), "the branch is gone from the server");
    // The current branch has no Delete: the server refuses it.
    assert.equal(
      await host
        .locator(".branch-list > li.current")
        .getByRole("button", { name: "Delete", exact: true })
        .count(),
      0,
    );
    // The player's story is the current branch's, untouched.
    await turnStep(player, 1).waitFor({ timeout: WAIT });
  });
});
