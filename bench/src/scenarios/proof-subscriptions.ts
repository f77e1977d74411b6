import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { openDatabase, type Database } from "@compliance-graph/aopd/internals";
import type { BenchmarkScenario, BenchmarkTable } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { rssOf } from "../support/peak-rss.js";
import { ms, percentile } from "../support/latency.js";
import { startBenchStack, type BenchStack } from "../support/start-bench-stack.js";

const selection = "id status customerId travelRuleTransfers { counterpartyVasp direction }";
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

interface Phase {
  name: string;
  /** The filter of subscriber `index`; null: every proof. */
  filterOf: (index: number) => unknown;
  /** The customer of write `index`. */
  customerOf: (index: number) => string;
  rate: number;
  seconds: number;
}

/**
 * Subscribers on the gateway (one WebSocket each, graphql-transport-ws), proofs written at a steady
 * rate straight into PostgreSQL (the table's trigger records each in the event log), and the
 * time from each write's commit to each client's receipt. The selection includes trpd's
 * `travelRuleTransfers`, so every event also runs the rest of the plan.
 */
export const proofSubscriptionsScenario: BenchmarkScenario = {
  name: "proof-subscriptions",
  async run({ quick }) {
    // 500: the live-latency aim of the event log; 2,000: the gateway's connection load.
    const subscriberCounts = quick ? [200] : [500, 2_000];
    const seconds = quick ? 5 : 20;
    const url = await freshBenchDatabase("aopd_bench_subscriptions");
    const clients: Client[] = [];
    let database: Database | undefined;
    let stack: BenchStack | undefined;
    try {
      // One token from one address holds every subscriber here: the caps per subject and per address
      // (docs/subscriptions.md) are raised to the benchmark's load.
      const caps = String(Math.max(...subscriberCounts));
      stack = await startBenchStack(url, {
        env: {
          HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(2 * Number(caps)),
          SUBSCRIPTION_MAX_CONNECTIONS: caps,
          SUBSCRIPTION_MAX_CONNECTIONS_PER_SUBJECT: caps,
          SUBSCRIPTION_MAX_CONNECTIONS_PER_ADDRESS: caps,
          SUBSCRIPTION_MAX_PER_SUBJECT: caps,
          SUBSCRIPTION_MAX_PER_ADDRESS: caps,
        },
      });
      const { base, gateway, token } = stack;
      database = await openDatabase({ databaseUrl: url, maxConnections: 8 });
      const db = database.db;
      const committedAt = new Map<string, number>();
      const write = async (customerId: string) => {
        const { id } = await db
          .insertInto("aopd_proof")
          .values({
            kind: "signature",
            status: "PENDING",
            customer_id: customerId,
            asset: "DTI4H95J0R2X",
            address: `bc1qbench${Math.random().toString(36).slice(2, 12)}`,
            message: "m",
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        committedAt.set(id, performance.now());
      };

      const pid = gateway.child.pid!;
      const rssBefore = rssOf(pid);
      const tables: BenchmarkTable[] = [];
      for (const subscribers of subscriberCounts) {
        const customers = subscribers / 10;
        for (let index = clients.length; index < subscribers; index += 100) {
          const batch = [];
          for (let j = index; j < Math.min(index + 100, subscribers); j += 1) {
            const client = createClient({
              url: `${base.replace("http", "ws")}/graphql`,
              webSocketImpl: WebSocket,
              connectionParams: { bearer_token: token },
              lazy: false,
              retryAttempts: 0,
            });
            clients.push(client);
            batch.push(new Promise<void>((resolve) => client.on("connected", () => resolve())));
          }
          await Promise.all(batch);
        }
        const rssConnected = rssOf(pid);

        const phases: Phase[] = [
          {
            name: `filtered: ${customers} customers, 10 subscribers each`,
            filterOf: (i) => ({ is: { any: { customerId: { eq: `bench-${i % customers}` } } } }),
            customerOf: (i) => `bench-${i % customers}`,
            rate: 100,
            seconds,
          },
          { name: "broadcast: every subscriber, every proof", filterOf: () => null, customerOf: () => "bench-all", rate: quick ? 10 : 10, seconds },
        ];
        const rows: (string | number)[][] = [];
        let rssSubscribed = 0;
        for (const phase of phases) {
          const latencies: number[] = [];
          const early = new Map<string, number[]>();
          let received = 0;
          const live = new Set<number>();
          const stops = clients.map((client, index) =>
            client.subscribe(
              {
                query: `subscription($filter: AopdProofFilterInput) { aopdProofs(filter: $filter) { ${selection} } }`,
                variables: { filter: phase.filterOf(index) },
              },
              {
                next: (value) => {
                  const now = performance.now();
                  live.add(index);
                  const id = (value.data?.aopdProofs as { id: string } | undefined)?.id;
                  if (!id) return;
                  received += 1;
                  const committed = committedAt.get(id);
                  if (committed !== undefined) latencies.push(Math.max(0, now - committed));
                  else early.set(id, [...(early.get(id) ?? []), now]);
                },
                error: (error) => console.error("subscription error", JSON.stringify(error)),
                complete: () => {},
              },
            ),
          );
          // Probe until every subscriber is live at the subgraph, then measure from a clean slate.
          for (let round = 0; live.size < subscribers && round < 100; round += 1) {
            await Promise.all(Array.from({ length: phase.filterOf(0) === null ? 1 : customers }, (_, c) => write(phase.customerOf(c))));
            await sleep(300);
          }
          await sleep(500);
          if (rssSubscribed === 0) rssSubscribed = rssOf(pid);
          latencies.length = 0;
          early.clear();
          received = 0;
          const writes = phase.rate * phase.seconds;
          const started = performance.now();
          const pending: Promise<void>[] = [];
          for (let i = 0; i < writes; i += 1) {
            const due = started + (i * 1000) / phase.rate;
            const wait = due - performance.now();
            if (wait > 0) await sleep(wait);
            pending.push(write(phase.customerOf(Math.floor(Math.random() * customers))));
          }
          await Promise.all(pending);
          await sleep(2_000);
          for (const [id, times] of early) {
            const committed = committedAt.get(id);
            if (committed !== undefined) for (const time of times) latencies.push(Math.max(0, time - committed));
          }
          for (const stop of stops) stop();
          await sleep(500);
          latencies.sort((a, b) => a - b);
          const expected = phase.filterOf(0) === null ? writes * subscribers : writes * 10;
          rows.push([
            phase.name,
            subscribers,
            phase.rate,
            phase.rate * (expected / writes),
            `${received} / ${expected}`,
            ms(percentile(latencies, 50)),
            ms(percentile(latencies, 99)),
            ms(latencies.at(-1) ?? Number.NaN),
          ]);
        }
        tables.push({
          title: `Proof subscriptions: ${subscribers.toLocaleString("en")} subscribers on the gateway`,
          method:
            `Gateway, aopd (PostgreSQL server on loopback) and trpd each in their own process; ${subscribers.toLocaleString("en")} graphql-ws clients (one WebSocket each, one access token) in the benchmark process; ` +
            `proofs inserted (each recorded in the event log by the table's trigger, numbered after commit) at a steady rate for ${seconds} s; latency from the commit's return to the client's receipt, milliseconds. The selection includes trpd's \`travelRuleTransfers\`.`,
          columns: ["phase", "subscribers", "writes/s", "deliveries/s", "delivered / expected", "p50", "p99", "max"],
          rows,
          notes: [
            `Gateway RSS: ${(rssBefore / 2 ** 20).toFixed(1)} MiB idle, ${(rssConnected / 2 ** 20).toFixed(1)} MiB with ${subscribers} connections, ${(rssSubscribed / 2 ** 20).toFixed(1)} MiB with their subscriptions: ${((rssSubscribed - rssBefore) / subscribers / 1024).toFixed(1)} KiB per subscribed connection.`,
            "Subscriptions of one identity with the same operation and variables share one subscription at aopd, and the rest of the plan runs once per event for all of them; here every subscriber holds the same token.",
            "Aim: p99 under 250 ms at 100 events/s.",
          ],
        });
      }
      return tables;
    } finally {
      await Promise.all(clients.map((client) => client.dispose()));
      await database?.close();
      await stack?.stop();
    }
  },
};
