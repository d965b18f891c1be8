import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { it } from "node:test";
import { type Browser, chromium, type Page } from "playwright-core";

/** Debian's Chromium: the tests drive it, never a downloaded browser. */
export const CHROMIUM = process.env.TALEFORGE_CHROMIUM || "/usr/bin/chromium";

/**
 * Launches Chromium headless, off the network (no updates, sync or background
 * requests), in a fresh profile. A missing browser fails the test with the
 * command that installs it: the browser tests are never skipped silently.
 */
export async function launchChromium(
  executablePath: string = CHROMIUM,
): Promise<{ browser: Browser; close(): Promise<void> }> {
  if (!existsSync(executablePath))
    throw new Error(
      `Chromium is not installed at ${executablePath}: the browser tests need it. Install it with \`apt-get install -y chromium\` (or set TALEFORGE_CHROMIUM to its path).`,
    );
  const args = [
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-gpu",
    "--disable-dev-shm-usage",
  ];
  if (process.getuid?.() === 0) args.push("--no-sandbox");
  // Playwright's launch() starts from a fresh, temporary user-data-dir of its own (it refuses the flag);
  // each player is then a browser.newContext(), with its own storage.
  const browser = await chromium.launch({ executablePath, headless: true, args, timeout: 60_000 });
  return {
    browser,
    async close() {
      await browser.close().catch(() => {});
    },
  };
}

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string; summary?: string }[];
}

/** Runs axe-core inside the page (WCAG 2 A and AA rules) and returns its serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Colours read in the middle of a transition (a drawer sliding in) are neither the ones before nor after.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
  // Evaluated through the DevTools protocol: the page's Content-Security-Policy (no inline scripts) stays on.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => ({
        target: n.target,
        html: n.html.slice(0, 200),
        // What axe found (the colours and the ratio of a contrast failure), for the test's message.
        summary: ((n as { failureSummary?: string }).failureSummary ?? "").slice(0, 300),
      })),
    }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/**
 * What sticks out of `selector` sideways: each element or piece of text that
 * reaches past the edges of its content box, and each box inside that
 * scrolls sideways (a table wider than the screen). Empty when everything
 * wraps to the width. Visually hidden text (clipped to 1 px) does not count.
 */
export async function horizontalOverflow(page: Page, selector: string): Promise<string[]> {
  // No named functions inside: the test runner's compiler wraps them in a helper the page does not have.
  return page.evaluate((selector) => {
    const root = document.querySelector(selector) as HTMLElement | null;
    if (!root) return [`${selector} is not on the page`];
    const style = getComputedStyle(root);
    const box = root.getBoundingClientRect();
    const left =
      box.left + Number.parseFloat(style.borderLeftWidth) + Number.parseFloat(style.paddingLeft) - 0.5;
    const right =
      box.right - Number.parseFloat(style.borderRightWidth) - Number.parseFloat(style.paddingRight) + 0.5;
    const found: [Node, string][] = [];
    if (root.scrollWidth > root.clientWidth + 1)
      found.push([root, `scrolls sideways: ${root.scrollWidth} px of content in ${root.clientWidth} px`]);
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node instanceof Element ? node : node.parentElement;
      if (!element || element.closest(".visually-hidden")) continue;
      if (node instanceof HTMLElement) {
        const overflowX = getComputedStyle(node).overflowX;
        if ((overflowX === "auto" || overflowX === "scroll") && node.scrollWidth > node.clientWidth + 1)
          found.push([node, `scrolls sideways: ${node.scrollWidth} px of content in ${node.clientWidth} px`]);
      }
      // Text by its words: the spaces at the end of a wrapped line hang past the edge, unseen.
      const rects: DOMRect[] = [];
      if (node instanceof Element) rects.push(node.getBoundingClientRect());
      else
        for (const word of (node.textContent ?? "").matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          rects.push(...range.getClientRects());
        }
      const out = rects.find((r) => r.width > 0 && (r.right > right || r.left < left));
      if (out)
        found.push([
          node,
          `spans ${Math.round(out.left)}–${Math.round(out.right)} px, outside ${Math.round(left)}–${Math.round(right)} px`,
        ]);
    }
    return found.map(([node, why]) => {
      const element = (node instanceof Element ? node : node.parentElement) as Element;
      const classes = [...element.classList].map((c) => `.${c}`).join("");
      return `${element.tagName.toLowerCase()}${classes} “${(node.textContent ?? "").trim().slice(0, 60)}” ${why}`;
    });
  }, selector);
}

/**
 * The steps of one game played in order: each a test of its own, and once one fails the rest fail at
 * once with a line saying so, instead of each waiting out its time on a game that went wrong.
 */
export function gameSteps(): (name: string, body: () => Promise<void>) => void {
  let broken = false;
  return (name, body) =>
    it(name, async () => {
      if (broken) throw new Error("an earlier step of this game failed");
      try {
        await body();
      } catch (error) {
        broken = true;
        throw error;
      }
    });
}
