import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { launchBrowser } from "../portal/support/browser.js";
import { signedIn, slow } from "./support/officer-pages.js";
import { startConsoleStack, type ConsoleStack } from "./support/start-console-stack.js";

/** Neither the console's nor the shipped theme's colour: only the operator's file can bring it. */
const operatorPrimary = "#7b2d43";
const operatorLogo = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40"><rect width="120" height="40" fill="${operatorPrimary}"/></svg>`;

/** The operator's theme and logo (AOPD_THEME_FILE, AOPD_LOGO_FILE), which the portal wears, dress the console too. */
describe("the officer console in the operator's theme", { timeout: 180_000 }, () => {
  let stack: ConsoleStack;
  let browser: Browser;

  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), "console-theme-"));
    const shipped = JSON.parse(await readFile(new URL("../../subgraphs/aopd/portal/theme.json", import.meta.url), "utf8")) as {
      colors: Record<string, string>;
    };
    await writeFile(
      join(folder, "theme.json"),
      JSON.stringify({ ...shipped, colors: { ...shipped.colors, primary: operatorPrimary }, shape: { borderRadius: "3px" } }),
    );
    await writeFile(join(folder, "logo.svg"), operatorLogo);
    stack = await startConsoleStack({
      databaseUrl: await createTestDatabase("console_theme"),
      themeFile: join(folder, "theme.json"),
      logoFile: join(folder, "logo.svg"),
    });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("uses the operator's colours, shape and logo, as the portal does", async () => {
    const page = await signedIn(browser, stack, "/console/");
    const apply = page.getByRole("button", { name: "Apply filter" });
    await apply.waitFor(slow);
    expect(await apply.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe("rgb(123, 45, 67)");
    expect(await apply.evaluate((element) => getComputedStyle(element).borderRadius)).toBe("3px");
    const logo = page.getByRole("banner").locator("img.logo");
    const source = (await logo.getAttribute("src")) ?? "";
    expect(Buffer.from(source.replace(/^data:image\/svg\+xml;base64,/, ""), "base64").toString("utf8")).toBe(operatorLogo);
    await page.waitForFunction(() => (document.querySelector("img.logo") as HTMLImageElement | null)?.naturalWidth === 120, undefined, slow);
    // The portal of the same deployment wears the same colour.
    const portalTheme = (await (await fetch(`${stack.baseUrl}/portal/theme.json`)).json()) as { colors: { primary: string } };
    expect(portalTheme.colors.primary).toBe(operatorPrimary);
  });
});
