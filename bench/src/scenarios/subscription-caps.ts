import WebSocket from "ws";
import { openDatabase, type Database } from "@compliance-graph/aopd/internals";
import type { BenchmarkScenario } from "../benchmark-report.js";
import { freshBenchDatabase } from "../support/bench-database.js";
import { rssOf, samplePeakRss } from "../support/peak-rss.js";
import { startBenchStack, type BenchStack } from "../support/start-bench-stack.js";

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

interface Outcome {
  acknowledged: number;
  closes: Map<number, number>;
  admitted: number;
  refused: number;
  received: number;
}

/**
 * Opens `sockets` graphql-transport-ws sockets with one token, each subscribing `perSocket` times
 * to every proof (no filter), and reports what the gateway accepted. Every result is read.
 */
async function attack(base: string, token: string, sockets: number, perSocket: number, open: WebSocket[]): Promise<Outcome> {
  const outcome: Outcome = { acknowledged: 0, closes: new Map(), admitted: 0, refused: 0, received: 0 };
  const url = `${base.replace("http", "ws")}/graphql`;
  for (let start = 0; start < sockets; start += 50) {
    await Promise.all(
      Array.from(
        { length: Math.min(50, sockets - start) },
        () =>
          new Promise<void>((resolve) => {
            const socket = new WebSocket(url, "graphql-transport-ws");
            open.push(socket);
            socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: { bearer_token: token } })));
            socket.on("message", (data) => {
              const message = JSON.parse(String(data)) as { type: string };
              if (message.type === "connection_ack") {
                outcome.acknowledged += 1;
                for (let i = 0; i < perSocket; i += 1)
                  socket.send(JSON.stringify({ type: "subscribe", id: String(i), payload: { query: "subscription { aopdProofs { id status customerId } }" } }));
                resolve();
              } else if (message.type === "error") outcome.refused += 1;
              else if (message.type === "next") outcome.received += 1;
            });
            socket.on("close", (code) => {
              outcome.closes.set(code, (outcome.closes.get(code) ?? 0) + 1);
              resolve();
            });
            socket.on("error", () => resolve());
          }),
      ),
    );
  }
  return outcome;
}

/**
 * The audit's attack on the subscription caps (issue 26, item 4): one `proofs:read`-capable token
 * opening 200 sockets x 50 `aopdProofs`, then 23 writes. First with the default caps; then with the
 * caps per subject and per address raised to the replica's, so that one client reaches the
 * replica's own caps (1,000 sockets, 10,000 subscriptions): the most a replica holds. Gateway RSS
 * before, with everything open, and its peak while the writes fan out.
 */
export const subscriptionCapsScenario: BenchmarkScenario = {
  name: "subscription-caps",
  async run({ quick }) {
    const url = await freshBenchDatabase("aopd_bench_subscription_caps");
    const rows: (string | number)[][] = [];
    const replicaCaps = {
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: "2000",
      SUBSCRIPTION_MAX_CONNECTIONS_PER_SUBJECT: "1000",
      SUBSCRIPTION_MAX_CONNECTIONS_PER_ADDRESS: "1000",
      SUBSCRIPTION_MAX_PER_SUBJECT: "10000",
      SUBSCRIPTION_MAX_PER_ADDRESS: "10000",
    };
    const runs = [
      { name: "audit attack, default caps", sockets: quick ? 40 : 200, perSocket: 50, env: {} },
      { name: "replica caps reached (per-subject and per-address caps raised)", sockets: quick ? 100 : 1_100, perSocket: 10, env: replicaCaps },
    ];
    let database: Database | undefined;
    try {
      database = await openDatabase({ databaseUrl: url, maxConnections: 4 });
      for (const run of runs) {
        const open: WebSocket[] = [];
        let stack: BenchStack | undefined;
        try {
          stack = await startBenchStack(url, { env: run.env });
          const pid = stack.gateway.child.pid!;
          const idle = rssOf(pid);
          const outcome = await attack(stack.base, stack.token, run.sockets, run.perSocket, open);
          // Let the subscriptions reach aopd: probe writes until every admitted one has received.
          for (let round = 0; round < 100; round += 1) {
            outcome.received = 0;
            await database.db
              .insertInto("aopd_proof")
              .values({
                kind: "signature",
                status: "PENDING",
                customer_id: "bench-caps-probe",
                asset: "DTI4H95J0R2X",
                address: `bc1qprobe${round}`,
                message: "m",
              })
              .execute();
            await new Promise((resolve) => setTimeout(resolve, 1_000));
            outcome.admitted = outcome.acknowledged * run.perSocket - outcome.refused;
            if (outcome.received >= outcome.admitted) break;
          }
          const connected = rssOf(pid);
          outcome.received = 0;
          const peak = samplePeakRss(pid);
          const writes = 23;
          for (let i = 0; i < writes; i += 1) {
            await database.db
              .insertInto("aopd_proof")
              .values({ kind: "signature", status: "PENDING", customer_id: "bench-caps", asset: "DTI4H95J0R2X", address: `bc1qcaps${i}`, message: "m" })
              .execute();
          }
          const expected = writes * outcome.admitted;
          for (let wait = 0; wait < 120 && outcome.received < expected; wait += 1) await new Promise((resolve) => setTimeout(resolve, 500));
          const peakRss = peak.stop();
          const closes = [...outcome.closes].map(([code, count]) => `${count} × ${code}`).join(", ") || "none";
          rows.push([
            run.name,
            `${run.sockets} × ${run.perSocket}`,
            outcome.acknowledged,
            closes,
            outcome.admitted,
            outcome.refused,
            `${outcome.received} / ${expected}`,
            mib(idle),
            mib(connected),
            mib(peakRss),
          ]);
        } finally {
          for (const socket of open) socket.terminate();
          await stack?.stop();
        }
      }
    } finally {
      await database?.close();
    }
    return [
      {
        title: "Subscription caps: one token's sockets and subscriptions",
        method:
          "Gateway, aopd (PostgreSQL on loopback) and trpd each in their own process (bench stack); raw graphql-transport-ws sockets with one token from one address, each subscribing to every proof (no filter); 23 proofs then inserted and every result read. RSS of the gateway process in MiB: idle, with everything open (after probe writes), and its peak sampled every 100 ms while the 23 writes fan out.",
        columns: [
          "run",
          "sockets × subscriptions asked",
          "sockets acknowledged",
          "sockets closed",
          "subscriptions running",
          "refused (LIMIT_EXCEEDED)",
          "results delivered / expected",
          "RSS idle",
          "RSS open",
          "RSS peak",
        ],
        rows,
        notes: ["Before the caps (issue 26): 200 × 50 all accepted, gateway RSS 173 -> 468 MB after 23 writes (230,000 messages)."],
      },
    ];
  },
};
