import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
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
  nodes: { target: string[]; html: string }[];
}

/** Runs axe-core inside the page (WCAG 2 A and AA rules) and returns its serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
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
      nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target, html: n.html.slice(0, 200) })),
    }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
