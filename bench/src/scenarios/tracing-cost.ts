import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { BenchmarkScenario } from "../benchmark-report.js";
import { ensureSeededDatabase } from "../support/bench-database.js";
import { runAutocannon } from "../support/run-autocannon.js";
import { startBenchStack, type BenchStack } from "../support/start-bench-stack.js";

/** An OTLP endpoint that takes every batch and keeps nothing: what the exporters cost, not a collector. */
async function startSink(): Promise<{ url: string; batches: () => number; close(): Promise<void> }> {
  let batches = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      batches += 1;
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, batches: () => batches, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const query = JSON.stringify({ query: "query TracedPage { aopd { proofs(limit: 10, offset: 100) { id status travelRuleTransfers { direction } } } }" });

/**
 * What tracing costs at the gateway: the same stack three times (tracing off, on with sampling 0,
 * on with sampling 1, spans exported to a local OTLP sink), the same query across both subgraphs,
 * measured in alternating rounds so that drift of the machine hits all three alike.
 */
export const tracingCostScenario: BenchmarkScenario = {
  name: "tracing-cost",
  async run({ quick }) {
    const { url } = await ensureSeededDatabase("aopd_bench_tracing", 10_000);
    const sink = await startSink();
    const configurations: { name: string; env: Record<string, string> }[] = [
      { name: "tracing off (no OTLP endpoint)", env: {} },
      { name: "on, sampling 0", env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER_ARG: "0" } },
      { name: "on, sampling 1 (every request)", env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER_ARG: "1" } },
    ];
    const stacks: BenchStack[] = [];
    try {
      for (const configuration of configurations) stacks.push(await startBenchStack(url, { env: configuration.env }));
      const rounds = quick ? 1 : 3;
      const durationSeconds = quick ? 5 : 10;
      const results = configurations.map(() => [] as number[]);
      // Warm-up: JIT, connection pools, token caches.
      for (const stack of stacks)
        await runAutocannon({
          url: `${stack.base}/graphql`,
          body: query,
          headers: { "content-type": "application/json", authorization: `Bearer ${stack.token}` },
          durationSeconds: 2,
        });
      for (let round = 0; round < rounds; round += 1) {
        for (const [index, stack] of stacks.entries()) {
          const result = await runAutocannon({
            url: `${stack.base}/graphql`,
            body: query,
            headers: { "content-type": "application/json", authorization: `Bearer ${stack.token}` },
            durationSeconds,
          });
          if (result.failures > 0) throw new Error(`${configurations[index]?.name}: ${result.failures} failed requests`);
          results[index]?.push(result.requestsPerSecond);
        }
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
      const off = median(results[0] ?? []);
      return [
        {
          title: "Tracing cost at the gateway",
          method:
            `The whole stack in three copies (gateway, aopd, trpd, each in its own process; 10,000 proofs on the PostgreSQL server), one per configuration; ` +
            `a page of 10 proofs with trpd's field through the gateway, 16 connections, ${durationSeconds} s per run, ${rounds} alternating rounds, median requests/s. Spans go to a local OTLP/HTTP sink that discards them.`,
          columns: ["configuration", "requests/s", "rounds", "against off"],
          rows: configurations.map((configuration, index) => {
            const value = median(results[index] ?? []);
            return [configuration.name, Math.round(value), (results[index] ?? []).map(Math.round).join(", "), `${((value / off - 1) * 100).toFixed(1)}%`];
          }),
          notes: [
            `OTLP batches received by the sink: ${sink.batches()} (none expected from the first two).`,
            "Aim: off and sampling 0 within 3% of each other (and of the code before tracing, which is the off path).",
          ],
        },
      ];
    } finally {
      for (const stack of stacks) await stack.stop();
      await sink.close();
    }
  },
};
