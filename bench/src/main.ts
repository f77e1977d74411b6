import { writeFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { renderTable, type BenchmarkScenario } from "./benchmark-report.js";
import { assetSchemaScenario } from "./scenarios/asset-schema.js";
import { callbackFloodScenario } from "./scenarios/callback-flood.js";
import { portalPageScenario } from "./scenarios/portal-page.js";
import { consolePageScenario } from "./scenarios/console-page.js";
import { gatewayComparisonScenario } from "./scenarios/gateway-comparison.js";
import { federationBenchmarkScenario } from "./scenarios/federation-benchmark/federation-benchmark.js";
import { proofExportScenario } from "./scenarios/proof-export.js";
import { proofIngestionScenario } from "./scenarios/proof-ingestion.js";
import { proofQueriesScenario } from "./scenarios/proof-queries.js";
import { portalApiScenario } from "./scenarios/portal-api.js";
import { contractWalletSignaturesScenario } from "./scenarios/contract-wallet-signatures.js";
import { proofSubscriptionsScenario } from "./scenarios/proof-subscriptions.js";
import { proofEventLogScenario } from "./scenarios/proof-event-log.js";
import { tracingCostScenario } from "./scenarios/tracing-cost.js";
import { quotaCheckScenario } from "./scenarios/quota-check.js";
import { chainChecksScenario } from "./scenarios/chain-checks.js";
import { mediaTransferScenario } from "./scenarios/media-transfer.js";
import { subscriptionCapsScenario } from "./scenarios/subscription-caps.js";
import { proofReceiptsScenario } from "./scenarios/proof-receipts.js";
import { usageRecordingScenario } from "./scenarios/usage-recording.js";
import { auditTrailScenario } from "./scenarios/audit-trail.js";
import { auditLogScenario } from "./scenarios/audit-log.js";
import { sanctionsScreeningScenario } from "./scenarios/sanctions-screening.js";
import { registryCheckScenario } from "./scenarios/registry-check.js";
import { registryPublishToServedScenario } from "./scenarios/registry-publish-to-served.js";
import { siblingAddressScreeningScenario } from "./scenarios/sibling-address-screening.js";

/**
 * `npm run bench [-- --only name] [-- --quick]`: runs every scenario in turn and writes
 * docs/benchmarks.md. `--quick` shrinks data sizes, for checking that the scenarios run at all.
 */
const scenarios: BenchmarkScenario[] = [
  proofQueriesScenario,
  proofIngestionScenario,
  proofExportScenario,
  gatewayComparisonScenario,
  federationBenchmarkScenario,
  proofSubscriptionsScenario,
  proofEventLogScenario,
  portalApiScenario,
  contractWalletSignaturesScenario,
  portalPageScenario,
  consolePageScenario,
  callbackFloodScenario,
  assetSchemaScenario,
  chainChecksScenario,
  mediaTransferScenario,
  subscriptionCapsScenario,
  tracingCostScenario,
  proofReceiptsScenario,
  usageRecordingScenario,
  auditTrailScenario,
  auditLogScenario,
  sanctionsScreeningScenario,
  siblingAddressScreeningScenario,
  quotaCheckScenario,
  registryCheckScenario,
  registryPublishToServedScenario,
];

process.env.APOLLO_TELEMETRY_DISABLED = "1";
process.env.LOG_LEVEL ??= "warn";
const { values } = parseArgs({ options: { only: { type: "string" }, quick: { type: "boolean", default: false } } });
const selected = scenarios.filter((scenario) => !values.only || scenario.name === values.only);
// A full run writes docs/benchmarks.md; --quick and --only write beside it, so that a partial run
// never overwrites the full report. Charts go beside the report as `<report>.<chart>.svg` and are
// linked from it; .gitignore's `docs/benchmarks-*` then keeps partial runs' charts out of git too.
const reportName = !values.only && !values.quick ? "benchmarks" : `benchmarks-${values.only ?? "quick"}`;
const sections: string[] = [];
for (const scenario of selected) {
  console.log(`# ${scenario.name}`);
  const tables = await scenario.run({ quick: values.quick ?? false });
  for (const table of tables) {
    const chartFile = table.chart ? `${reportName}.${table.chart.name}.svg` : undefined;
    if (table.chart && chartFile) writeFileSync(new URL(`../../docs/${chartFile}`, import.meta.url), table.chart.svg);
    const text = renderTable(table, chartFile);
    console.log(text);
    sections.push(text);
  }
}
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
const report = `# Benchmarks\n\nWritten by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}. Machine: ${machine}.\n\n${sections.join("\n")}`;
writeFileSync(new URL(`../../docs/${reportName}.md`, import.meta.url), report);
