import { writeFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { renderTable, type BenchmarkScenario } from "./benchmark-report.js";
import { proofIngestionScenario } from "./scenarios/proof-ingestion.js";
import { proofQueriesScenario } from "./scenarios/proof-queries.js";

/**
 * `npm run bench [-- --only name] [-- --quick]`: runs every scenario in turn and writes
 * docs/benchmarks.md. `--quick` shrinks data sizes, for checking that the scenarios run at all.
 */
const scenarios: BenchmarkScenario[] = [proofQueriesScenario, proofIngestionScenario];

process.env.APOLLO_TELEMETRY_DISABLED = "1";
process.env.LOG_LEVEL ??= "warn";
const { values } = parseArgs({ options: { only: { type: "string" }, quick: { type: "boolean", default: false } } });
const selected = scenarios.filter((scenario) => !values.only || scenario.name === values.only);
const sections: string[] = [];
for (const scenario of selected) {
  console.log(`# ${scenario.name}`);
  const tables = await scenario.run({ quick: values.quick ?? false });
  for (const table of tables) {
    const text = renderTable(table);
    console.log(text);
    sections.push(text);
  }
}
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
const report = `# Benchmarks\n\nWritten by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}. Machine: ${machine}.\n\n${sections.join("\n")}`;
if (!values.only && !values.quick) writeFileSync(new URL("../../docs/benchmarks.md", import.meta.url), report);
else writeFileSync(new URL(`../../docs/benchmarks-${values.only ?? "quick"}.md`, import.meta.url), report);
