import { mkdirSync } from "node:fs";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { onTestFailed } from "vitest";

export { launchBrowser } from "@compliance-graph/test-kit";

const artifacts = new URL("../../../test-artifacts/", import.meta.url);

/** A fresh page in its own context; when the test fails, a screenshot of it lands in test-artifacts/. */
export async function openPage(browser: Browser, url: string, options: BrowserContextOptions = {}, prepare?: (page: Page) => Promise<void>): Promise<Page> {
  const context = await browser.newContext({ locale: "en-US", ...options });
  const page = await context.newPage();
  onTestFailed(async ({ task }) => {
    mkdirSync(artifacts, { recursive: true });
    await page
      .screenshot({ path: new URL(`${task.name.replace(/[^a-z0-9]+/gi, "-").slice(0, 80)}.png`, artifacts).pathname, fullPage: true })
      .catch(() => undefined);
  });
  await prepare?.(page);
  await page.goto(url);
  return page;
}
