import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createOpenAiProvider } from "../../src/ai/openai/index.ts";
import type { NarrationAnswer } from "../../src/engine/ports.ts";
import type { NarratorFactory } from "../../src/server/runner.ts";
import { MockServer, streamed } from "../ai/mock-server.ts";
import {
  Client,
  closeSandbox,
  dropStore,
  offlineNarrator,
  type Running,
  startServer,
  WORLD_TEXT,
} from "../server/harness.ts";
import { launchChromium, seriousViolations } from "./browser.ts";
import { builtWeb, screenshotDir } from "./server.ts";

/**
 * The party's table (issue 34) in a real Chromium against a real server: a three-player game whose
 * journal stays in view, a drawer that makes room, focus that is never lost, errors that stay and
 * speak to players, a narrator that fails and comes back by itself, the host's seat links, the
 * signals, the reading view, and outside text shown without its escape sequences.
 */
const WAIT = 60_000;
const shots = screenshotDir();

/**
 * The narrator: a model (the mock server on 127.0.0.1, speaking the OpenAI protocol) writes the
 * story, streamed; the offline narrator reads the actions (intent, judge, summary). The model can
 * fail (answering 500), be slow, write escape sequences, or stop half way until a gate opens.
 */
const narration = {
  mode: "model" as "model" | "500" | "escapes",
  slowMs: 0,
  /** While set: the narration stops half written (in pieces of 12 characters) until it resolves. */
  gate: null as Promise<void> | null,
};

const STORIES = [
  "Fog rolls in off the water, and the lamps along the quay burn yellow in it.",
  "Somewhere below the harbour wall a bell answers the tide, twice, then falls silent.",
  "Gulls wheel over the net lofts; a door bangs in the wind and nobody goes to shut it.",
  "Rain needles the cobbles. The smell of tar and wet rope hangs over everything.",
  "A cart rattles past the Gutted Eel, its driver hunched against the cold.",
];

/** The model's answers: a story streamed in small deltas, or 500 while it is failing. */
function modelOf(mock: MockServer) {
  let told = 0;
  mock.handler = () => {
    if (narration.mode === "500") return { status: 500, json: { error: { message: "boom" } } };
    const story = STORIES[told++ % STORIES.length]!;
    return streamed(story.match(/[\s\S]{1,16}/g) ?? [story], { eventDelayMs: narration.slowMs });
  };
}

function narratorOf(mock: MockServer): NarratorFactory {
  return (world, game) => {
    const model = createOpenAiProvider(world, {
      baseUrl: mock.url,
      model: "test-model",
      timeoutMs: 5000,
      maxRetries: 0,
      retry: { sleep: async () => {} },
    });
    const offline = offlineNarrator(world, game);
    return {
      ...offline,
      name: model.name,
      model: model.model,
      usage: () => offline.usage(),
      close: async () => {
        await Promise.all([offline.close(), model.close()]);
      },
      classify: (request, signal) => offline.classify(request, signal),
      judge: (request, signal) => offline.judge(request, signal),
      async narrate(request, onChunk, signal): Promise<NarrationAnswer> {
        const escapes = narration.mode === "escapes";
        const gate = narration.gate;
        // The model's stream as it comes.
        if (!escapes && !gate) return model.narrate(request, onChunk, signal);
        const chunks: string[] = [];
        const answer = await model.narrate(request, (chunk) => chunks.push(chunk), signal);
        if (gate) {
          // Half of it, cut in the middle of a sentence; the rest once the gate opens.
          const pieces = answer.text.match(/[\s\S]{1,12}/g) ?? [];
          const half = Math.max(1, Math.floor(pieces.length / 2));
          for (const piece of pieces.slice(0, half)) onChunk?.(piece);
          await gate;
          for (const piece of pieces.slice(half)) onChunk?.(piece);
          return answer;
        }
        // A model that sends terminal escapes, split across chunks.
        const sent = escapes
          ? ["\u001b[3", "1mRed glass\u001b]0;pwned\u0007 ", "\u009b2Jshines. ", ...chunks]
          : chunks;
        for (const chunk of sent) onChunk?.(chunk);
        return escapes ? { ...answer, text: sent.join("") } : answer;
      },
    };
  };
}

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

