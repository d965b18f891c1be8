import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { readWalkthrough } from "../helpers/walkthrough.ts";
import { Client, closeSandbox, dropStore, type Running } from "../server/harness.ts";
import { gameSteps, horizontalOverflow, launchChromium, seriousViolations } from "./browser.ts";
import { adjustableNarrator, restartWebServer, screenshotDir, startWebServer } from "./server.ts";

/**
 * Two people play the example world in two browser contexts of a real
 * Chromium, against a real server: create, invite, join, five turns each,
 * a quest offer accepted, the journal and the map following, a reload in the
 * middle of a narration, and the host reading the trace.
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

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

/** The turns shown in the story, in order, as their ticks. */
async function shownTurns(page: Page): Promise<number[]> {
  return page.$$eval(".story .step.turn", (steps) => steps.map((s) => Number(s.getAttribute("data-tick"))));
}

async function waitForTurn(page: Page, tick: number) {
  await page.locator(`.story .step.turn[data-tick="${tick}"]`).waitFor({ timeout: WAIT });
}

async function act(page: Page, text: string, how: "enter" | "click") {
  const box = page.getByLabel("What do you do?");
  await box.waitFor({ timeout: WAIT });
  await assertEnabled(page);
  await box.fill(text);
  if (how === "enter") await box.press("Enter");
  else await page.getByRole("button", { name: "Act", exact: true }).click();
  // Accepted: the box empties (the last player's action runs the turn at once, so the "waiting" line may not show).
  await page.waitForFunction(
    () => (document.querySelector('input[name="action"]') as HTMLInputElement | null)?.value === "",
    undefined,
    { timeout: WAIT },
  );
  assert.equal(await page.locator(".turn-panel .error, [role=alert]").count(), 0, "no error after acting");
}

async function assertEnabled(page: Page) {
  await page.waitForFunction(
    () => !(document.querySelector('input[name="action"]') as HTMLInputElement | null)?.disabled,
    undefined,
    { timeout: WAIT },
  );
}

