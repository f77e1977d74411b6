import { startAopd } from "@compliance-graph/aopd";
import { launchBrowser } from "@compliance-graph/test-kit";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { ms, percentile } from "../support/latency.js";

interface Load {
  firstContentfulPaint: number;
  /** From navigation start until the page's first full render (its `portal-ready` mark). */
  interactive: number;
  formReady: number;
  transferredBytes: number;
}

/**
 * The customer's first impression: how soon the proof page paints and can take a signature, on
 * loopback, in Debian's Chromium. A cold load starts in a fresh browser context (empty cache); a
 * warm one reloads in the same context, as a customer returning to the link would.
 */
export const portalPageScenario: BenchmarkScenario = {
  name: "portal-page",
  async run({ quick }) {
    const loads = quick ? 5 : 30;
    const databaseUrl = await freshBenchDatabase("aopd_bench_portal");
    const aopd = await startAopd({
      config: {
        port: 0,
        databaseUrl,
        expiryIntervalSeconds: 0,
        rateLimitPerClient: 0,
        rateLimitPerCredential: 0,
        readRateLimitPerClient: 0,
        readRateLimitPerCredential: 0,
      },
      insecureDevelopmentIdentity: true,
    });
    const base = new URL(aopd.url).origin;
    const browser = await launchBrowser();
    try {
      const links: string[] = [];
      for (let i = 0; i < loads; i += 1) {
        const response = await fetch(aopd.url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: `mutation { aopd { requestAoppProof(input: { customerId: "BENCH", asset: DTI4H95J0R2X }) { portalUrl } } }` }),
        });
        const { data } = (await response.json()) as { data: { aopd: { requestAoppProof: { portalUrl: string } } } };
        links.push(`${base}${new URL(data.aopd.requestAoppProof.portalUrl).pathname}`);
      }
      const cold: Load[] = [];
      const warm: Load[] = [];
      for (const link of links) {
        const context = await browser.newContext();
        const page = await context.newPage();
        for (const samples of [cold, warm]) {
          const started = Date.now();
          await (samples === cold ? page.goto(link) : page.reload());
          await page.getByRole("button", { name: "Submit proof" }).waitFor();
          const formReady = Date.now() - started;
          const timing = await page.evaluate(() => ({
            paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
            ready: performance.getEntriesByName("portal-ready")[0]?.startTime ?? Number.NaN,
            bytes: (performance.getEntriesByType("navigation") as PerformanceResourceTiming[])
              .concat(performance.getEntriesByType("resource") as PerformanceResourceTiming[])
              .reduce((sum, entry) => sum + entry.transferSize, 0),
          }));
          samples.push({ firstContentfulPaint: timing.paint, interactive: timing.ready, formReady, transferredBytes: timing.bytes });
        }
        await context.close();
      }
      const row = (name: string, samples: Load[]) => {
        const paints = samples.map((load) => load.firstContentfulPaint).sort((a, b) => a - b);
        const interactive = samples.map((load) => load.interactive).sort((a, b) => a - b);
        const ready = samples.map((load) => load.formReady).sort((a, b) => a - b);
        const bytes = samples.map((load) => load.transferredBytes).sort((a, b) => a - b);
        return [
          name,
          ms(percentile(paints, 50)),
          ms(percentile(paints, 95)),
          ms(percentile(interactive, 50)),
          ms(percentile(interactive, 95)),
          ms(percentile(ready, 50)),
          ms(percentile(ready, 95)),
          Math.round(percentile(bytes, 50)).toLocaleString("en"),
        ];
      };
      const table: BenchmarkTable = {
        title: "Customer portal page load (signature proof)",
        method: `aopd on PostgreSQL, the page in headless Debian Chromium through playwright-core on loopback; ${loads} proofs, each opened in a fresh context (cold) and reloaded (warm). First contentful paint from the browser's paint timing; "interactive" from navigation start to the page's \`portal-ready\` mark after its first full render; "form ready" from the benchmark's \`goto\` until Playwright sees the "Submit proof" button (page, script, translations, theme and the proof's view loaded and rendered). Milliseconds; bytes as transferred (compressed; 304s count their headers).`,
        columns: [
          "load",
          "first paint p50",
          "first paint p95",
          "interactive p50",
          "interactive p95",
          "form ready p50",
          "form ready p95",
          "bytes transferred p50",
        ],
        rows: [row("cold cache", cold), row("warm cache", warm)],
      };
      return [table];
    } finally {
      await browser.close();
      await aopd.close();
    }
  },
};
