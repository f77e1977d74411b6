import { startConsoleStack } from "@compliance-graph/e2e/console-stack";
import { launchBrowser } from "@compliance-graph/test-kit";
import type { Response } from "playwright-core";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { ensureSeededDatabase } from "../support/bench-database.js";
import { ms, percentile } from "../support/latency.js";

/** Proofs in the database the console pages through. */
const proofCount = 100_000;

/**
 * The officer's first impression: the bytes of the console's first load (compressed JavaScript and
 * CSS, the 150 KB budget of docs/console.md), and the time from navigation to the first page of 50
 * proofs on screen with 100,000 proofs in PostgreSQL, through the gateway, in Debian's Chromium.
 */
export const consolePageScenario: BenchmarkScenario = {
  name: "console-page",
  async run({ quick }) {
    const loads = quick ? 3 : 15;
    const { url: databaseUrl, seededSeconds } = await ensureSeededDatabase("aopd_bench_console", proofCount);
    const stack = await startConsoleStack({ databaseUrl });
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ locale: "en-US" });
      const page = await context.newPage();
      // The first load's assets, as transferred (brotli): counted on the way to the sign-in page.
      const assetBytes = { js: 0, css: 0 };
      const counting = async (response: Response) => {
        const path = new URL(response.url()).pathname;
        if (!path.startsWith("/console/assets/")) return;
        const sizes = await response.request().sizes();
        if (path.endsWith(".js")) assetBytes.js += sizes.responseBodySize;
        if (path.endsWith(".css")) assetBytes.css += sizes.responseBodySize;
      };
      page.on("response", counting);
      await page.goto(`${stack.baseUrl}/console/`);
      await page.getByLabel("Username").fill("demo-officer");
      page.off("response", counting);
      await page.getByLabel("Password").fill("demo-password");
      await page.getByRole("button", { name: "Sign in" }).click();
      const rows = page.getByRole("table", { name: "Proofs" }).getByRole("row");
      await rows.nth(50).waitFor({ timeout: 120_000 });

      const samples: number[] = [];
      for (let i = 0; i < loads; i += 1) {
        const started = performance.now();
        // A full navigation each time (the signed-in session stays in the tab), a different page each time.
        await page.goto(`${stack.baseUrl}/console/?page=${i + 2}`);
        await rows.nth(50).waitFor({ timeout: 120_000 });
        samples.push(performance.now() - started);
      }
      samples.sort((a, b) => a - b);
      const table: BenchmarkTable = {
        title: "Officer console: first load and first page of proofs",
        method: `The whole system on one loopback origin (identity provider, gateway, aopd on PostgreSQL with ${proofCount.toLocaleString("en")} seeded proofs${seededSeconds !== undefined ? `, seeded in ${seededSeconds.toFixed(1)} s` : ""}), the console in headless Debian Chromium through playwright-core. Bytes: the console's JavaScript and CSS of the first load as transferred (brotli), before sign-in (the QR encoder, loaded on first use, is not part of it). Time: ${loads} navigations to /console/?page=N of a signed-in tab, from \`goto\` until the table shows 50 proofs (page, script, config, token from session storage, \`configuration\`, then \`proofsCount\` and the page of 50 through the gateway). Milliseconds.`,
        columns: ["JS bytes", "CSS bytes", "first page of 50 p50", "p95", "max"],
        rows: [
          [
            assetBytes.js.toLocaleString("en"),
            assetBytes.css.toLocaleString("en"),
            ms(percentile(samples, 50)),
            ms(percentile(samples, 95)),
            ms(samples.at(-1) ?? Number.NaN),
          ],
        ],
      };
      return [table];
    } finally {
      await browser.close();
      await stack.close();
    }
  },
};