describe("browser: two players play the example world in Chromium", { timeout: 170_000 }, () => {
  let running: Running;
  let chromium: { browser: Browser; close(): Promise<void> };
  const narrator = adjustableNarrator();
  let hostContext: BrowserContext;
  let playerContext: BrowserContext;
  let host: Page;
  let player: Page;
  let gameId = "";
  const shots = screenshotDir();
  const dialogs: string[] = [];
  /** Each step needs the one before: after a failure the rest fail at once instead of timing out. */
  const step = gameSteps();

  before(async () => {
    [running, chromium] = await Promise.all([startWebServer(narrator.factory), launchChromium()]);
    hostContext = await chromium.browser.newContext({ viewport: { width: 1280, height: 900 } });
    playerContext = await chromium.browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
    });
    host = await hostContext.newPage();
    player = await playerContext.newPage();
    for (const page of [host, player])
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
  });
  after(async () => {
    await chromium?.close();
    if (running) {
      await running.close();
      await dropStore(running.where);
    }
    await closeSandbox();
  });

  step("creates a game from the example world and invites a second player", async () => {
    await host.goto(running.url);
    await host.getByRole("heading", { name: "Start a game" }).waitFor();
    const example = host.getByRole("radio", { name: /harbor\s+example/ });
    await example.waitFor({ timeout: WAIT });
    assert.equal(await example.isChecked(), true, "the bundled example world is chosen first");
    await host.getByRole("radio", { name: /Isobel Carrow/ }).waitFor({ timeout: WAIT });
    assert.ok(await host.getByText("A net-mender's daughter").isVisible(), "premades show their description");
    await noSeriousViolations(host, "the start page");
    await host.screenshot({ path: join(shots, "start-1280.png"), fullPage: true });
    await host.setViewportSize({ width: 390, height: 844 });
    await host.screenshot({ path: join(shots, "start-390.png"), fullPage: true });
    await host.setViewportSize({ width: 1280, height: 900 });

    await host.getByLabel("Name of the game").fill("Harbor night");
    await host.getByRole("button", { name: "Create the game" }).click();
    await host.waitForURL(/#\/game\/[0-9a-f]{32}$/, { timeout: WAIT });
    gameId = /#\/game\/([0-9a-f]{32})$/.exec(host.url())![1]!;
    await host.getByRole("heading", { name: "Harbor night" }).waitFor();
    const link = await host.getByLabel(/Invite link/).inputValue();
    assert.match(link, /#\/join\/[A-Z0-9]+\/Harbor%20night$/);

    await player.goto(link);
    await player.getByRole("heading", { name: "Join Harbor night" }).waitFor({ timeout: WAIT });
    await player.getByText("Playing: Isobel Carrow.").waitFor({ timeout: WAIT });
    // The only premade is played: the page offers a new character, and the premade cannot be chosen.
    // The picker loads the world's premades after the page; it then turns to a new character.
    await player.getByRole("radio", { name: "Make your own", checked: true }).waitFor({ timeout: WAIT });
    await player.getByRole("radio", { name: "A ready-made character" }).check();
    assert.equal(
      await player.getByRole("radio", { name: /Isobel Carrow/ }).isDisabled(),
      true,
      "a premade someone plays cannot be chosen",
    );
    await player.getByRole("radio", { name: "Make your own" }).check();
    await player.getByLabel("Name", { exact: true }).fill("Ada Quill");
    await player.getByRole("checkbox", { name: /^Noble/ }).check();
    await noSeriousViolations(player, "the join page");
    await player.getByRole("button", { name: "Join the game" }).click();
    await player.waitForURL(new RegExp(`#/game/${gameId}$`), { timeout: WAIT });
    await player.getByText("The host starts the game when everyone is here.").waitFor({ timeout: WAIT });

    await host.getByText("Players: Isobel Carrow, Ada Quill").waitFor({ timeout: WAIT });
    await host.getByRole("button", { name: "Start the game" }).click();
    for (const page of [host, player]) {
      await page.locator(".story .step.opening .narration").waitFor({ timeout: WAIT });
      await assertEnabled(page);
    }
    await noSeriousViolations(player, "the game page (390 px)");
  });

  step("plays five turns: actions, who acted, a quest accepted, the journal and the map", async () => {
    const walkthrough = readWalkthrough();
    // The pages follow the game by its events (useGame): no reading of the game, its story or its
    // notes again on every event. Counted from here to the end of the five turns.
    const reads: string[] = [];
    for (const page of [host, player])
      page.on("request", (request) => {
        const path = new URL(request.url()).pathname;
        if (/^\/games\/[0-9a-f]+(\/transcript|\/narrative-events)?$/.test(path)) reads.push(path);
      });
    let accepted = "";
    let offeredAt = 0;
    let placeBefore = "";
    let mapBefore = "";
    for (let tick = 1; tick <= 5; tick++) {
      if (tick === 3) {
        placeBefore = await host.locator(".map .position").innerText();
        mapBefore = (await host.locator(".map img").getAttribute("src")) ?? "";
      }
      await act(host, walkthrough.steps[tick - 1]!.command, "enter");
      await host.getByText("You have acted this turn; waiting for the others.").waitFor({ timeout: WAIT });
      // The other player sees that Isobel has acted, not what.
      await player
        .getByRole("list", { name: "Who has acted this turn" })
        .getByText("Isobel Carrow: has acted")
        .waitFor({ timeout: WAIT });
      assert.equal(await player.locator(`.story .step.turn[data-tick="${tick}"]`).count(), 0);
      assert.doesNotMatch(
        await player.locator(".turn-panel").innerText(),
        new RegExp(walkthrough.steps[tick - 1]!.command),
      );
      await act(player, tick === 1 ? "follow Isobel <b>closely</b>" : "follow Isobel", "click");
      await Promise.all([waitForTurn(host, tick), waitForTurn(player, tick)]);
      if (tick === 1) {
        // Issue 34: the story names who does what, and each page marks the lines about its own character.
        const mine = host.locator('.story .step.turn[data-tick="1"] .narration p.yours');
        assert.equal(await mine.count(), 1);
        assert.match(await mine.innerText(), /^Isobel Carrow \w+ .*; Ada Quill follows\.$/);
        assert.equal(await player.locator('.story .step.turn[data-tick="1"] .narration p.yours').count(), 0);
      }
      if (tick === 3) {
        // Issue 14 item 5: arrive_lighthouse completes the journey after the narration is written;
        // the story names no next step, and the journal shows the one after the turn's changes.
        const story = await player.locator('.story .step.turn[data-tick="3"] .narration').innerText();
        assert.doesNotMatch(story, /Next:/);
        await player
          .locator(".journal .next-step", { hasText: "Climb the lighthouse stairwell." })
          .waitFor({ timeout: WAIT });
        assert.doesNotMatch(await player.locator(".journal .next-step").innerText(), /Travel to the Old/);
      }

      const offer = player.locator("fieldset.offer");
      // The offer stays on the page while the party plays on: it is answered a turn after it was made.
      if (offeredAt === 0 && (await offer.count()) > 0) offeredAt = tick;
      if (!accepted && offeredAt > 0 && tick > offeredAt) {
        assert.equal(await offer.count(), 1, "the offer is still shown a turn later");
        const quest = (await offer.first().locator("legend").innerText()).replace("Quest offered: ", "");
        assert.equal(await host.locator("fieldset.offer").count(), 1, "every player sees the offer");
        await player.getByRole("button", { name: `Accept “${quest}”` }).waitFor({ timeout: WAIT });
        // A bare "y" in the action box answers the offer, as at the terminal's prompt: never "You y."
        await act(player, "y", "enter");
        for (const page of [host, player])
          await page
            .locator(`.journal .quest[data-status="accepted"]`, { hasText: quest })
            .waitFor({ timeout: WAIT });
        await host.locator("fieldset.offer").waitFor({ state: "detached", timeout: WAIT });
        accepted = quest;
      }
    }
    assert.notEqual(accepted, "", "a quest was offered and accepted in five turns");
    assert.deepEqual(reads, [], "five turns played without reading the game again");
    assert.match(await player.locator(".story").innerText(), /Ada Quill accepted the quest/);

    const placeAfter = await host.locator(".map .position").innerText();
    assert.notEqual(placeAfter, placeBefore, "the party moved");
    await host.waitForFunction(
      (before) => {
        const img = document.querySelector(".map img") as HTMLImageElement | null;
        return img !== null && img.src !== before && img.complete && img.naturalWidth > 0;
      },
      mapBefore,
      { timeout: WAIT },
    );
    // Both see the five turns, in order, each once; player input is text, never markup.
    for (const page of [host, player]) assert.deepEqual(await shownTurns(page), [1, 2, 3, 4, 5]);
    assert.equal(await player.locator(".story .actions b").count(), 0);
    assert.ok((await player.locator(".story .actions").first().innerText()).includes("<b>closely</b>"));
    await noSeriousViolations(host, "the game page (1280 px)");
    await player.emulateMedia({ colorScheme: "dark", reducedMotion: "reduce" });
    await noSeriousViolations(player, "the game page in the dark scheme");
    await player.emulateMedia({ colorScheme: "light", reducedMotion: "no-preference" });
    await host.screenshot({ path: join(shots, "game-1280.png"), fullPage: true });
    await player.screenshot({ path: join(shots, "game-390.png") });
  });

  step("reloads in the middle of a narration and shows the same story without duplicates", async () => {
    narrator.slowMs = 150;
    try {
      await act(host, "look around the lamp room", "enter");
      await act(player, "wait by the window", "enter");
      // The narration streams in...
      await player.locator(".story .live .narration p").waitFor({ timeout: WAIT });
      const partial = await player.locator(".story .live").innerText();
      assert.ok(partial.length > 0);
      // ...and the page is reloaded before it ends.
      assert.equal(await player.locator('.story .step.turn[data-tick="6"]').count(), 0, "still narrating");
      await player.reload();
      await waitForTurn(player, 6);
    } finally {
      narrator.slowMs = 0;
    }
    await player.locator(".story .live").waitFor({ state: "detached", timeout: WAIT });
    assert.deepEqual(await shownTurns(player), [1, 2, 3, 4, 5, 6]);
    const token = await player.evaluate(
      (id) => JSON.parse(localStorage.getItem(`taleforge:seat:${id}`)!),
      gameId,
    );
    const transcript = (await new Client(running.url, token.playerToken).get(`/games/${gameId}/transcript`))
      .json.transcript as { tick: number; kind: string; narration: string }[];
    const squash = (text: string) => text.replace(/\s+/g, " ").trim();
    for (const step of transcript.filter((s) => s.kind === "turn" || s.kind === "opening")) {
      const selector = `.story .step.${step.kind}[data-tick="${step.tick}"] .narration`;
      assert.equal(await player.locator(selector).count(), 1, `tick ${step.tick} shown once`);
      assert.equal(squash(await player.locator(selector).innerText()), squash(step.narration));
    }
    // The opening comes first.
    assert.equal(await player.locator(".story .steps > li").first().getAttribute("class"), "step opening");
  });

  step("loses the connection when the server restarts, reconnects and misses nothing", async () => {
    const status = (page: Page) => page.locator(".game-head [role=status]");
    running = await restartWebServer(running, narrator.factory, async () => {
      for (const page of [host, player])
        await status(page).getByText("reconnecting…").waitFor({ timeout: WAIT });
    });
    for (const page of [host, player]) await status(page).getByText("live").waitFor({ timeout: WAIT });
    await act(host, "read the keeper's logbook", "enter");
    await act(player, "keep watch", "click");
    for (const page of [host, player]) {
      await waitForTurn(page, 7);
      assert.deepEqual(await shownTurns(page), [1, 2, 3, 4, 5, 6, 7]);
    }
  });

  step("lets the host read the trace and find why a named trigger fired", async () => {
    await host.getByRole("button", { name: "Host tools" }).click();
    const drawer = host.getByRole("complementary", { name: "Host and author tools" });
    await drawer.waitFor({ timeout: WAIT });
    assert.equal(
      await player.getByRole("button", { name: "Host tools" }).count(),
      0,
      "players have no host tools",
    );
    await drawer.getByLabel("Step").selectOption({ label: "Turn 3" });
    const trigger = drawer.locator('details.trigger[data-trigger="arrive_lighthouse"]');
    await trigger.waitFor({ timeout: WAIT });
    assert.match(await trigger.locator("summary").innerText(), /arrive_lighthouse\s+fired/);
    // Numbered from 1, as the text trace counts them ("failed at condition 1"): an ordered list.
    const conditions = trigger.locator("ol.conditions > li.condition");
    assert.ok((await conditions.count()) > 0);
    for (const text of await conditions.allInnerTexts()) assert.match(text, /actual .* expected .* passed/s);
    const effects = await trigger.locator("ol.effects > li.effect").allInnerTexts();
    assert.ok(
      effects.some((e) => /applied/.test(e)),
      effects.join("\n"),
    );
    await noSeriousViolations(host, "the host drawer");
    await host.screenshot({ path: join(shots, "host-1280.png") });

    // The storage the scripts keep (the log is read in worlds.test.ts, with a script that fails).
    await drawer.getByRole("tab", { name: "Storage" }).click();
    await drawer.getByText('"lighthouse_visits"').or(drawer.getByText("lighthouse_visits:")).first().waitFor({
      timeout: WAIT,
    });
    await drawer.getByRole("tab", { name: "Trace" }).click();
    await host.setViewportSize({ width: 390, height: 844 });
    // The header's status ("live · running · turn 7 · you play …") is a line under the title on a
    // phone, not a column of one word a line squeezed between the title and the Host tools button.
    const head = await host.locator(".game-head").evaluate((el) => {
      const h1 = el.querySelector("h1")!.getBoundingClientRect();
      const status = el.querySelector("p")!.getBoundingClientRect();
      return { below: status.top >= h1.bottom - 1, share: status.width / el.clientWidth };
    });
    assert.ok(
      head.below && head.share > 0.8,
      `the status under the title, full width: ${JSON.stringify(head)}`,
    );
    // On a phone nothing in the drawer reaches past the screen's edge: every tab wraps to the width.
    await trigger.waitFor({ timeout: WAIT });
    assert.deepEqual(await horizontalOverflow(host, ".drawer"), [], "the trace at 390 px");
    await drawer.getByLabel("As text").check();
    await drawer.locator(".trace-text").waitFor({ timeout: WAIT });
    assert.deepEqual(await horizontalOverflow(host, ".drawer"), [], "the trace as text at 390 px");
    await drawer.getByLabel("As text").uncheck();
    await drawer.getByRole("tab", { name: "Log" }).click();
    await drawer.locator("table.log tbody tr").first().waitFor({ timeout: WAIT });
    assert.deepEqual(await horizontalOverflow(host, ".drawer"), [], "the log at 390 px");
    await drawer.getByRole("tab", { name: "Storage" }).click();
    await drawer.getByText("Consumed triggers").waitFor({ timeout: WAIT });
    assert.deepEqual(await horizontalOverflow(host, ".drawer"), [], "the storage at 390 px");
    await drawer.getByRole("tab", { name: "Trace" }).click();
    await trigger.waitFor({ timeout: WAIT });
    await host.screenshot({ path: join(shots, "host-390.png") });
    await host.setViewportSize({ width: 1280, height: 900 });
    // The controls: pause (the players cannot act), resume, export the save.
    await drawer.getByRole("button", { name: "Pause" }).click();
    // While paused the action box says so (never "What do you do?") and cannot be used.
    const paused = player.getByLabel("The host has paused the game: you can act again once they resume it.");
    await paused.waitFor({ timeout: WAIT });
    assert.equal(await paused.isDisabled(), true);
    await drawer.getByRole("button", { name: "Resume" }).click();
    await assertEnabled(player);
    const [download] = await Promise.all([
      host.waitForEvent("download", { timeout: WAIT }),
      drawer.getByRole("button", { name: "Export save" }).click(),
    ]);
    assert.equal(download.suggestedFilename(), `${gameId}.save.json`);
    const saved = JSON.parse(await streamText(await download.createReadStream()));
    assert.equal(saved.state?.tick ?? saved.tick, 7, "the save is at the last turn");
    // "Save as play-test": the game as a play-test (GET /games/:id/playtest), every turn of it.
    const [playtest] = await Promise.all([
      host.waitForEvent("download", { timeout: WAIT }),
      drawer.getByRole("button", { name: "Save as play-test" }).click(),
    ]);
    assert.equal(playtest.suggestedFilename(), `${gameId}.test.yaml`);
    const yaml = await streamText(await playtest.createReadStream());
    assert.match(yaml, /^world: world\.json$/m);
    assert.equal((yaml.match(/^ {2}# turn \d+$/gm) ?? []).length, 7, "one step per turn played");
    await host.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached", timeout: WAIT });

    // A terminal command typed in the browser is no action ("You try “/map”."): the page says where it is.
    const box = player.getByLabel("What do you do?");
    await assertEnabled(player);
    await box.fill("/map");
    await box.press("Enter");
    await player
      .getByRole("alert")
      .getByText(/“\/map” is a command of the terminal game, not an action\. The map/)
      .waitFor({ timeout: WAIT });
    assert.equal(await box.inputValue(), "/map", "the line stays in the box, nothing was played");
    assert.equal(await player.locator('.story .step.turn[data-tick="8"]').count(), 0);
    assert.doesNotMatch(await host.locator(".turn-panel").innerText(), /has acted/, "no one acted");
    assert.deepEqual(dialogs, [], "no script of a page ever ran a dialog");
  });
});
