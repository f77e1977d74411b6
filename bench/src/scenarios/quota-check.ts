import { createQuotaDoor, type QuotaSettings } from "@compliance-graph/gateway";
import { createLogger } from "@compliance-graph/process-shell";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { ensureSeededDatabase, freshBenchDatabase } from "../support/bench-database.js";
import { runAutocannon } from "../support/run-autocannon.js";
import { startBenchStack, type BenchStack } from "../support/start-bench-stack.js";

/** Quotas no caller of the benchmark reaches: every check runs, none refuses. */
const unreachable = 1_000_000_000_000;

/** CPU time of `checks` request-quota checks by `subjects` callers of one client, in chunks so that the shared counter's syncs run between them. */
async function cpuPerCheck(settings: QuotaSettings, checks: number, subjects: number): Promise<{ nanoseconds: number }> {
  const door = createQuotaDoor({
    settings,
    costLimits: { maxCost: 200_000, maxListRows: 100_000, assumedListSize: 10 },
    logger: createLogger("bench", "silent"),
  });
  try {
    const identities = Array.from({ length: subjects }, (_, index) => ({ subject: `subject-${index}`, client: "bench-client", roles: [] }));
    let refused = 0;
    const chunk = 10_000;
    let cpu = 0;
    for (let done = 0; done < checks; done += chunk) {
      const before = process.cpuUsage();
      for (let index = 0; index < chunk; index += 1) if (door.admitRequest(identities[(done + index) % subjects]!)) refused += 1;
      const used = process.cpuUsage(before);
      cpu += used.user + used.system;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (refused > 0) throw new Error(`${refused} checks refused; the quotas are meant to be out of reach`);
    return { nanoseconds: (cpu * 1000) / checks };
  } finally {
    await door.close();
  }
}

const query = JSON.stringify({ query: "query QuotaPage { aopd { proofs(limit: 10) { id status } } }" });

/**
 * What quotas cost at the gateway: the check alone (CPU per request, in process), and the whole
 * gateway's requests/s with quotas off, counted in memory, and shared through PostgreSQL.
 */
export const quotaCheckScenario: BenchmarkScenario = {
  name: "quota-check",
  async run({ quick }) {
    const quotaDatabase = await freshBenchDatabase("quota_bench_counts");
    const checks = quick ? 200_000 : 2_000_000;
    const requestQuotas = { clientRequests: unreachable, subjectRequests: unreachable };
    const inMemory = await cpuPerCheck({ defaults: requestQuotas, clients: {}, replicas: 1, syncIntervalMs: 250 }, checks, 1_000);
    const shared = await cpuPerCheck({ defaults: requestQuotas, clients: {}, replicas: 1, syncIntervalMs: 250, databaseUrl: quotaDatabase }, checks, 1_000);
    const checkTable: BenchmarkTable = {
      title: "Quota check: CPU per request",
      method: `${checks.toLocaleString("en")} request-quota checks (client and subject quota, 1,000 subjects of one client, quotas out of reach so every check counts), in process, CPU time (user + system) of the checks alone, in chunks of 10,000 between which the shared counter syncs.`,
      columns: ["counter", "CPU per check"],
      rows: [
        ["in memory (no GATEWAY_QUOTA_DATABASE_URL)", `${inMemory.nanoseconds.toFixed(0)} ns`],
        ["shared through PostgreSQL (sync every 250 ms, off the request's path)", `${shared.nanoseconds.toFixed(0)} ns`],
      ],
    };

    // The in-process figures first: they stand on their own if the machine is too loaded for the whole stack's.
    console.log(
      JSON.stringify({ scenario: "quota-check", cpuPerCheckNs: { inMemory: Math.round(inMemory.nanoseconds), shared: Math.round(shared.nanoseconds) } }),
    );
    const { url } = await ensureSeededDatabase("quota_bench_aopd", 1_000);
    const quotaEnv = {
      GATEWAY_QUOTA_CLIENT_REQUESTS: String(unreachable),
      GATEWAY_QUOTA_SUBJECT_REQUESTS: String(unreachable),
      GATEWAY_QUOTA_CLIENT_COST: String(unreachable),
      GATEWAY_QUOTA_SUBJECT_COST: String(unreachable),
    };
    const configurations: { name: string; env: Record<string, string> }[] = [
      { name: "quotas off", env: {} },
      { name: "request and cost quotas, in memory", env: quotaEnv },
      { name: "request and cost quotas, shared through PostgreSQL", env: { ...quotaEnv, GATEWAY_QUOTA_DATABASE_URL: quotaDatabase } },
    ];
    const stacks: BenchStack[] = [];
    try {
      for (const configuration of configurations) stacks.push(await startBenchStack(url, { env: configuration.env }));
      const rounds = quick ? 1 : 3;
      const durationSeconds = quick ? 5 : 10;
      const results = configurations.map(() => [] as number[]);
      const load = (stack: BenchStack, seconds: number) =>
        runAutocannon({
          url: `${stack.base}/graphql`,
          body: query,
          headers: { "content-type": "application/json", authorization: `Bearer ${stack.token}` },
          durationSeconds: seconds,
        });
      for (const stack of stacks) await load(stack, 2);
      for (let round = 0; round < rounds; round += 1) {
        for (const [index, stack] of stacks.entries()) {
          const result = await load(stack, durationSeconds);
          if (result.failures > 0) throw new Error(`${configurations[index]?.name}: ${result.failures} failed requests (not 2xx, socket errors or timeouts)`);
          results[index]?.push(result.requestsPerSecond);
        }
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
      const off = median(results[0] ?? []);
      return [
        checkTable,
        {
          title: "Quotas at the gateway: requests/s",
          method:
            `The whole stack in three copies (gateway, aopd, trpd, each in its own process; 1,000 proofs on the PostgreSQL server), one per configuration; ` +
            `a page of 10 proofs through the gateway with one client's token, 16 connections, ${durationSeconds} s per run, ${rounds} alternating rounds, median requests/s. All four quotas set out of reach, so every request is counted and none refused.`,
          columns: ["configuration", "requests/s", "rounds", "against off"],
          rows: configurations.map((configuration, index) => {
            const value = median(results[index] ?? []);
            return [configuration.name, Math.round(value), (results[index] ?? []).map(Math.round).join(", "), `${((value / off - 1) * 100).toFixed(1)}%`];
          }),
          notes: [
            "Aim: within the rounds' spread of off; the check is a map lookup or two per request, and the cost quota reuses the cost GRAPHQL_MAX_COST computed.",
          ],
        },
      ];
    } finally {
      for (const stack of stacks) await stack.stop();
    }
  },
};
