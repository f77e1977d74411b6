import { mkdirSync } from "node:fs";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";
import { onTestFailed } from "vitest";

/**
 * Debian's Chromium, driven by playwright-core: no browser is downloaded. The flags keep it from
 * reaching for the network (this machine has none) and let it run as root in CI.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
}

const artifacts = new URL("../../../test-artifacts/", import.meta.url);

/** A fresh page in its own context; when the test fails, a screenshot of it lands in test-artifacts/. */
export async function openPage(browser: Browser, url: string, options: BrowserContextOptions = {}, prepare?: (page: Page) => Promise<void>): Promise<Page> {
  const context = await browser.newContext({ locale: "en-US", ...options });
  const page = await context.newPage();
  onTestFailed(async ({ task }) => {
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: new URL(`${task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 80)}.png`, artifacts).pathname, fullPage: true }).catch(() => undefined);
  });
  await prepare?.(page);
  await page.goto(url);
  return page;
}
