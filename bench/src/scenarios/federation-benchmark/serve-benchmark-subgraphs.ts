import { startBenchmarkSubgraphs } from "./start-benchmark-subgraphs.js";

// The federation benchmark's subgraphs in a process of their own (`PORT`, `HOST`), for the
// benchmark and for trying another gateway by hand against them. `BENCH_SUBGRAPH_REPLAY=false`
// executes every request instead of replaying the first answer to each body.
const subgraphs = await startBenchmarkSubgraphs({
  port: Number(process.env.PORT ?? 4200),
  host: process.env.HOST ?? "127.0.0.1",
  replay: process.env.BENCH_SUBGRAPH_REPLAY !== "false",
});
console.log(`benchmark subgraphs at ${subgraphs.url("accounts").replace(/\/accounts$/, "")}/{accounts,inventory,products,reviews}`);
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void subgraphs.close().then(() => process.exit(0)));