describe("browser: the party's table", { timeout: 300_000 }, () => {
  let running: Running;
  let mock: MockServer;
  let chromium: { browser: Browser; close(): Promise<void> };
  let laptop: BrowserContext;
  let phone: BrowserContext;
  let host: Page;
  let phonePage: Page;
  let gameId = "";
  let hostToken = "";
  const tokens: Record<string, { id: string; token: string }> = {};
  let anyone: Client;

  before(async () => {
    mock = await MockServer.start();
    modelOf(mock);
    const webRoot = await builtWeb();
    [running, chromium] = await Promise.all([
      startServer({
        webRoot,
        narrator: narratorOf(mock),
        retryDelaysMs: Array.from({ length: 30 }, () => 2500),
        sweepMs: 100,
      }),
      launchChromium(),
    ]);
    laptop = await chromium.browser.newContext({ viewport: { width: 1280, height: 900 } });
    phone = await chromium.browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true });
    host = await laptop.newPage();
    phonePage = await phone.newPage();
    for (const page of [host, phonePage]) page.on("dialog", (d) => void d.accept());
    anyone = new Client(running.url);
  });
  after(async () => {
    await chromium?.close();
    if (running) {
      await running.close();
      await dropStore(running.where);
    }
    await mock?.close();
    await closeSandbox();
  });

  /** Seats a browser context in the game (as the Start and Join pages do, in localStorage). */
  async function seat(page: Page, seatOf: Record<string, string>) {
    await page.goto(running.url);
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key!, value!),
      [`taleforge:seat:${gameId}`, JSON.stringify({ game: gameId, name: "Harbor night", ...seatOf })],
    );
    await page.goto(`${running.url}/#/game/${gameId}`);
  }

  async function submit(name: string, text: string, key: string) {
    const client = new Client(running.url, tokens[name]!.token);
    let answer = await client.post(`/games/${gameId}/actions`, { text, idempotencyKey: key });
    // A step of the game holds it a moment (a quest answer, the turn before being stored): as a
    // client does, read the game again and submit once it is free.
    for (
      let tries = 0;
      answer.status === 409 && answer.json?.error?.code === "game/busy" && tries < 50;
      tries++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await client.post(`/games/${gameId}/actions`, { text, idempotencyKey: key });
    }
    assert.ok(answer.status === 202 || answer.status === 200, answer.text);
  }

  async function tick(): Promise<number> {
    return (await new Client(running.url, hostToken).get(`/games/${gameId}`)).json.tick;
  }

  async function waitTick(value: number) {
    const deadline = Date.now() + WAIT;
    while ((await tick()) < value) {
      if (Date.now() > deadline) throw new Error(`turn ${value} did not run`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it("the lobby says the opening is being written, and Start cannot be pressed twice", async () => {
    const hash = (await anyone.call("POST", "/worlds", WORLD_TEXT)).json.hash;
    const created = (await anyone.post("/games", { world: hash, seed: 5 })).json;
    gameId = created.id;
    hostToken = created.hostToken;
    for (const [name, character] of [
      ["Isobel Carrow", { premade: "Isobel Carrow" }],
      ["Ada Quill", { name: "Ada Quill" }],
      ["Bo Tarr", { name: "Bo Tarr" }],
    ] as const) {
      const joined = (await anyone.post("/games/join", { invite: created.invite, character })).json;
      tokens[name] = { id: joined.playerId, token: joined.token };
    }
    await seat(host, { hostToken, playerToken: tokens["Isobel Carrow"]!.token, invite: created.invite });
    await seat(phonePage, { playerToken: tokens["Ada Quill"]!.token });
    narration.slowMs = 100;
    await host.getByRole("button", { name: "Start the game" }).click();
    await host.getByRole("heading", { name: "The story is beginning" }).waitFor({ timeout: WAIT });
    assert.equal(await host.getByRole("button", { name: "Start the game" }).count(), 0, "no second Start");
    await phonePage.getByRole("heading", { name: "The story is beginning" }).waitFor({ timeout: WAIT });
    await host.locator(".story .step.opening").waitFor({ timeout: WAIT });
    narration.slowMs = 0;
  });

  it("keeps the journal, map and party in view at 1280 px after many turns; one tap away on a phone", async () => {
    for (let turn = 1; turn <= 12; turn++) {
      for (const name of ["Isobel Carrow", "Ada Quill", "Bo Tarr"])
        await submit(name, turn % 2 ? "look around" : "wait and listen", `t${turn}`);
      await waitTick(turn);
    }
    await host.reload();
    await host.locator(`.story .step.turn[data-tick="12"]`).waitFor({ timeout: WAIT });
    await host.locator(".turn-panel").scrollIntoViewIfNeeded();
    for (const heading of ["journal-title", "map-title"]) {
      const box = await host.locator(`#${heading}`).boundingBox();
      assert.ok(
        box && box.y >= 0 && box.y + box.height <= 900,
        `${heading} is on screen: ${JSON.stringify(box)}`,
      );
    }
    // The next step is said once.
    const next = await host.locator(".journal .next-step").textContent();
    const step = next!.replace(/^Next:\s*/, "").trim();
    const journal = (await host.locator(".journal").textContent()) ?? "";
    assert.equal(journal.split(step).length - 1, 1, `"${step}" once in the journal`);
    // The map's labels at their drawn size: the picture is not shrunk to the column.
    for (const page of [host, phonePage]) {
      const img = page.locator(".map img");
      await img.waitFor({ timeout: WAIT });
      await page.waitForFunction(() => (document.querySelector(".map img") as HTMLImageElement)?.complete);
      const [shown, natural] = await img.evaluate((i: HTMLImageElement) => [i.clientWidth, i.naturalWidth]);
      assert.ok(shown >= natural * 0.99, `the map is drawn at its size (${shown} of ${natural} px)`);
      // Its smallest labels at 12 px or more on the screen.
      const svgText = (await new Client(running.url, hostToken).get(`/games/${gameId}/map.svg`)).text;
      const viewWidth = Number(/viewBox="[-\d.]+ [-\d.]+ ([\d.]+)/.exec(svgText)![1]);
      const smallest = Math.min(
        ...[...svgText.matchAll(/<text[^>]* font-size="([\d.]+)"/g)].map((m) => Number(m[1])),
      );
      const px = (smallest * shown) / viewWidth;
      assert.ok(px >= 12, `the map's smallest label is ${px.toFixed(1)} px`);
      // "Whole map" fits it to the column, and back.
      await page.getByRole("button", { name: "Whole map" }).click();
      const fitted = await img.evaluate((i: HTMLImageElement) => [
        i.clientWidth,
        i.parentElement!.clientWidth,
      ]);
      assert.ok(fitted[0]! <= fitted[1]!, `the whole map fits its box: ${fitted}`);
      await page.getByRole("button", { name: "Readable size" }).click();
      // (Pressing them scrolled the side column: back to its top.)
      await page.locator("#journal-title").scrollIntoViewIfNeeded();
      // The box shows the party's marker (not the drawing's middle, which cut the labels at its left).
      const svg = (await new Client(running.url, hostToken).get(`/games/${gameId}/map.svg`)).text;
      const view = /viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"/.exec(svg)!.slice(1).map(Number);
      const at = /<g class="party"[^>]*>[\s\S]*?<path d="M([-\d.]+),([-\d.]+)/
        .exec(svg)!
        .slice(1)
        .map(Number);
      const where = { x: (at[0]! - view[0]!) / view[2]!, y: (at[1]! - view[1]!) / view[3]! };
      const marker = await page.evaluate((f) => {
        const image = document.querySelector(".map img") as HTMLImageElement;
        const box = document.querySelector(".map-box") as HTMLElement;
        return {
          x: f.x * image.clientWidth - box.scrollLeft,
          y: f.y * image.clientHeight - box.scrollTop,
          width: box.clientWidth,
          height: box.clientHeight,
        };
      }, where);
      assert.ok(
        marker.x >= 0 && marker.x <= marker.width && marker.y >= 0 && marker.y <= marker.height,
        `the party's marker is in the map's box: ${JSON.stringify(marker)}`,
      );
    }
    // On a phone: the jump links stay at the top, and one tap shows the journal.
    await phonePage.locator(".turn-panel").scrollIntoViewIfNeeded();
    const jump = await phonePage.locator("nav.jump").boundingBox();
    assert.ok(jump && jump.y >= 0 && jump.y < 10, `the jump links stay at the top: ${JSON.stringify(jump)}`);
    await phonePage.locator("nav.jump").getByRole("button", { name: "Journal" }).click();
    const journalBox = await phonePage.locator("#journal-title").boundingBox();
    assert.ok(
      journalBox && journalBox.y >= 0 && journalBox.y < 740,
      `one tap shows the journal: ${JSON.stringify(journalBox)}`,
    );
  });

  it("the drawer makes room for the Act button; focus stays after Pause, Resume and Act; Escape closes", async () => {
    await host.getByRole("button", { name: "Host tools" }).click();
    const drawer = host.getByRole("complementary", { name: "Host and author tools" });
    await drawer.waitFor();
    const act = await host.getByRole("button", { name: "Act", exact: true }).boundingBox();
    const aside = await drawer.boundingBox();
    assert.ok(
      act && aside && act.x + act.width <= aside.x,
      `Act (${JSON.stringify(act)}) is left of the drawer`,
    );
    await drawer.getByRole("button", { name: "Pause" }).click();
    await drawer.getByRole("button", { name: "Resume" }).waitFor({ timeout: WAIT });
    assert.equal(await host.evaluate(() => document.activeElement?.textContent), "Resume", "focus on Resume");
    // While paused the box says so, and looks disabled.
    await phonePage
      .getByText("The host has paused the game: you can act again once they resume it.")
      .waitFor({
        timeout: WAIT,
      });
    const box = phonePage.locator('input[name="action"]');
    assert.equal(await box.isDisabled(), true);
    assert.equal(await box.evaluate((b) => getComputedStyle(b).borderStyle), "dashed");
    await drawer.getByRole("button", { name: "Resume" }).click();
    await drawer.getByRole("button", { name: "Pause" }).waitFor({ timeout: WAIT });
    assert.equal(await host.evaluate(() => document.activeElement?.textContent), "Pause", "focus on Pause");
    await host.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    assert.equal(await host.evaluate(() => document.activeElement?.textContent), "Host tools");
    // After Act, the focus is on the line that says what happens next.
    await host.getByLabel("What do you do?").fill("check the lantern post");
    await host.getByRole("button", { name: "Act", exact: true }).click();
    await host.getByText("Your action is in. Waiting for").waitFor({ timeout: WAIT });
    assert.equal(await host.evaluate(() => document.activeElement?.className), "turn-status");
    // The title says whose turn it is.
    assert.doesNotMatch(await host.title(), /^Your turn/);
    assert.match(await phonePage.title(), /^Your turn · Harbor night/);
  });

  it("an error stays through live updates, in a player's words, and goes when dismissed", async () => {
    // The phone's player acts in another tab at the same moment: this page gets the 409.
    await phonePage.route(`**/games/${gameId}/actions`, (route) =>
      route.fulfill({
        status: 409,
        contentType: "application/json",
        body: JSON.stringify({
          error: {
            code: "submission/conflict",
            message: "This player already submitted another action for this turn (POST /games/:id/actions).",
            details: {},
          },
        }),
      }),
    );
    await phonePage.getByLabel("What do you do?").fill("climb the mast");
    await phonePage.getByRole("button", { name: "Act", exact: true }).click();
    const alert = phonePage.locator(".error-box");
    await alert
      .getByText(/You have already acted this turn \(perhaps in another tab/)
      .waitFor({ timeout: WAIT });
    await phonePage.unroute(`**/games/${gameId}/actions`);
    // A live update (Bo acts): the message stays.
    await submit("Bo Tarr", "whistle", "t13");
    await phonePage.getByText("Bo Tarr: has acted").waitFor({ timeout: WAIT });
    assert.equal(await alert.count(), 1, "the error is still shown");
    assert.doesNotMatch((await alert.textContent()) ?? "", /POST|\/games|openapi/);
    await alert.getByRole("button", { name: "Dismiss" }).click();
    assert.equal(await alert.count(), 0);
    await phonePage.getByRole("button", { name: "Act", exact: true }).click();
    await waitTick(13);
  });

  it("a failing narrator: one plain sentence and a countdown, the cause for the host, the turn runs by itself", async () => {
    narration.mode = "500";
    for (const name of ["Isobel Carrow", "Ada Quill", "Bo Tarr"]) await submit(name, "ring the bell", "t14");
    for (const page of [host, phonePage])
      await page
        .locator(".failure strong", { hasText: "The narrator did not answer." })
        .waitFor({ timeout: WAIT });
    const shown = (await phonePage.locator("main").textContent()) ?? "";
    assert.match(shown, /The narrator did not answer\. (Trying again in \d+ s\.|Trying again now…)/);
    for (const page of [host, phonePage]) {
      const text = (await page.locator("#app").textContent()) ?? "";
      assert.ok(!text.includes(mock.url) && !text.includes("127.0.0.1"), "no model address on the page");
      assert.doesNotMatch(text, /POST \/games|\/openapi/, "no route named");
    }
    await phonePage.getByRole("button", { name: "Retry", exact: true }).waitFor();
    await host.getByRole("button", { name: "Host tools" }).click();
    const drawer = host.getByRole("complementary", { name: "Host and author tools" });
    await drawer.getByText("Why the turn failed").waitFor({ timeout: WAIT });
    await noSeriousViolations(host, "a failed turn, with the host's drawer");
    await host.keyboard.press("Escape");
    // The model is back: the turn runs by itself with the actions that were submitted.
    narration.mode = "model";
    await waitTick(14);
    await phonePage.locator('.story .step.turn[data-tick="14"]').waitFor({ timeout: WAIT });
    assert.equal(await phonePage.locator(".failure").count(), 0);
    const transcript = (await new Client(running.url, hostToken).get(`/games/${gameId}/transcript`)).json
      .transcript;
    assert.deepEqual(
      transcript.at(-1).inputs.actions.map((a: { text: string }) => a.text),
      ["ring the bell", "ring the bell", "ring the bell"],
    );
  });

  it("text from outside is shown without its escape sequences", async () => {
    narration.mode = "escapes";
    for (const name of ["Isobel Carrow", "Ada Quill", "Bo Tarr"])
      await submit(name, "look at the glass", "t15");
    await waitTick(15);
    narration.mode = "model";
    const step = phonePage.locator('.story .step.turn[data-tick="15"] .narration');
    await step.waitFor({ timeout: WAIT });
    const text = (await step.textContent()) ?? "";
    assert.match(text, /Red glass shines\./);
    assert.doesNotMatch(text, /\[31m|\]0;|\u001b|\u009b|2J/);
  });

  it("a reload in mid-narration shows the whole text so far, then the rest", async () => {
    let release = () => {};
    narration.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    for (const name of ["Isobel Carrow", "Ada Quill", "Bo Tarr"])
      await submit(name, "listen at the door", "t15b");
    const live = () => document.querySelector(".story .live .narration")?.textContent ?? "";
    await phonePage.waitForFunction(live, undefined, { timeout: WAIT });
    const before = await phonePage.evaluate(live);
    assert.ok(before.length > 0);
    await phonePage.reload();
    // From its first character, not from the middle of a sentence.
    await phonePage.waitForFunction(
      (b) => (document.querySelector(".story .live .narration")?.textContent ?? "").startsWith(b),
      before,
      { timeout: WAIT },
    );
    // The host's page too (its stream was open all along: nothing shown twice).
    await host.waitForFunction(
      (b) => (document.querySelector(".story .live .narration")?.textContent ?? "") === b,
      before,
      { timeout: WAIT },
    );
    narration.gate = null;
    release();
    await waitTick(16);
    const told = phonePage.locator('.story .step.turn[data-tick="16"] .narration');
    await told.waitFor({ timeout: WAIT });
    assert.ok(((await told.textContent()) ?? "").startsWith(before), "the stored story is the one streamed");
    assert.equal(await phonePage.locator(".story .live").count(), 0);
  });

  it("a seat link opens a player's character on a new device; the host can remove a player", async () => {
    await host.getByRole("button", { name: "Host tools" }).click();
    const drawer = host.getByRole("complementary", { name: "Host and author tools" });
    await drawer.getByText("Players and seats").click();
    await drawer.getByRole("button", { name: "Seat link for Bo Tarr" }).click();
    const link = await drawer.getByLabel(/Send this link to Bo Tarr only/).inputValue();
    assert.match(link, /#\/seat\/[0-9a-f]{32}\//);
    const fresh = await chromium.browser.newContext({ viewport: { width: 390, height: 844 } });
    const bo = await fresh.newPage();
    await bo.goto(link);
    await bo
      .getByText("you play Bo Tarr")
      .waitFor({ timeout: 15_000 })
      .catch(async (error) => {
        throw new Error(`${error}: ${bo.url()} ${await bo.locator("#app").textContent()}`);
      });
    assert.doesNotMatch(bo.url(), /tfp_/, "the token leaves the address bar");
    await drawer.getByRole("button", { name: "Remove Bo Tarr" }).click();
    await drawer.getByText("Remove Bo Tarr: done.").waitFor({ timeout: WAIT });
    await host.getByText("Bo Tarr: still deciding").waitFor({ state: "detached", timeout: WAIT });
    await host.keyboard.press("Escape");
    await fresh.close();
  });

  it("a fifth tab says why it is not live", async () => {
    // The phone's page holds one of the token's four streams: four more tabs make five.
    const tabs = await Promise.all([1, 2, 3, 4].map(() => phone.newPage()));
    for (const tab of tabs) await tab.goto(`${running.url}/#/game/${gameId}`);
    // phonePage plus four tabs: one of the five is refused and says what to do.
    const status = async () =>
      Promise.all([phonePage, ...tabs].map((p) => p.locator(".game-head [role=status]").textContent()));
    const deadline = Date.now() + WAIT;
    let texts = await status();
    while (!texts.some((t) => /too many tabs/.test(t ?? "")) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      texts = await status();
    }
    assert.ok(
      texts.some((t) => /reconnecting… This game is open in too many tabs: close one/.test(t ?? "")),
      texts.join(" | "),
    );
    for (const tab of tabs) await tab.close();
  });

  it("a reading view: dark and light themes, a text size, and screenshots of a party turn", async () => {
    await phonePage.locator(".game-head [role=status]").getByText("live").waitFor({ timeout: WAIT });
    await host.getByText("Reading and signals").click();
    await host.getByLabel("Theme").selectOption("dark");
    const dark = await host.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    await host.getByLabel("Theme").selectOption("light");
    const light = await host.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    assert.notEqual(dark, light);
    assert.equal(light, "rgb(251, 250, 247)");
    const before = await host.evaluate(() =>
      Number.parseFloat(getComputedStyle(document.documentElement).fontSize),
    );
    await host.getByRole("button", { name: "Larger text" }).click();
    const larger = await host.evaluate(() =>
      Number.parseFloat(getComputedStyle(document.documentElement).fontSize),
    );
    assert.ok(larger > before, `${larger} > ${before}`);
    await host.getByRole("button", { name: "Smaller text" }).click();
    await host.getByText("Reading and signals").click();
    await noSeriousViolations(host, "the game at 1280 px");
    await noSeriousViolations(phonePage, "the game at 360 px");
    // A party turn: two players have acted, the third is deciding.
    await submit("Isobel Carrow", "walk to the Gutted Eel", "t16");
    await phonePage.getByText("Isobel Carrow: has acted").waitFor({ timeout: WAIT });
    await host.locator(".turn-panel").scrollIntoViewIfNeeded();
    await host.screenshot({ path: join(shots, "party-1280.png") });
    await phonePage.locator(".turn-panel").scrollIntoViewIfNeeded();
    await phonePage.screenshot({ path: join(shots, "party-360.png") });
  });

  it("the host frees a seat and its player takes it again from the invite; the host role goes to a player", async () => {
    await host.getByRole("button", { name: "Host tools" }).click();
    const drawer = host.getByRole("complementary", { name: "Host and author tools" });
    await drawer.getByText("Players and seats").click();
    await drawer.getByRole("button", { name: "Free Ada Quill's seat" }).click();
    await drawer.getByText("Free Ada Quill's seat: done.").waitFor({ timeout: WAIT });
    // The phone's seat is gone; turns no longer wait for it, and the party sees it free.
    await phonePage.getByRole("heading", { name: "The host freed your seat" }).waitFor({ timeout: WAIT });
    await phonePage
      .getByText("The host freed your seat: open the invite link again to take a character.")
      .waitFor({ timeout: WAIT });
    await host.getByText("Ada Quill: seat free").waitFor({ timeout: WAIT });
    // A reload still says why (not "not open in this browser") and offers the invite again.
    await phonePage.reload();
    await phonePage.getByRole("heading", { name: "The host freed your seat" }).waitFor({ timeout: WAIT });
    // This phone came by a seat link, so it has no invite to offer: the player joins again with the
    // host's invite, as the same character.
    await phonePage.getByText("No invite link? Ask the host for it").waitFor({ timeout: WAIT });
    const invite = (await new Client(running.url, hostToken).get(`/games/${gameId}`)).json.invite;
    await phonePage.goto(`${running.url}/#/join/${invite}`);
    await phonePage.getByRole("radio", { name: "Ada Quill" }).check();
    await phonePage.getByRole("button", { name: "Join the game" }).click();
    await phonePage.getByText("you play Ada Quill").waitFor({ timeout: WAIT });
    assert.equal(
      (await new Client(running.url, hostToken).get(`/games/${gameId}`)).json.players.find(
        (p: { name: string }) => p.name === "Ada Quill",
      ).id,
      tokens["Ada Quill"]!.id,
      "the same seat, with its history",
    );
    // The host hands the role to Ada: the tools move to her page. Their own character is not offered it.
    await drawer.getByRole("button", { name: "Make Ada Quill the host" }).waitFor({ timeout: WAIT });
    for (const own of ["Make Isobel Carrow the host", "Free Isobel Carrow's seat", "Remove Isobel Carrow"])
      assert.equal(
        await drawer.getByRole("button", { name: own }).count(),
        0,
        `${own}: not for the host's own character`,
      );
    await drawer.getByRole("button", { name: "Make Ada Quill the host" }).click();
    await host.getByText("You handed the host role to Ada Quill").waitFor({ timeout: WAIT });
    assert.equal(await host.getByRole("button", { name: "Host tools" }).count(), 0);
    await phonePage.getByText("You are the host now").waitFor({ timeout: WAIT });
    await phonePage.getByRole("button", { name: "Host tools" }).click();
    await phonePage.getByRole("complementary", { name: "Host and author tools" }).waitFor({ timeout: WAIT });
    await noSeriousViolations(phonePage, "the new host's drawer at 360 px");
    await phonePage.keyboard.press("Escape");
    await noSeriousViolations(host, "the old host's page at 1280 px");
  });

  it("plays on to turn twenty: the journal on the laptop's screen at every turn, no address anywhere", async () => {
    const adaToken = await phonePage.evaluate(
      (key) => (JSON.parse(localStorage.getItem(key) ?? "{}") as { playerToken?: string }).playerToken,
      `taleforge:seat:${gameId}`,
    );
    tokens["Ada Quill"] = { id: tokens["Ada Quill"]!.id, token: adaToken! };
    // Turn 17: Isobel has acted (the screenshot's turn); Ada acts from her phone.
    await phonePage.getByLabel("What do you do?").fill("look around");
    await phonePage.getByRole("button", { name: "Act", exact: true }).click();
    for (let turn = 17; turn <= 20; turn++) {
      if (turn > 17)
        for (const name of ["Isobel Carrow", "Ada Quill"])
          await submit(name, "wait and listen", `end${turn}`);
      await waitTick(turn);
      await host.locator(`.story .step.turn[data-tick="${turn}"]`).waitFor({ timeout: WAIT });
      for (const where of ["as the page scrolled itself", "beside the action box"]) {
        if (where === "beside the action box") await host.locator(".turn-panel").scrollIntoViewIfNeeded();
        const box = await host.locator("#journal-title").boundingBox();
        assert.ok(
          // (Less than a pixel above the top is the sticky column's rounding, not scrolled away.)
          box && box.y > -1 && box.y + box.height <= 900,
          `turn ${turn}, ${where}: the journal is on screen (${JSON.stringify(box)})`,
        );
      }
    }
    for (const page of [host, phonePage]) {
      const text = (await page.locator("#app").textContent()) ?? "";
      assert.ok(!text.includes("127.0.0.1") && !text.includes(mock.url), "no model address on the page");
      assert.doesNotMatch(text, /POST \/games|\/openapi/, "no route named");
    }
    await noSeriousViolations(host, "the game at 1280 px, turn 20");
    await noSeriousViolations(phonePage, "the game at 360 px, turn 20");
  });
});
